package proc

import (
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sysChild holds the child's Job Object.
type sysChild struct {
	job windows.Handle
}

// start starts the child and assigns it at once to a new Job Object that
// kills every process in it when its last handle closes (drift-lsp's, also
// when drift-lsp dies) and caps each process's committed memory. A process
// the child starts before the assignment escapes the job: os/exec cannot
// start a process suspended; the window is the few instructions between
// CreateProcess and AssignProcessToJobObject.
func (c *Child) start(memLimit uint64, logf func(string, ...any)) error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if memLimit > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY
		info.ProcessMemoryLimit = uintptr(memLimit)
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return err
	}
	if err := c.cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return err
	}
	c.sys.job = job
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(c.cmd.Process.Pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, h)
		windows.CloseHandle(h)
	}
	if err != nil {
		logf("proc: cannot put pid %d in a job object (it will not be ended with drift-lsp): %v", c.cmd.Process.Pid, err)
	}
	return nil
}

// release closes the job: what the child left running is killed.
func (c *Child) release() { windows.CloseHandle(c.sys.job) }

// Kill kills every process of the child's job at once.
func (c *Child) Kill() {
	_ = windows.TerminateJobObject(c.sys.job, 1)
	_ = c.cmd.Process.Kill()
}

// Terminate is Kill: Windows has no termination request that console-less
// processes receive.
func (c *Child) Terminate() { c.Kill() }

// Alive reports whether process pid is still running.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == uint32(windows.WAIT_TIMEOUT)
}

// CPUTime returns the user and kernel CPU time this process has used.
func CPUTime() time.Duration {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user); err != nil {
		return 0
	}
	// Filetime counts 100 ns intervals.
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100
}
