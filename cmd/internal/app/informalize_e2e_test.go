package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestEndToEndInformalize: with a model, the server describes the user's
// own undocumented declarations in the background once the index is ready,
// and workspace/symbol then finds a declaration by a query phrased like its
// description (words that appear nowhere in its source). The fake model
// holds its informalize answers until the test has checked that the query
// finds nothing before.
func TestEndToEndInformalize(t *testing.T) {
	ws := mineWorkspace(t)
	const description = "Parity predicate: the quantity leaves remainder one upon halving."
	release := make(chan struct{})
	var once sync.Once
	releaseAll := func() { once.Do(func() { close(release) }) }
	t.Cleanup(releaseAll)
	workspace := llmtest.Workspace()
	resp := func(i int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) != llm.StageInformalize {
			return workspace(i, req)
		}
		<-release
		if p := req.Prompt(); strings.Contains(p, "IsOddNat (n : Nat) : Prop") && !strings.Contains(p, "odd_sq") {
			return llmtest.Reply{Text: description}
		}
		return workspace(i, req)
	}
	s := startIn(t, resp, nil, ws, filepath.Join("Mine", "Basic.lean"))
	const query = "leaves remainder one upon halving"
	found := s.finds(query, "IsOddNat")
	if found() {
		t.Fatalf("%q finds Mine.IsOddNat before it was described", query)
	}
	releaseAll()
	if err := s.Wait(s.ctx, found); err != nil {
		t.Fatalf("%q never found Mine.IsOddNat: %v; logs %q", query, err, s.Logs())
	}
	var prompts []string
	for _, r := range s.srv.Requests() {
		if llmtest.StageOf(r) == llm.StageInformalize {
			prompts = append(prompts, r.Prompt())
		}
	}
	// Both undocumented declarations, dependencies first; nothing of the
	// packages.
	if len(prompts) != 2 || !strings.Contains(prompts[0], "IsOddNat (n : Nat)") || !strings.Contains(prompts[1], "It uses:\n- Mine.IsOddNat: "+description) {
		t.Errorf("informalize prompts %q", prompts)
	}
}

// TestEndToEndInformalizeCancelled: a settings change cancels the running
// informalization (its model call does not answer) and starts another.
func TestEndToEndInformalizeCancelled(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	entered := 0
	workspace := llmtest.Workspace()
	resp := func(i int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) != llm.StageInformalize {
			return workspace(i, req)
		}
		mu.Lock()
		entered++
		mu.Unlock()
		<-release
		return workspace(i, req)
	}
	s := startIn(t, resp, nil, mineWorkspace(t), filepath.Join("Mine", "Basic.lean"))
	// The fake server's Close waits for its handlers.
	defer close(release)
	calls := func(n int) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			return entered >= n
		}
	}
	if err := s.Wait(s.ctx, calls(1)); err != nil {
		t.Fatalf("no informalize call: %v", err)
	}
	if err := s.Notify(s.ctx, "workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"drift": map[string]any{"pipeline": map[string]any{"k": 6}}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(s.ctx, calls(2)); err != nil {
		t.Fatalf("the settings change did not restart the informalization (the first run was not cancelled): %v", err)
	}
}

// finds returns a condition: workspace/symbol for query finds a symbol
// whose name ends in suffix.
func (s *session) finds(query, suffix string) func() bool {
	return func() bool {
		for _, sym := range s.symbols(query) {
			if strings.HasSuffix(sym.Name, suffix) {
				return true
			}
		}
		return false
	}
}

// mineWorkspace creates a Lake workspace whose one file holds two
// undocumented declarations, the second using the first.
func mineWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "lakefile.lean"), []byte("import Lake\nopen Lake DSL\npackage mine\nlean_lib Mine\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "Mine"), 0o755)
	os.WriteFile(filepath.Join(ws, "Mine", "Basic.lean"), []byte("namespace Mine\n\ndef IsOddNat (n : Nat) : Prop := n % 2 = 1\n\ntheorem odd_sq (n : Nat) (h : IsOddNat n) : IsOddNat (n * n) := by\n  sorry\n\nend Mine\n"), 0o600)
	return ws
}

