package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/cmd/internal/docref"
	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/lsp"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// The comment features through the server (fake editor ↔ real server),
// with a real docref.Checker behind this package's adapter (comments.go).

// commentsBackend is an lsp.Backend whose checker of names in comments is a
// real one over a fixture (newCommentChecker), whose search matches names
// and docstrings, and which runs no pipeline.
type commentsBackend struct {
	mu       sync.Mutex
	comments *docref.Checker
	// swapped is closed when comments is replaced (CommentsChanged).
	swapped chan struct{}
	symbols []lsp.Symbol
	// onBuffer, when set, runs on every UpdateBuffer (outside mu).
	onBuffer func(path string, text []byte)
}

var errNoPipeline = errors.New("no pipeline in this test")

func (b *commentsBackend) open(context.Context, string, lsp.Settings, func(string, ...any)) (lsp.Backend, error) {
	return b, nil
}

func (b *commentsBackend) Status() lsp.IndexStatus {
	return lsp.IndexStatus{Phase: "ready", Done: 1, Total: 1, Ready: true, Decls: len(b.symbols)}
}

func (b *commentsBackend) Search(ctx context.Context, q string, k int) ([]lsp.Symbol, error) {
	var out []lsp.Symbol
	for _, s := range b.symbols {
		if (strings.Contains(strings.ToLower(s.Name), strings.ToLower(q)) || strings.Contains(strings.ToLower(s.Summary), strings.ToLower(q))) && len(out) < k {
			out = append(out, s)
		}
	}
	return out, ctx.Err()
}

func (b *commentsBackend) Formalize(context.Context, lsp.FormalizeRequest, progress.Func) (*lsp.Formalized, error) {
	return nil, errNoPipeline
}

func (b *commentsBackend) Blueprint(context.Context, lsp.BlueprintRequest, progress.Func) (*lsp.BlueprintResult, error) {
	return nil, errNoPipeline
}

func (b *commentsBackend) FindPremises(context.Context, string, progress.Func) (*lsp.Premises, error) {
	return nil, errNoPipeline
}

func (b *commentsBackend) Check(context.Context, string, string, progress.Func) (*lsp.CheckReport, error) {
	return nil, errNoPipeline
}

func (b *commentsBackend) UpdateBuffer(path string, text []byte) {
	b.mu.Lock()
	hook := b.onBuffer
	b.mu.Unlock()
	if hook != nil {
		hook(path, text)
	}
}

func (b *commentsBackend) CloseBuffer(string)     {}
func (b *commentsBackend) Configure(lsp.Settings) {}
func (b *commentsBackend) Close() error           { return nil }

// Comments returns the adapter over the checker a test set.
func (b *commentsBackend) Comments() lsp.CommentChecker {
	b.mu.Lock()
	defer b.mu.Unlock()
	return newCommentChecker(b.comments)
}

// CommentsChanged returns the channel that setComments closes.
func (b *commentsBackend) CommentsChanged() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.swapped
}

// setComments replaces the checker, as a backend does after the library
// changed.
func (b *commentsBackend) setComments(c *docref.Checker) {
	b.mu.Lock()
	b.comments = c
	close(b.swapped)
	b.swapped = make(chan struct{})
	b.mu.Unlock()
}

// editor is the fake editor driving a server over a commentsBackend, with
// the test's failure reporting.
type editor struct {
	fakeeditor.Tester
}

