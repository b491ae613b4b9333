//go:build !windows

package proc

// Shell returns the command that runs line with the platform's shell:
// /bin/sh -c on Unix, cmd /C on Windows.
func Shell(line string) []string { return []string{"/bin/sh", "-c", line} }
