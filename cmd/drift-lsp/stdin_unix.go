//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// serverStdin returns stdin as a file whose pending read ends when it is
// closed: a pipe (what editors give a language server) is switched to
// non-blocking mode so that Go's poller owns it. Anything else (a terminal,
// whose mode is shared with the shell, or a file) is left as it is; the
// process exit then ends the read.
func serverStdin() *os.File {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return os.Stdin
	}
	if err := unix.SetNonblock(0, true); err != nil {
		return os.Stdin
	}
	return os.NewFile(0, "/dev/stdin")
}
