package lsp

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/golden/name (rewriting it with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	leantest.Golden(t, filepath.Join("testdata", "golden", name), got, *update)
}

const demoURI = "file:///work/ws/DriftExample/Demo.lean"

const demoText = `import Mathlib.Data.Nat.Prime.Basic

open Nat

/-- A prime p of the form 4t+3 is not a sum of two squares. -/

-- If n is even then n squared is even.
-- (name: even_sq)

/- The sum of the first n odd numbers is n^2. -/
theorem odd_sum : sorry := by sorry

theorem existing (n : ℕ) : n + 0 = n := by simp

example : FooBar 1 = 2 := by sorry
`

func startDemo(t *testing.T, b *scripted, o editorOptions) *editor {
	t.Helper()
	o.open = b.open
	e := newEditor(t, o)
	e.OpenDoc(demoURI, demoText)
	return e
}

// TestFormalizeGolden runs "Formalize with DRIFT" on each kind of target and
// compares the resulting document with a golden file.
func TestFormalizeGolden(t *testing.T) {
	cases := []struct {
		name   string
		anchor string // text under the cursor
		sel    bool   // select the anchor instead of placing the cursor
		docCh  bool
	}{
		{"docstring", "of the form 4t+3", false, true},
		{"line_comments", "squared is even", false, true},
		{"block_placeholder", "first n odd", false, false},
		{"selection", "existing (n : ℕ)", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newScripted()
			e := startDemo(t, b, editorOptions{noDocChanges: !c.docCh})
			r := e.rangeOf(demoURI, c.anchor)
			if !c.sel {
				r.End = r.Start
			}
			a := e.action(demoURI, r, titleFormalize)
			if err := <-e.Start(a); err != nil {
				t.Fatal(err)
			}
			ends := e.waitEnds("DRIFT: "+titleFormalize, 1)
			if !strings.HasPrefix(ends[0], "Inserted theorem") {
				t.Errorf("progress end = %q", ends[0])
			}
			golden(t, "formalize_"+c.name+".lean", e.TextOf(demoURI))
			// The pipeline's report is what the diagnostics show: the
			// inserted stub is not checked again.
			e.WaitFor("diagnostics of the stub", func() bool { return e.Published(demoURI) })
			b.mu.Lock()
			checks := b.checks
			b.mu.Unlock()
			if len(checks) != 0 {
				t.Errorf("the inserted stub was checked again: %q", checks)
			}
			// Every stage the backend reported reaches the editor, in order.
			msgs := e.progressMessages("DRIFT: " + titleFormalize)
			if !inOrder(msgs, b.reported()) {
				t.Errorf("progress messages %q, want the backend's stages %q in order", msgs, b.reported())
			}
		})
	}
}

// inOrder reports whether want is a subsequence of got.
func inOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestNameUnique checks that a second formalization of the same statement
// gets a fresh name.
func TestNameUnique(t *testing.T) {
	b := newScripted()
	e := startDemo(t, b, editorOptions{})
	for i := 0; i < 2; i++ {
		r := e.rangeOf(demoURI, "squared is even")
		if err := <-e.Start(e.action(demoURI, r, titleFormalize)); err != nil {
			t.Fatal(err)
		}
		e.waitEnds("DRIFT: "+titleFormalize, i+1)
	}
	text := e.TextOf(demoURI)
	if !strings.Contains(text, "theorem even_sq ") || !strings.Contains(text, "theorem even_sq_2 ") {
		t.Errorf("names not unique:\n%s", text)
	}
}

// TestFindPremisesReplaces checks the premises block and that a second run
// replaces it.
func TestFindPremisesReplaces(t *testing.T) {
	b := newScripted()
	e := startDemo(t, b, editorOptions{})
	for i := 0; i < 2; i++ {
		r := e.rangeOf(demoURI, "4t+3")
		if err := <-e.Start(e.action(demoURI, r, titlePremises)); err != nil {
			t.Fatal(err)
		}
		ends := e.waitEnds("DRIFT: "+titlePremises, i+1)
		if !contains(ends, "2 premises, 1 examples") {
			t.Errorf("ends = %q", ends)
		}
	}
	text := e.TextOf(demoURI)
	if n := strings.Count(text, premisesMarker); n != 1 {
		t.Errorf("%d premises blocks, want 1", n)
	}
	golden(t, "premises.lean", text)
}

