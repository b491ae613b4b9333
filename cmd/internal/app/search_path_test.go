package app

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// TestSymbolRankingIsBenchRanking proves that workspace/symbol (through
// JSON-RPC, the real backend) and `drift-lsp bench search` (BenchSearch
// over Engine.Search, as cmd/drift-lsp runs it) rank the same: for a dozen
// queries over testdata/workspace the top 10 names are identical.
func TestSymbolRankingIsBenchRanking(t *testing.T) {
	s := startReal(t, llmtest.Workspace(), nil)
	eng, err := retrieval.Open(context.Background(), retrieval.Config{Roots: []string{workspaceDir}, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := eng.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	queries := []string{"greatest common divisor", "gcd", "prime number", "Mm.gcd", "divisibility is transitive", "group",
		"every prime greater than two is odd", "coprime numbers", "congruence modulo n", "the sum over a list", "partial order",
		"an odd number squared is odd"}
	var items []retrieval.BenchItem
	for _, q := range queries {
		items = append(items, retrieval.BenchItem{ID: q, Query: q, Gold: []string{"-"}})
	}
	bench := map[string][]string{}
	if _, err := retrieval.BenchSearch(ctx, items, 10, eng.Search, func(r retrieval.SearchBenchQuery) { bench[r.ID] = r.Hits }); err != nil {
		t.Fatal(err)
	}
	for _, q := range queries {
		var names []string
		syms := s.symbols(q)
		for _, sym := range syms[:min(10, len(syms))] {
			names = append(names, sym.Name)
		}
		if len(names) == 0 || !slices.Equal(names, bench[q]) {
			t.Errorf("%q: workspace/symbol %q, bench search %q", q, names, bench[q])
		}
	}
}

// TestSymbolShowsSummary: the editor's symbol list shows, beside a hit's
// name, its module and the first sentence of its docstring.
func TestSymbolShowsSummary(t *testing.T) {
	s := startReal(t, llmtest.Workspace(), nil)
	syms := s.symbols("greatest common divisor")
	if len(syms) == 0 || syms[0].Name != "Mm.gcd" {
		t.Fatalf("top hit %+v, want Mm.gcd", syms)
	}
	want := "Minimath.Basic — The greatest common divisor of two natural numbers, by Euclid's algorithm."
	if c := syms[0].ContainerName; c == nil || *c != want {
		t.Fatalf("containerName %v, want %q", c, want)
	}
}