// newEditor starts a server in-process over b and initializes it.
func newEditor(t testing.TB, b *commentsBackend, debounce time.Duration) *editor {
	t.Helper()
	cw, sw := fakeeditor.NewPipe(), fakeeditor.NewPipe()
	done := make(chan int, 1)
	go func() {
		done <- lsp.Serve(context.Background(), cw, sw, lsp.Options{Open: b.open, Debounce: debounce})
		_ = sw.Close()
	}()
	e := &editor{fakeeditor.Tester{Editor: fakeeditor.Connect(context.Background(), fakeeditor.Duplex{Reader: sw, WriteCloser: cw}), TB: t}}
	t.Cleanup(func() {
		_ = cw.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not exit after stdin closed")
		}
		_ = e.Close()
	})
	ctx, cancel := fakeeditor.Step()
	defer cancel()
	if _, err := e.Initialize(ctx, fakeeditor.Options{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// rangeOf returns the LSP range of the first occurrence of s in u.
func (e *editor) rangeOf(u, s string) protocol.Range {
	e.TB.Helper()
	r, err := e.RangeOf(u, s)
	if err != nil {
		e.TB.Fatal(err)
	}
	return r
}

// action returns the code action with the given title at r.
func (e *editor) action(u string, r protocol.Range, title string) fakeeditor.CodeAction {
	e.TB.Helper()
	ctx, cancel := fakeeditor.Step()
	defer cancel()
	acts, err := e.CodeActions(ctx, u, r)
	if err != nil {
		e.TB.Fatalf("codeAction: %v", err)
	}
	for _, a := range acts {
		if a.Title == title {
			return a
		}
	}
	e.TB.Fatalf("no code action %q at %v", title, r)
	return fakeeditor.CodeAction{}
}

// startComments opens the docref fixture's Lib/Uses.lean in a fake editor
// whose backend serves a real docref.Checker over the fixture workspace.
func startComments(t *testing.T) (*editor, string, string) {
	t.Helper()
	e, u, dir, _ := startCommentsBackend(t)
	return e, u, dir
}

// loadChecker builds the checker over the workspace in dir as it is on disk
// (cacheDir: the index's cache, "" for none; workers read the names the
// code uses, 0: one per core).
func loadChecker(dir, cacheDir string, workers int) (*library.Library, *docref.Checker, error) {
	ws, err := library.Discover(dir, nil)
	if err != nil {
		return nil, nil, err
	}
	lib, err := library.Load(context.Background(), ws, library.Options{CacheDir: cacheDir})
	if err != nil {
		return nil, nil, err
	}
	known, err := docref.LoadKnown(context.Background(), lib, workers)
	if err != nil {
		return nil, nil, err
	}
	return lib, docref.New(lib, names.New(lib.Decls()), known), nil
}

// startCommentsBackend is startComments that also returns the backend.
func startCommentsBackend(t *testing.T) (*editor, string, string, *commentsBackend) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "docref", "testdata", "ws"))); err != nil {
		t.Fatal(err)
	}
	lib, c, err := loadChecker(dir, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	b := &commentsBackend{comments: c, swapped: make(chan struct{})}
	// The library search (workspace/symbol's) over the fixture's declarations
	// and their docstrings.
	for _, d := range lib.Decls() {
		b.symbols = append(b.symbols, lsp.Symbol{Name: d.Name, Kind: string(d.Kind), Path: d.File, Summary: d.Doc})
	}
	e := newEditor(t, b, 20*time.Millisecond)
	path := filepath.Join(dir, "Lib", "Uses.lean")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := string(uri.File(path))
	e.OpenDoc(u, string(text))
	// The backend opens in the background: wait until drift answers a hover.
	pos := map[string]any{"textDocument": map[string]any{"uri": u}, "position": e.at(u, "`Lib.old_name`", 3)}
	e.WaitFor("the backend", func() bool {
		var h *struct{ Contents any }
		return e.callJSON("textDocument/hover", pos, &h) == nil && h != nil
	})
	return e, u, dir, b
}

// callJSON calls method and decodes the answer with encoding/json.
func (e *editor) callJSON(method string, params, result any) error {
	var raw json.RawMessage
	if err := e.Ask(method, params, &raw); err != nil {
		return err
	}
	return json.Unmarshal(raw, result)
}

// at returns the position delta characters into the first occurrence of s.
func (e *editor) at(u, s string, delta int) protocol.Position {
	r := e.rangeOf(u, s)
	return protocol.Position{Line: r.Start.Line, Character: r.Start.Character + uint32(delta)}
}

