package proc

import "syscall"

// groupAttr puts the child in its own process group; Linux also sends it
// SIGKILL the moment drift-lsp dies, before the watcher sees the pipe close.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
