package lsp

import (
	"testing"
)

func benchEditor(b *testing.B) *editor {
	s := newScripted()
	e := newEditor(b, editorOptions{open: s.open})
	e.OpenDoc(demoURI, demoText)
	return e
}

// BenchmarkCodeActionRoundTrip measures codeAction on a docstring.
func BenchmarkCodeActionRoundTrip(b *testing.B) {
	e := benchEditor(b)
	r := collapse(e.rangeOf(demoURI, "4t+3"))
	b.ResetTimer()
	for range b.N {
		var out []codeAction
		if err := e.Ask("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": demoURI},
			"range": toRange(r), "context": map[string]any{"diagnostics": []any{}}}, &out); err != nil || len(out) != 2 {
			b.Fatal(err, out)
		}
	}
}

// BenchmarkEditThenCodeAction measures an incremental edit followed by a
// code action (the server applies the edit before answering).
func BenchmarkEditThenCodeAction(b *testing.B) {
	e := benchEditor(b)
	r := collapse(e.rangeOf(demoURI, "4t+3"))
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			e.Type(demoURI, "open Nat", "open  Nat")
		} else {
			e.Type(demoURI, "open  Nat", "open Nat")
		}
		var out []codeAction
		if err := e.Ask("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": demoURI},
			"range": toRange(r), "context": map[string]any{"diagnostics": []any{}}}, &out); err != nil {
			b.Fatal(err)
		}
	}
}
