package proctest

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// WaitExit waits up to d for process pid to terminate and reports whether
// it did; a pid that no longer exists has terminated. It waits on a pidfd,
// which becomes readable when the process terminates (a zombie counts).
func WaitExit(pid int, d time.Duration) (bool, error) {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(d.Milliseconds()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false, err
		}
		return n > 0, nil
	}
}