// TestEndToEndInformalizeLocal: with the bundled local model (here an
// installation whose server relays to the fake model), nothing is described
// at start-up — the model is not started for it; after a Formalize job has
// started it, the user's declarations are described between jobs, after
// the job's own calls, and search finds them by their descriptions.
func TestEndToEndInformalizeLocal(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed: the fake local server needs it")
	}
	ws := mineWorkspace(t)
	basic := filepath.Join(ws, "Mine", "Basic.lean")
	src, _ := os.ReadFile(basic)
	os.WriteFile(basic, append(src, "\n-- Every prime number greater than 2 is odd.\n"...), 0o600)
	const description = "Parity predicate: the quantity leaves remainder one upon halving."
	workspace := llmtest.Workspace()
	resp := func(i int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) == llm.StageInformalize && strings.Contains(req.Prompt(), "IsOddNat (n : Nat) : Prop") && !strings.Contains(req.Prompt(), "odd_sq") {
			return llmtest.Reply{Text: description}
		}
		return workspace(i, req)
	}
	install := relayLocalInstall(t)
	s := startWith(t, resp, map[string]string{"DRIFT_LOCAL_LLM_DIR": install, "DRIFT_LLM_RETRIES": "0"}, ws, filepath.Join("Mine", "Basic.lean"),
		map[string]any{"baseUrl": "", "local": "auto", "apiKeyEnv": "DRIFT_TEST_NO_KEY"})
	os.WriteFile(filepath.Join(install, "upstream"), []byte(strings.TrimSuffix(s.srv.URL, "/v1")), 0o600)
	const query = "leaves remainder one upon halving"
	found := s.finds(query, "IsOddNat")
	if _, err := os.Stat(filepath.Join(install, "started")); err == nil || found() {
		t.Fatalf("the local model was started, or a description used, before any job (found %v)", found())
	}
	s.run("greater than 2 is odd", titleFormalize)
	s.waitEnd("DRIFT: " + titleFormalize)
	if err := s.Wait(s.ctx, found); err != nil {
		t.Fatalf("%q never found Mine.IsOddNat after the job: %v; logs %q", query, err, s.Logs())
	}
	reqs := s.srv.Requests()
	lastJob, firstInformal := -1, -1
	for i, r := range reqs {
		switch st := llmtest.StageOf(r); {
		case st == llm.StageInformalize && firstInformal < 0:
			firstInformal = i
		case st != llm.StageInformalize:
			lastJob = i
		}
	}
	if lastJob < 0 || firstInformal < lastJob {
		t.Errorf("the job's last call is request %d, the first description request %d: descriptions must wait for the job", lastJob, firstInformal)
	}
}

// relayLocalInstall lays out a local-model installation whose server, like
// llama.cpp's, answers /health and /v1/chat/completions on its port (and
// 404 to anything else, such as the slot save and restore of the prompt
// cache), by
// relaying each request to the address in the installation's file
// "upstream" (the test's fake model); it writes its pid to "started".
func relayLocalInstall(t *testing.T) string {
	t.Helper()
	dir := fakeLocalInstall(t)
	os.WriteFile(filepath.Join(dir, "venv", "bin", "python"), []byte(`#!/bin/sh
echo $$ > started
exec python3 -c '
import http.server, sys, urllib.request, urllib.error
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404); self.end_headers()
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if not self.path.startswith("/v1/"):
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        up = open("upstream").read().strip()
        req = urllib.request.Request(up + self.path, data=body, headers={"Content-Type": "application/json"})
        try:
            r = urllib.request.urlopen(req); code, out = r.status, r.read()
        except urllib.error.HTTPError as e:
            code, out = e.code, e.read()
        self.send_response(code); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
' "$4"
`), 0o755)
	return dir
}
