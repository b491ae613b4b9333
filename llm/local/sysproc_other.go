//go:build !linux

package local

import "syscall"

// sysProcAttr puts the server in its own process group; without a
// parent-death signal, the server exits when its standard input closes.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
