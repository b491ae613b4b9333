//go:build unix

package proc

import "os"

// sysChild holds the write end of the watcher pipe of guardScript.
type sysChild struct {
	watch *os.File
}

// start runs the child through guardScript: in its own process group, with
// a watcher that ends the group when drift-lsp dies and the memory limit set
// with ulimit -v before the exec, so no child starts before it holds.
func (c *Child) start(memLimit uint64, logf func(string, ...any)) error {
	w, err := startGuarded(c.cmd, memLimit)
	if err != nil {
		return err
	}
	c.sys.watch = w
	return nil
}

// release kills what the child left running in its group and closes the
// watcher pipe, which ends the watcher.
func (c *Child) release() {
	c.killGroup()
	c.sys.watch.Close()
}