func TestCommentHoverAndDefinition(t *testing.T) {
	e, u, dir := startComments(t)
	var h struct {
		Contents struct {
			Kind  string `json:"kind"`
			Value string `json:"value"`
		} `json:"contents"`
	}
	pos := map[string]any{"textDocument": map[string]any{"uri": u}, "position": e.at(u, "`Lib.old_name`", 3)}
	if err := e.callJSON("textDocument/hover", pos, &h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"alias Lib.old_name := new_name", "**Deprecated**: use `Lib.new_name`.", "module `Lib.Defs`"} {
		if !strings.Contains(h.Contents.Value, want) || h.Contents.Kind != "markdown" {
			t.Errorf("hover %q lacks %q", h.Contents.Value, want)
		}
	}
	var locs []struct {
		URI string `json:"uri"`
	}
	var loc struct {
		URI string `json:"uri"`
	}
	if err := e.callJSON("textDocument/definition", pos, &loc); err != nil {
		t.Fatal(err)
	}
	if want := string(uri.File(filepath.Join(dir, "Lib", "Defs.lean"))); loc.URI != want {
		t.Errorf("definition %q, want %q", loc.URI, want)
	}
	// In code the Lean server answers, not drift.
	code := map[string]any{"textDocument": map[string]any{"uri": u}, "position": e.at(u, "theorem uses2", 9)}
	var none *struct{ Contents any }
	if err := e.callJSON("textDocument/hover", code, &none); err != nil || none != nil {
		t.Errorf("hover in code = %+v, %v; want null", none, err)
	}
	if err := e.callJSON("textDocument/definition", code, &locs); err != nil || len(locs) != 0 {
		t.Errorf("definition in code = %+v, %v; want none", locs, err)
	}
}

func TestCommentCompletion(t *testing.T) {
	e, u, _ := startComments(t)
	e.Type(u, "-- An ordinary comment:", "-- See `Lib.Wid. An ordinary comment:")
	var list struct {
		Items []struct {
			Label    string `json:"label"`
			TextEdit struct {
				Range struct {
					Start, End struct {
						Character int `json:"character"`
					}
				} `json:"range"`
				NewText string `json:"newText"`
			} `json:"textEdit"`
		} `json:"items"`
	}
	p := e.at(u, "`Lib.Wid.", 8)
	if err := e.callJSON("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u}, "position": p}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) == 0 || list.Items[0].Label != "Lib.Widget" || list.Items[0].TextEdit.NewText != "Lib.Widget" {
		t.Fatalf("completion = %+v", list.Items)
	}
	if r := list.Items[0].TextEdit.Range; r.Start.Character != int(p.Character)-7 || r.End.Character != int(p.Character) {
		t.Errorf("completion replaces %+v, want the 7 characters typed", r)
	}
	code := e.at(u, "def code", 8)
	if err := e.callJSON("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u}, "position": code}, &list); err != nil || len(list.Items) != 0 {
		t.Errorf("completion in code = %+v, %v", list.Items, err)
	}
}

// TestCommentCompletionSearch: words after a backtick that start no name
// get the library search's hits (here a docstring match) after the prefix
// matches.
func TestCommentCompletionSearch(t *testing.T) {
	e, u, _ := startComments(t)
	e.Type(u, "-- An ordinary comment:", "-- See `A lemma An ordinary comment:")
	var list struct {
		Items []struct {
			Label  string `json:"label"`
			Detail string `json:"detail"`
		} `json:"items"`
	}
	p := e.at(u, "`A lemma", 8)
	if err := e.callJSON("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u}, "position": p}, &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range list.Items {
		found = found || (it.Label == "Nat.add_twice" && it.Detail == "A lemma.")
	}
	if !found || len(list.Items) > 20 /* lsp.searchHits */ {
		t.Errorf("completion of `A lemma = %+v, want Nat.add_twice from the search", list.Items)
	}
}

