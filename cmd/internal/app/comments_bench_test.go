package app

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/benchstat"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/cmd/internal/docref"
)

// BenchmarkCommentsMathlib measures the comment features through JSON-RPC
// (fake editor ↔ real server) on DRIFT_MATHLIB's 2,018-line
// MeasureTheory/Integral/Lebesgue.lean, with a real checker over the whole
// library (warm cache in DRIFT_CACHE_DIR): hover and definition at every
// reference in turn, completion of prefixes, and the diagnostics after an
// edit (from the end of the debounce to their publication). Each reports
// its p95 in ms.
func BenchmarkCommentsMathlib(b *testing.B) {
	dir := os.Getenv("DRIFT_MATHLIB")
	if dir == "" {
		b.Skip("set DRIFT_MATHLIB=/path/to/mathlib to run")
	}
	lib, c, err := loadChecker(dir, os.Getenv("DRIFT_CACHE_DIR"), 0)
	if err != nil {
		b.Fatal(err)
	}
	ws := lib.Workspace()
	sb := &commentsBackend{comments: c, swapped: make(chan struct{})}
	const debounce = 20 * time.Millisecond
	e := newEditor(b, sb, debounce)
	path := filepath.Join(ws.Dir, "MeasureTheory", "Integral", "Lebesgue.lean")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(ws.Dir, "Mathlib", "MeasureTheory", "Integral", "Lebesgue.lean")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	u := string(uri.File(path))
	e.OpenDoc(u, string(text))
	d := docref.NewDoc(text, lib.FileDecls(path))
	refs := sb.comments.Refs(d.Src, d.Comments, d.Syntax, d.Decls)
	var positions []protocol.Position
	for _, r := range refs {
		positions = append(positions, protocol.Position{Line: uint32(r.Range.Start.Line), Character: uint32(r.Range.Start.Character + 1)})
	}
	if len(positions) == 0 {
		b.Fatal("no references")
	}
	e.WaitFor("the first diagnostics", func() bool { return e.Published(u) })
	timed := func(name string, f func(i int)) { benchstat.Timed(b, name, f) }
	at := func(i int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": u}, "position": positions[i%len(positions)]}
	}
	timed("hover", func(i int) {
		var h any
		if err := e.Ask("textDocument/hover", at(i), &h); err != nil {
			b.Fatal(err)
		}
	})
	timed("definition", func(i int) {
		var l any
		if err := e.Ask("textDocument/definition", at(i), &l); err != nil {
			b.Fatal(err)
		}
	})
	// Completion: type "`" + a prefix into a comment line, then ask.
	e.Type(u, "/-!\n# Lower Lebesgue integral", "/-!\n# Lower Lebesgue integral `lintegral_")
	p := e.at(u, "`lintegral_", 11)
	timed("completion", func(i int) {
		var c any
		if err := e.Ask("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u}, "position": p}, &c); err != nil {
			b.Fatal(err)
		}
	})
	// Diagnostics: an edit adds a stale name to a comment; the time from
	// the edit until the server publishes the new diagnostic, minus the
	// debounce (the edit is undone outside the measurement).
	e.Type(u, "# Lower Lebesgue integral `lintegral_", "# Lower Lebesgue integral")
	b.Run("diagnostics-after-debounce", func(b *testing.B) {
		ds := make([]time.Duration, b.N)
		for i := 0; i < b.N; i++ {
			before := len(e.Diagnostics(u))
			marker := " `MeasureTheory.lintegral_stale_" + string(rune('a'+i%26)) + "`"
			t0 := time.Now()
			e.Type(u, "# Lower Lebesgue integral", "# Lower Lebesgue integral"+marker)
			e.WaitFor("diagnostics of the edit", func() bool { return len(e.Diagnostics(u)) > before })
			ds[i] = time.Since(t0) - debounce
			e.Type(u, marker, "")
			e.WaitFor("diagnostics back", func() bool { return len(e.Diagnostics(u)) == before })
		}
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(ds[len(ds)*95/100].Microseconds())/1000, "p95-ms")
	})
}
