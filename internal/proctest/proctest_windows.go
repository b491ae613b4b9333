package proctest

import (
	"time"

	"golang.org/x/sys/windows"
)

// WaitExit waits up to d for process pid to terminate and reports whether
// it did; a pid that no longer exists has terminated. It waits on the
// process handle, which is signalled when the process terminates.
func WaitExit(pid int, d time.Duration) (bool, error) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err == windows.ERROR_INVALID_PARAMETER {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, uint32(d.Milliseconds()))
	if err != nil {
		return false, err
	}
	return ev == windows.WAIT_OBJECT_0, nil
}
