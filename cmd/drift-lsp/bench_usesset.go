package main

import (
	"slices"
	"sort"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// usesSet turns every theorem of the library that has a docstring into a
// premise-retrieval query: the docstring's first sentence, with the
// declarations of premise kinds (retrieval.PremiseKinds) its statement uses
// as gold. The item's ID is the theorem's name, so that `bench retrieval
// --leave-one-out` can leave the theorem itself out of the ranking's graph
// feedback (its statement names the gold). Generated and private theorems,
// sentences quoting code or math, and statements using no premise are
// skipped.
func usesSet(lib *library.Library) []setItem {
	var out []setItem
	for _, d := range lib.Decls() {
		if d.Kind != library.KindTheorem || d.Generated || d.Private || d.Doc == "" {
			continue
		}
		lead, ok := docLead(d.Doc)
		if !ok {
			continue
		}
		var gold []string
		for _, n := range d.StatementDeps {
			if p, ok := lib.Lookup(n); ok && slices.Contains(retrieval.PremiseKinds, p.Kind) && !slices.Contains(gold, n) {
				gold = append(gold, n)
			}
		}
		if len(gold) == 0 {
			continue
		}
		sort.Strings(gold)
		out = append(out, setItem{ID: d.Name, Query: lead, Gold: gold, Kind: string(d.Kind)})
	}
	return out
}
