//go:build unix && !linux

package proc

import "syscall"

// groupAttr puts the child in its own process group; the watcher of
// guardScript ends it when drift-lsp dies (these systems have no
// parent-death signal).
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
