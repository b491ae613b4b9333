//go:build !unix

package mapfile

import (
	"io"
	"os"
)

// mapOpen reads size bytes of f (no memory mapping here).
func mapOpen(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, size)
	_, err := io.ReadFull(f, b)
	return b, err
}

// mapClose has nothing to release: the garbage collector frees the bytes.
func mapClose([]byte) {}
