// Package proc starts child processes under the rules drift-lsp keeps on
// every OS: a child runs in its own process group (a Job Object on Windows)
// so that ending it ends everything it started, it dies when drift-lsp dies,
// even by SIGKILL, and its memory is capped where the OS allows it. Every
// child process of drift-lsp (the Lean REPL, lean, the local model) starts
// here; see docs/editors.md, "Platforms", for what each OS offers.
package proc

import (
	"os/exec"
)

// Child is a process started by Start.
type Child struct {
	cmd *exec.Cmd
	sys sysChild
}

// Start starts cmd, whose SysProcAttr must be unset, under the rules of the
// package, with at most memLimit bytes of address space for it and its
// children (0: no limit). A limit the OS refuses is reported to logf (which
// may be nil), not returned: the child still runs.
func Start(cmd *exec.Cmd, memLimit uint64, logf func(format string, args ...any)) (*Child, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	c := &Child{cmd: cmd}
	if err := c.start(memLimit, logf); err != nil {
		return nil, err
	}
	return c, nil
}

// Pid returns the child's process id.
func (c *Child) Pid() int { return c.cmd.Process.Pid }

// Wait waits for the child to exit, like exec.Cmd.Wait, then ends whatever
// it left running in its group and releases what Start held for it.
func (c *Child) Wait() error {
	err := c.cmd.Wait()
	c.release()
	return err
}
