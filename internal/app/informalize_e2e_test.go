package app

import (
	"os"
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
	found := func() bool {
		for _, sym := range s.symbols(query) {
			if strings.HasSuffix(sym.Name, "IsOddNat") {
				return true
			}
		}
		return false
	}
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
