//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package proctest

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// WaitExit waits up to d for process pid to terminate and reports whether
// it did; a pid that no longer exists has terminated. It waits on kqueue's
// EVFILT_PROC NOTE_EXIT event.
func WaitExit(pid int, d time.Duration) (bool, error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return false, err
	}
	defer unix.Close(kq)
	ev := unix.Kevent_t{}
	unix.SetKevent(&ev, pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev.Fflags = unix.NOTE_EXIT
	ts := unix.NsecToTimespec(d.Nanoseconds())
	out := make([]unix.Kevent_t, 1)
	for {
		n, err := unix.Kevent(kq, []unix.Kevent_t{ev}, out, &ts)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.ESRCH):
			return true, nil
		case err != nil:
			return false, err
		}
		if n > 0 && out[0].Flags&unix.EV_ERROR != 0 && unix.Errno(out[0].Data) == unix.ESRCH {
			return true, nil
		}
		return n > 0, nil
	}
}
