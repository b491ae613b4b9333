package lsp

import (
	"context"
	"os"
	"testing"
)

func benchEditor(b *testing.B) *editor {
	s := newScripted()
	e := newEditor(b, editorOptions{open: s.open})
	e.open(demoURI, demoText)
	return e
}

// BenchmarkCodeActionRoundTrip measures codeAction on a docstring.
func BenchmarkCodeActionRoundTrip(b *testing.B) {
	e := benchEditor(b)
	r := collapse(e.rangeOf(demoURI, "4t+3"))
	b.ResetTimer()
	for range b.N {
		var out []codeAction
		if err := e.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": demoURI},
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
			e.edit(demoURI, "open Nat", "open  Nat")
		} else {
			e.edit(demoURI, "open  Nat", "open Nat")
		}
		var out []codeAction
		if err := e.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": demoURI},
			"range": toRange(r), "context": map[string]any{"diagnostics": []any{}}}, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionMathlib runs the scripted session of RunBench when
// DRIFT_MATHLIB names a Mathlib tree.
func BenchmarkSessionMathlib(b *testing.B) {
	root := os.Getenv("DRIFT_MATHLIB")
	if root == "" {
		b.Skip("set DRIFT_MATHLIB=/path/to/mathlib")
	}
	for range b.N {
		res, err := RunBench(context.Background(), BenchConfig{Root: root, Requests: 200, SoakEdits: 2000, Logf: b.Logf})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.CodeAction.P95, "codeAction-p95-ms")
		b.ReportMetric(res.Symbol.P95, "symbol-p95-ms")
		b.ReportMetric(res.RSSEndMB, "rss-end-MiB")
	}
}
