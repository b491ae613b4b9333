//go:build unix

package library

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only into memory; the mapping is never removed.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return nil, errCorrupt
	}
	return syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
}

// unmapFile removes a mapping made by mapFile.
func unmapFile(b []byte) { _ = syscall.Munmap(b) }
