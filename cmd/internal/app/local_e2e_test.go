package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/proc"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestEndToEndLocalSetting drives the llm.local setting through the real
// server with no endpoint and a local-model installation whose start is
// observable (fakeLocalInstall): off, Formalize says no model is
// configured and nothing starts; switched to auto while running, Formalize
// starts the local model (whose answer fails); switched off again, the
// running local server is stopped and the clear message is back.
func TestEndToEndLocalSetting(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed: the fake local server needs it")
	}
	install := fakeLocalInstall(t)
	started := filepath.Join(install, "started")
	s := startWith(t, llmtest.Workspace(), map[string]string{"DRIFT_LOCAL_LLM_DIR": install, "DRIFT_LLM_RETRIES": "0"},
		workspaceDir, filepath.Join("DriftExample", "Demo.lean"),
		map[string]any{"baseUrl": "", "local": "off", "apiKeyEnv": "DRIFT_TEST_NO_KEY"})
	before := s.text()

	// formalize runs "Formalize with DRIFT" and returns the n-th error
	// message of the session.
	formalize := func(n int) string {
		t.Helper()
		s.run("greater than 2 is odd", titleFormalize)
		if err := s.Wait(s.ctx, func() bool { return len(s.Messages()) >= n }); err != nil {
			t.Fatalf("no message %d: %v; messages %q", n, err, s.Messages())
		}
		return s.Messages()[n-1]
	}
	// setLocal pushes llm.local and waits until the backend logs its new
	// model (after it has stopped a local server it no longer uses).
	setLocal := func(mode, wantLog string) {
		t.Helper()
		logs := len(s.Logs())
		if err := s.Notify(s.ctx, "workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"drift": map[string]any{"llm": map[string]any{"local": mode}}}}); err != nil {
			t.Fatal(err)
		}
		err := s.Wait(s.ctx, func() bool {
			for _, l := range s.Logs()[logs:] {
				if strings.Contains(l, "drift: model: "+wantLog) {
					return true
				}
			}
			return false
		})
		if err != nil {
			t.Fatalf("llm.local %s: no log %q: %v; logs %q", mode, wantLog, err, s.Logs())
		}
	}
	noModel := func(msg string) {
		t.Helper()
		if !strings.Contains(msg, "failed: no model configured") || !strings.Contains(msg, "llm.local is off") {
			t.Errorf("message %q, want the no-model message naming llm.local", msg)
		}
		if _, err := os.Stat(started); err == nil {
			t.Errorf("the local model was started with llm.local off")
		}
		if s.text() != before {
			t.Errorf("text changed without a model")
		}
	}

	noModel(formalize(1))

	setLocal("auto", "the bundled local model tiny-q4")
	if msg := formalize(2); !strings.Contains(msg, "failed: ") {
		t.Errorf("message %q, want the fake local server's failure", msg)
	}
	b, err := os.ReadFile(started)
	if err != nil {
		t.Fatalf("llm.local auto: the local model was not started: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || !proc.Alive(pid) {
		t.Fatalf("the local server (pid %q) is not running: %v", b, err)
	}
	os.Remove(started)

	setLocal("off", "none: no model configured")
	if proc.Alive(pid) {
		t.Errorf("the local server (pid %d) still runs after llm.local was turned off", pid)
	}
	noModel(formalize(3))
	if len(s.srv.Requests()) != 0 {
		t.Errorf("the fake endpoint was called %d times; no endpoint is configured", len(s.srv.Requests()))
	}
}