// TestCheckDiagnostics runs "Check this theorem" and checks that the
// diagnostics follow edits.
func TestCheckDiagnostics(t *testing.T) {
	b := newScripted()
	b.leanNote = "no Lean REPL found in the workspace"
	e := startDemo(t, b, editorOptions{})
	r := e.rangeOf(demoURI, "FooBar")
	r.End = r.Start
	acts := e.codeActions(demoURI, r)
	if len(acts) != 1 || acts[0].Title != titleCheck {
		t.Fatalf("actions on example = %+v", acts)
	}
	if err := <-e.Start(acts[0]); err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleCheck, 1)
	if ends[0] != "1 finding(s); Lean not run: no Lean REPL found in the workspace" {
		t.Errorf("end = %q", ends[0])
	}
	e.WaitFor("diagnostic", func() bool { return len(e.Diagnostics(demoURI)) == 1 })
	d := e.Diagnostics(demoURI)[0]
	if d["source"] != "drift" || d["message"] != "unknown name `FooBar` (not in the library; likely invented)" {
		t.Errorf("diagnostic = %v", d)
	}
	// Fixing the name clears the diagnostic; a new unknown name brings one back.
	e.Type(demoURI, "example : FooBar 1", "example : Nat.succ 1")
	e.WaitFor("cleared diagnostics", func() bool { return len(e.Diagnostics(demoURI)) == 0 })
	e.Type(demoURI, "Nat.succ 1 = 2", "Nat.succ 1 = FooZ")
	e.WaitFor("new diagnostic", func() bool {
		d := e.Diagnostics(demoURI)
		return len(d) == 1 && d[0]["message"] == "unknown name `FooZ` (not in the library; likely invented)"
	})
}

// TestBurstOfEditsReanchors types many edits while a job runs: the user's
// text survives and the stub lands right after the comment.
func TestBurstOfEditsReanchors(t *testing.T) {
	b := newScripted()
	b.gate = make(chan struct{})
	e := startDemo(t, b, editorOptions{})
	r := e.rangeOf(demoURI, "4t+3")
	done := e.Start(e.action(demoURI, r, titleFormalize))
	<-b.started
	for i := 0; i < 50; i++ {
		e.Type(demoURI, "open Nat\n", fmt.Sprintf("open Nat\n-- typed %d\n", i))
		e.Type(demoURI, "theorem existing", "theorem existing")
	}
	e.Type(demoURI, "n + 0 = n", "n + 0 = n ∧ True")
	close(b.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	e.waitEnds("DRIFT: "+titleFormalize, 1)
	text := e.TextOf(demoURI)
	if strings.Count(text, "-- typed") != 50 || !strings.Contains(text, "n + 0 = n ∧ True") {
		t.Fatalf("user edits lost:\n%s", text)
	}
	if !strings.Contains(text, "sum of two squares. -/\ntheorem model_name") {
		t.Errorf("stub not right after the comment:\n%s", text)
	}
	e.WaitFor("buffer text in the index", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return strings.Contains(b.buffers["/work/ws/DriftExample/Demo.lean"], "-- typed 49")
	})
}

// TestCommentChangedRefuses edits the comment while the job runs: nothing
// is inserted and the user is told.
func TestCommentChangedRefuses(t *testing.T) {
	b := newScripted()
	b.gate = make(chan struct{})
	e := startDemo(t, b, editorOptions{})
	done := e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize))
	<-b.started
	e.Type(demoURI, "4t+3", "4t+1")
	close(b.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleFormalize, 1)
	if ends[0] != "Not applied: the text changed" {
		t.Errorf("end = %q", ends[0])
	}
	e.WaitFor("showMessage", func() bool { return len(e.Messages()) > 0 })
	if !strings.Contains(e.Messages()[0], "changed or was removed") {
		t.Errorf("message = %q", e.Messages()[0])
	}
	if strings.Contains(e.TextOf(demoURI), "theorem prime") {
		t.Errorf("edit applied to a changed comment")
	}
}

// TestRejectedEditRetries has the editor reject the first applyEdit.
func TestRejectedEditRetries(t *testing.T) {
	b := newScripted()
	e := startDemo(t, b, editorOptions{})
	e.RejectEdits(1)
	if err := <-e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize)); err != nil {
		t.Fatal(err)
	}
	e.waitEnds("DRIFT: "+titleFormalize, 1)
	if strings.Count(e.TextOf(demoURI), "theorem model_name") != 1 {
		t.Errorf("stub not inserted once:\n%s", e.TextOf(demoURI))
	}
}

