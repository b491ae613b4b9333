//go:build unix

package lsp

import (
	"errors"

	"golang.org/x/sys/unix"
)

// processAlive reports whether process pid exists (signal 0; EPERM means it
// exists but belongs to someone else).
func processAlive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
