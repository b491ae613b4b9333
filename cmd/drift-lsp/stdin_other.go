//go:build !unix

package main

import "os"

// serverStdin returns stdin; the process exit ends a pending read.
func serverStdin() *os.File { return os.Stdin }
