//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestBlueprintSIGINT interrupts `drift-lsp blueprint` with SIGINT while a
// node's model call hangs: the nodes finished before are in --out, the
// command says it was interrupted and exits 1.
func TestBlueprintSIGINT(t *testing.T) {
	hung := make(chan struct{}, 1)
	release := make(chan struct{})
	ws := llmtest.Workspace()
	srv := llmtest.New(t, func(i int, req llmtest.Request) llmtest.Reply {
		if strings.Contains(req.Prompt(), "The square of an odd number is odd.") {
			select {
			case hung <- struct{}{}:
			default:
			}
			select {
			case <-release:
			case <-time.After(20 * time.Second):
			}
		}
		return ws(i, req)
	})
	defer srv.Close()
	defer close(release) // before the server closes
	t.Setenv("DRIFT_LLM_BASE_URL", srv.URL)
	t.Setenv("DRIFT_LLM_MODEL", "fake")
	t.Setenv("DRIFT_LLM_CACHE", t.TempDir())
	t.Setenv("DRIFT_REPL", "")
	t.Setenv("DRIFT_PIPELINE_CONCURRENCY", "1")
	out := filepath.Join(t.TempDir(), "Blue.lean")
	args := []string{"blueprint", "--cache", t.TempDir(), "--root", "../../testdata/workspace", "--tex", "../../testdata/blueprint/src", "--out", out}
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- dispatch(args, &stdout, &stderr) }()
	select {
	case <-hung:
	case <-time.After(60 * time.Second):
		t.Fatal("the run never reached lem:square-odd")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var rc int
	select {
	case rc = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("SIGINT did not stop the run")
	}
	if rc != 1 || !strings.Contains(stderr.String(), "interrupted; every finished node is kept") {
		t.Errorf("exit %d; stderr:\n%s", rc, stderr.String())
	}
	file, _ := os.ReadFile(out)
	for _, want := range []string{"theorem Blue.odd_of_prime", "def Blue.TwinPrimes"} {
		if !strings.Contains(string(file), want) {
			t.Errorf("finished node %q not kept:\n%s", want, file)
		}
	}
	if strings.Contains(string(file), "Blue.odd_mul_self") {
		t.Errorf("the interrupted node was written:\n%s", file)
	}
}
