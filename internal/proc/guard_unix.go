//go:build unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
)

// guardScript runs the command in "$@" in the process group the shell
// leads, after starting a watcher in that group that reads the pipe on
// descriptor 3: drift-lsp holds its only write end, so the read ends when
// drift-lsp dies (even by SIGKILL: the kernel closes its descriptors) or
// when it has waited for the child, and the watcher then kills the whole
// group; it ignores SIGTERM, which Terminate sends the group. The watcher's standard descriptors point to /dev/null so that it
// never holds the child's pipes open. With a limit ($1, in KiB), ulimit -v
// sets RLIMIT_AS before the exec, where the kernel honours it (Linux does;
// macOS accepts or refuses it without enforcing it; either way the child
// runs). Go's os/exec cannot set a limit in the child between fork and exec
// without cgo, and prlimit after the start races with the children the
// child starts at once (lake starting the REPL), hence the shell.
const guardScript = `(trap '' TERM; read _ <&3; kill -KILL 0) </dev/null >/dev/null 2>&1 &
exec 3<&-
[ "$1" = 0 ] || ulimit -v "$1" 2>/dev/null
shift
exec "$@"`

// guardShell is the POSIX shell that runs guardScript.
const guardShell = "/bin/sh"

// guard rewrites cmd to start through guardScript in its own process group
// and returns the write end of the watcher's pipe, which the caller keeps
// open for as long as the child may run. cmd.Path must be absolute or found
// on PATH, as exec.Command leaves it.
func guard(cmd *exec.Cmd, memLimit uint64) (*os.File, error) {
	if cmd.Err != nil {
		// exec.Command could not resolve the program.
		return nil, cmd.Err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	args := append([]string{guardShell, "-c", guardScript, "drift-guard", strconv.FormatUint(memLimit>>10, 10), cmd.Path}, cmd.Args[1:]...)
	cmd.Path, cmd.Args = guardShell, args
	cmd.ExtraFiles = append([]*os.File{r}, cmd.ExtraFiles...)
	cmd.SysProcAttr = groupAttr()
	return w, nil
}

// startGuarded starts cmd through guard and closes the child's copy of the
// read end; it returns the write end to keep.
func startGuarded(cmd *exec.Cmd, memLimit uint64) (*os.File, error) {
	w, err := guard(cmd, memLimit)
	if err != nil {
		return nil, err
	}
	r := cmd.ExtraFiles[0]
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}