// TestCancelByProgressToken cancels a job with window/workDoneProgress/cancel.
func TestCancelByProgressToken(t *testing.T) {
	b := newScripted()
	b.gate = make(chan struct{})
	defer close(b.gate)
	e := startDemo(t, b, editorOptions{})
	done := e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize))
	<-b.started
	tok := e.tokenOf("DRIFT: " + titleFormalize)
	e.Tell("window/workDoneProgress/cancel", map[string]any{"token": tok})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleFormalize, 1)
	if ends[0] != "Cancelled" {
		t.Errorf("end = %q", ends[0])
	}
	if e.TextOf(demoURI) != demoText {
		t.Errorf("text changed after cancel")
	}
}

// TestTwoJobsOneComment starts two formalizations of one comment: the
// first is replaced and only one stub is inserted.
func TestTwoJobsOneComment(t *testing.T) {
	b := newScripted()
	b.gate = make(chan struct{})
	e := startDemo(t, b, editorOptions{})
	a := e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize)
	first := e.Start(a)
	<-b.started
	second := e.Start(a)
	<-b.started
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	close(b.gate)
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleFormalize, 2)
	if !contains(ends, "Replaced by a newer request") {
		t.Errorf("ends = %q", ends)
	}
	if n := strings.Count(e.TextOf(demoURI), "theorem model_name"); n != 1 {
		t.Errorf("%d stubs inserted, want 1", n)
	}
}

// TestBoundedJobs runs more jobs than MaxJobs: the extra one queues.
func TestBoundedJobs(t *testing.T) {
	b := newScripted()
	b.gate = make(chan struct{})
	e := startDemo(t, b, editorOptions{initOptions: map[string]any{"maxJobs": 1}})
	d1 := e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize))
	<-b.started
	d2 := e.Start(e.action(demoURI, e.rangeOf(demoURI, "squared is even"), titleFormalize))
	e.WaitFor("queued job", func() bool {
		for _, m := range e.progressMessages("DRIFT: " + titleFormalize) {
			if strings.HasPrefix(m, "Queued behind 1") {
				return true
			}
		}
		return false
	})
	close(b.gate)
	for _, d := range []<-chan error{d1, d2} {
		if err := <-d; err != nil {
			t.Fatal(err)
		}
	}
	e.waitEnds("DRIFT: "+titleFormalize, 2)
}

// TestShutdownDuringJob shuts the server down while a job waits.
func TestShutdownDuringJob(t *testing.T) {
	b := newScripted()
	b.gate = make(chan struct{})
	defer close(b.gate)
	e := startDemo(t, b, editorOptions{})
	done := e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize))
	<-b.started
	if code := e.shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	<-done
	if e.TextOf(demoURI) != demoText {
		t.Errorf("text changed by a job cancelled at shutdown")
	}
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if !closed {
		t.Errorf("backend not closed at exit")
	}
}

// TestModelFails reports one clear message and changes nothing.
func TestModelFails(t *testing.T) {
	b := newScripted()
	b.err = errModel
	e := startDemo(t, b, editorOptions{})
	if err := <-e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize)); err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleFormalize, 1)
	if !strings.HasPrefix(ends[0], "Failed: model endpoint returned 500") {
		t.Errorf("end = %q", ends[0])
	}
	e.WaitFor("error message", func() bool { return len(e.Messages()) == 1 })
	if e.Messages()[0] != "DRIFT: Formalize with DRIFT failed: "+errModel.Error() {
		t.Errorf("message = %q", e.Messages()[0])
	}
	e.WaitFor("the detail in the log", func() bool {
		return contains(e.Logs(), "drift: Formalize with DRIFT failed: "+errModel.Error())
	})
	if e.TextOf(demoURI) != demoText {
		t.Errorf("text changed after a failure")
	}
}

