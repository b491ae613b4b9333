package drift

import (
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/retrieval"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

func TestDecompositionNames(t *testing.T) {
	ix := names.New(testDecls)
	tests := []struct {
		name  string
		forms []string
		want  string
	}{
		{"qualified and capitalised, in order, once", []string{"Mm.Prime p", "Mm.Odd p ∧ Mm.Prime q", "Coprime p q"}, "Mm.Prime Mm.Odd Coprime"},
		{"variables are left out", []string{"f x = y", "G' ≤ H₁", "x.succ = n + 1", "p1 ∣ q"}, ""},
		{"lower-case names only when the library declares them", []string{"Mm.gcd a b = 1", "gcd a b", "odd n"}, "Mm.gcd"},
		{"a name the library lacks stays, for the name check to count", []string{"IsOddNumber n"}, "IsOddNumber"},
		{"binders and notation", []string{"∑ i ∈ Finset.range n, (2 * i + 1)", "[Group G]", "(H : Subgroup G)"}, "Finset.range Group Subgroup"},
		{"no Lean form", []string{""}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var subs []retrieval.SubQuery
			for _, f := range tc.forms {
				subs = append(subs, retrieval.SubQuery{Informal: "a sentence", Formal: f})
			}
			if got := strings.Join(DecompositionNames(subs, ix), " "); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
