//go:build unix

package leanrepl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

// TestRealLeanCancel: cancelling a check kills lean at once and returns the
// context's error.
func TestRealLeanCancel(t *testing.T) {
	// The wrapper says it has started its child on a FIFO, whose open
	// blocks until both ends are there.
	run, dir := faultRunner(t, "sleep 600 &\necho $! > $DIR/child\necho started > $DIR/started\nwait\n", Config{})
	if err := unix.Mkfifo(filepath.Join(dir, "started"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := run.Run(ctx, leantest.PreludeHeader, "theorem t : True := sorry")
		errc <- err
	}()
	started := make(chan error, 1)
	go func() {
		_, err := os.ReadFile(filepath.Join(dir, "started"))
		started <- err
	}()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case err := <-errc:
		t.Fatalf("Run ended before the wrapper started its child: %v", err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v; want context.Canceled", err)
	}
	if !gone(t, filepath.Join(dir, "child")) {
		t.Errorf("lean's child outlived the cancelled run")
	}
}
