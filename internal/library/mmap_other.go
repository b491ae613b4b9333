//go:build !unix

package library

import "os"

// mapFile reads a file into memory (no memory mapping on this platform).
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

// unmapFile releases what mapFile returned (nothing to do here).
func unmapFile([]byte) {}
