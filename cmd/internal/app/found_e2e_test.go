package app

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestEndToEndPremisesFirst: while the model has not answered Decompose
// (the fake model holds it back), the premises retrieved with the whole
// statement already reach the editor, in the job's progress and as a hover
// over the statement; after the job the hover shows the candidates'
// context.
func TestEndToEndPremisesFirst(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	ws := llmtest.Workspace()
	s := startReal(t, func(n int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) == llm.StageDecompose {
			<-release
		}
		return ws(n, req)
	}, nil)
	t.Cleanup(free) // before the session's teardown, which waits for the model
	const anchor = "greater than 2 is odd"
	// The command answers when the job ends: run it aside.
	r, err := s.RangeOf(s.u, anchor)
	if err != nil {
		t.Fatal(err)
	}
	r.End = r.Start
	acts, err := s.CodeActions(s.ctx, s.u, r)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(acts, func(a fakeeditor.CodeAction) bool { return a.Title == titleFormalize })
	if i < 0 {
		t.Fatalf("no %q action: %+v", titleFormalize, acts)
	}
	ran := make(chan error, 1)
	go func() { ran <- s.Execute(s.ctx, acts[i]) }()
	title := "DRIFT: " + titleFormalize
	firstLook := func() bool {
		for _, p := range s.Progresses(title) {
			if slices.ContainsFunc(p.Messages, func(m string) bool { return strings.HasPrefix(m, "Premises (first look): Mm.") }) {
				return true
			}
		}
		return false
	}
	if err := s.Wait(s.ctx, firstLook); err != nil {
		t.Fatalf("no premises in the progress while the model works: %v; %+v", err, s.Progresses(title))
	}
	for _, r := range s.srv.Requests() {
		if st := llmtest.StageOf(r); st != llm.StageDecompose {
			t.Fatalf("the model was asked for %s before it answered Decompose", st)
		}
	}
	hover := func() string {
		t.Helper()
		r, err := s.RangeOf(s.u, anchor)
		if err != nil {
			t.Fatal(err)
		}
		var raw json.RawMessage
		if err := s.Call(s.ctx, "textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri.URI(s.u)}, Position: r.Start}}, &raw); err != nil {
			t.Fatal(err)
		}
		var h *struct {
			Contents struct{ Kind, Value string }
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatalf("%v: %s", err, raw)
		}
		if h == nil || h.Contents.Kind != "markdown" {
			return ""
		}
		return h.Contents.Value
	}
	if h := hover(); !strings.Contains(h, "the model is still working") || !strings.Contains(h, "`Mm.Prime`") || !strings.Contains(h, "Examples (coverage") {
		t.Errorf("hover while the model works:\n%s", h)
	}
	free()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	if end := s.waitEnd(title); !strings.HasPrefix(end, "Inserted theorem") {
		t.Fatalf("formalize ended with %q", end)
	}
	if h := hover(); !strings.Contains(h, "the context the candidates are drawn with") || !strings.Contains(h, "`Mm.Odd`") {
		t.Errorf("hover after the job:\n%s", h)
	}
}
