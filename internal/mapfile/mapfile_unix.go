//go:build unix

package mapfile

import (
	"os"
	"syscall"
)

// mapOpen maps size bytes of f read-only and shared.
func mapOpen(f *os.File, size int64) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

// mapClose removes a mapping made by mapOpen.
func mapClose(b []byte) { _ = syscall.Munmap(b) }