// TestIndexProgressAndSymbols checks index progress, "indexing, N%" answers
// and workspace/symbol locations.
func TestIndexProgressAndSymbols(t *testing.T) {
	b := newScripted()
	b.setReady(false)
	e := startDemo(t, b, editorOptions{})
	e.tokenOf("DRIFT: indexing library")
	err := e.Ask("workspace/symbol", map[string]any{"query": "Prime"}, nil)
	if err == nil || !strings.Contains(err.Error(), "indexing, 30%") {
		t.Errorf("symbol before ready: %v", err)
	}
	// A job started now waits for the index and says so.
	done := e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titlePremises))
	e.WaitFor("waiting message", func() bool {
		return contains(e.progressMessages("DRIFT: "+titlePremises), "Waiting for the library index: indexing, 30%")
	})
	b.setReady(true)
	ends := e.waitEnds("DRIFT: indexing library", 1)
	if ends[0] != "42 declarations" {
		t.Errorf("index end = %q", ends[0])
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var syms []struct {
		Name     string `json:"name"`
		Kind     int    `json:"kind"`
		Location struct {
			URI   string `json:"uri"`
			Range struct {
				Start struct {
					Line int `json:"line"`
				} `json:"start"`
			} `json:"range"`
		} `json:"location"`
	}
	if err := e.Ask("workspace/symbol", map[string]any{"query": "Prime"}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 2 || syms[0].Name != "Nat.Prime" || syms[0].Location.URI != "file:///work/ws/.lake/packages/mathlib/Mathlib/Data/Nat/Prime/Defs.lean" || syms[0].Location.Range.Start.Line != 40 {
		t.Errorf("symbols = %+v", syms)
	}
}

// TestSettingsSources checks initializationOptions, workspace/configuration
// and didChangeConfiguration.
func TestSettingsSources(t *testing.T) {
	b := newScripted()
	e := startDemo(t, b, editorOptions{
		initOptions: map[string]any{"llm": map[string]any{"model": "init-model"}, "pipeline": map[string]any{"m": 5}},
		config:      map[string]any{"llm": map[string]any{"baseUrl": "http://127.0.0.1:9/v1"}},
	})
	e.WaitFor("backend opened", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.settings) > 0 })
	b.mu.Lock()
	s := b.settings[0]
	b.mu.Unlock()
	if s.LLM.Model != "init-model" || s.Pipeline.M != 5 || s.LLM.BaseURL != "http://127.0.0.1:9/v1" || s.LLM.APIKeyEnv != "OPENAI_API_KEY" {
		t.Errorf("settings = %+v", s)
	}
	e.SetConfig([]byte(`{"llm": {"baseUrl": "http://127.0.0.1:9/v1", "model": "changed"}, "pipeline": {"samples": 2}}`))
	e.Tell("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	e.WaitFor("reconfigured", func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		last := b.settings[len(b.settings)-1]
		return last.LLM.Model == "changed" && last.Pipeline.Samples == 2 && last.Pipeline.M == 5
	})
}

// TestActionsOnlyFilter respects the client's "only" filter and answers
// quickly with nothing outside comments and theorems.
func TestActionsOnlyFilter(t *testing.T) {
	b := newScripted()
	e := startDemo(t, b, editorOptions{})
	var out []codeAction
	r := e.rangeOf(demoURI, "4t+3")
	if err := e.Ask("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": demoURI}, "range": toRange(r),
		"context": map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}},
	}, &out); err != nil || len(out) != 0 {
		t.Errorf("only quickfix: %v %+v", err, out)
	}
	imp := e.rangeOf(demoURI, "import Mathlib")
	imp.End = imp.Start
	if acts := e.codeActions(demoURI, imp); len(acts) != 0 {
		t.Errorf("actions on import line: %+v", acts)
	}
	if acts := e.codeActions("file:///not/open.lean", r); len(acts) != 0 {
		t.Errorf("actions on closed file: %+v", acts)
	}
}

// TestNoBackend runs the server without a backend.
func TestNoBackend(t *testing.T) {
	e := newEditor(t, editorOptions{})
	e.OpenDoc(demoURI, demoText)
	if err := <-e.Start(e.action(demoURI, e.rangeOf(demoURI, "4t+3"), titleFormalize)); err != nil {
		t.Fatal(err)
	}
	e.WaitFor("message", func() bool { return len(e.Messages()) == 1 })
	if !strings.Contains(e.Messages()[0], "no library index is configured") {
		t.Errorf("message = %q", e.Messages()[0])
	}
}

// TestInsertedStubDiagnostics publishes the checker's findings on a stub
// drift inserted.
func TestInsertedStubDiagnostics(t *testing.T) {
	b := newScripted()
	b.stub = "theorem NAME (x : ℕ) : FooBaz x := by sorry"
	e := startDemo(t, b, editorOptions{})
	if err := <-e.Start(e.action(demoURI, collapse(e.rangeOf(demoURI, "4t+3")), titleFormalize)); err != nil {
		t.Fatal(err)
	}
	e.waitEnds("DRIFT: "+titleFormalize, 1)
	e.WaitFor("diagnostic on the stub", func() bool { return len(e.Diagnostics(demoURI)) == 1 })
	d := e.Diagnostics(demoURI)[0]
	r := d["range"].(map[string]any)["start"].(map[string]any)
	if d["source"] != "drift" || r["line"] != float64(5) || r["character"] != float64(29) {
		t.Errorf("diagnostic = %v", d)
	}
}
