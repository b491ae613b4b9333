//go:build unix

package proc

import (
	"syscall"
	"time"
)

// Kill kills the child and everything in its process group at once.
func (c *Child) Kill() {
	c.killGroup()
	_ = c.cmd.Process.Kill()
}

// killGroup sends SIGKILL to the child's process group.
func (c *Child) killGroup() { _ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL) }

// Terminate asks the child and its process group to stop (SIGTERM); Kill
// ends them for good.
func (c *Child) Terminate() {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGTERM)
}

// Alive reports whether process pid exists (signal 0; EPERM means it
// exists but belongs to someone else).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// CPUTime returns the user and system CPU time this process has used.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