func TestCommentDiagnosticsAndQuickFix(t *testing.T) {
	e, u, _ := startComments(t)
	find := func(name string) map[string]any {
		for _, d := range e.Diagnostics(u) {
			if strings.Contains(d["message"].(string), "`"+name+"`") {
				return d
			}
		}
		return nil
	}
	e.WaitFor("diagnostics of names in comments", func() bool { return find("Lib.new_nam") != nil })
	d := find("Lib.new_nam")
	if d["severity"].(float64) != float64(protocol.DiagnosticSeverityInformation) || d["source"] != "drift" || d["code"] != "stale-reference" {
		t.Errorf("diagnostic %v", d)
	}
	if dep := find("Lib.old_name"); dep == nil || dep["severity"].(float64) != float64(protocol.DiagnosticSeverityHint) ||
		!strings.Contains(dep["message"].(string), "use `Lib.new_name`") {
		t.Errorf("deprecated diagnostic %v", dep)
	}

	// The quick fix is offered at the reference and rewrites it.
	r := e.rangeOf(u, "Lib.new_nam`")
	fix := e.action(u, r, "Replace `Lib.new_nam` by `Lib.new_name`")
	// A stale offer: the document changes before the fix runs.
	e.Type(u, "A typo:", "A typo here:")
	if err := <-e.Start(fix); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(e.TextOf(u), "`Lib.new_name`. Inside") {
		t.Fatal("a fix offered for an older version was applied")
	}
	fix = e.action(u, e.rangeOf(u, "Lib.new_nam`"), "Replace `Lib.new_nam` by `Lib.new_name`")
	if err := <-e.Start(fix); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.TextOf(u), "A typo here: `Lib.new_name`.") {
		t.Fatalf("fix not applied:\n%s", e.TextOf(u))
	}
	e.WaitFor("the diagnostic to clear after the fix", func() bool { return find("Lib.new_nam") == nil })
}

// TestCommentDiagnosticsFollowLibrary: a reference to a name nobody
// declares is flagged; once another open file declares it (its buffer
// reaches the backend, which rebuilds the checker), the diagnostic clears.
func TestCommentDiagnosticsFollowLibrary(t *testing.T) {
	e, u, dir, b := startCommentsBackend(t)
	defs := filepath.Join(dir, "Lib", "Defs.lean")
	b.mu.Lock()
	b.onBuffer = func(path string, text []byte) {
		if path != defs {
			return
		}
		// The backend's index applies the buffer; here the fixture is
		// reloaded from disk with the buffer written there.
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Error(err)
			return
		}
		_, c, err := loadChecker(dir, "", 1)
		if err != nil {
			t.Error(err)
			return
		}
		b.setComments(c)
	}
	b.mu.Unlock()
	flagged := func() bool {
		for _, d := range e.Diagnostics(u) {
			if strings.Contains(d["message"].(string), "`Lib.brand_new`") {
				return true
			}
		}
		return false
	}
	e.Type(u, "-- An ordinary comment:", "-- See `Lib.brand_new`. An ordinary comment:")
	e.WaitFor("the unknown name to be flagged", flagged)
	text, err := os.ReadFile(defs)
	if err != nil {
		t.Fatal(err)
	}
	du := string(uri.File(defs))
	e.OpenDoc(du, string(text))
	e.Type(du, "namespace Lib\n", "namespace Lib\n\ntheorem brand_new : True := trivial\n")
	e.WaitFor("the diagnostic to clear after the library changed", func() bool { return !flagged() })
}

// TestCommentFeaturesOff: comments.enable false takes back the published
// comment diagnostics and turns hover off; true brings them back.
func TestCommentFeaturesOff(t *testing.T) {
	e, u, _ := startComments(t)
	stale := func() bool {
		for _, d := range e.Diagnostics(u) {
			if d["code"] == "stale-reference" {
				return true
			}
		}
		return false
	}
	e.WaitFor("diagnostics of names in comments", stale)
	pos := map[string]any{"textDocument": map[string]any{"uri": u}, "position": e.at(u, "`Lib.old_name`", 3)}
	e.Tell("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"drift": map[string]any{"comments": map[string]any{"enable": false}}}})
	e.WaitFor("the comment diagnostics to be taken back", func() bool { return !stale() })
	var h *struct{ Contents any }
	if err := e.callJSON("textDocument/hover", pos, &h); err != nil || h != nil {
		t.Fatalf("hover with comments.enable off: %+v, %v", h, err)
	}
	e.Tell("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"drift": map[string]any{"comments": map[string]any{"enable": true}}}})
	e.WaitFor("the comment diagnostics to come back", stale)
}
