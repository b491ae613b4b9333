package local

import "syscall"

// sysProcAttr puts the server in its own process group (so that stopping it
// stops everything it started) and has Linux kill it when drift-lsp dies,
// even by SIGKILL.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
