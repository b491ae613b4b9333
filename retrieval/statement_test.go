package retrieval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// TestStatementRenderer is the golden table of the statement field: each
// declaration's hypotheses, conclusion and terms
// (testdata/statement.golden; -update rewrites it).
func TestStatementRenderer(t *testing.T) {
	decls := []*library.Decl{
		{Name: "iSup_iInf_le_iInf_iSup", Kind: library.KindTheorem,
			Signature:     "theorem iSup_iInf_le_iInf_iSup {α : Type*} {ι ι' : Sort*} [CompleteLattice α] (f : ι → ι' → α) : ⨆ i, ⨅ j, f i j ≤ ⨅ j, ⨆ i, f i j",
			StatementDeps: []string{"CompleteLattice", "iSup", "iInf"}},
		{Name: "continuous_iff_isClosed", Kind: library.KindTheorem,
			Signature:     "theorem continuous_iff_isClosed {X Y : Type*} [TopologicalSpace X] [TopologicalSpace Y] {f : X → Y} : Continuous f ↔ ∀ s, IsClosed s → IsClosed (f ⁻¹' s)",
			StatementDeps: []string{"TopologicalSpace", "Continuous", "IsClosed", "Set.preimage"}},
		{Name: "Finset.sum_range_succ", Kind: library.KindTheorem,
			Signature:     "theorem Finset.sum_range_succ {β : Type*} [AddCommMonoid β] (f : ℕ → β) (n : ℕ) : (∑ x ∈ range (n + 1), f x) = (∑ x ∈ range n, f x) + f n",
			StatementDeps: []string{"AddCommMonoid", "Finset.range"}},
		{Name: "Nat.Prime.two_le", Kind: library.KindTheorem,
			Signature:     "theorem Nat.Prime.two_le {p : ℕ} (hp : p.Prime) : 2 ≤ p",
			StatementDeps: []string{"Nat.Prime"}},
		{Name: "dvd_trans", Kind: library.KindTheorem,
			Signature: "theorem dvd_trans {a b c : α} : a ∣ b → b ∣ c → a ∣ c", StatementDeps: []string{"Dvd.dvd"}},
		{Name: "Lattice", Kind: library.KindClass,
			Signature: "class Lattice (α : Type u) extends SemilatticeSup α, SemilatticeInf α", StatementDeps: []string{"SemilatticeSup", "SemilatticeInf"}},
		{Name: "Lattice.toSemilatticeSup", Kind: library.KindField, Parent: "Lattice", Signature: "field Lattice.toSemilatticeSup : SemilatticeSup α"},
		{Name: "Lattice.toSemilatticeInf", Kind: library.KindField, Parent: "Lattice", Signature: "field Lattice.toSemilatticeInf : SemilatticeInf α"},
		{Name: "instRingHomClass", Kind: library.KindInstance,
			Signature: "instance {R S : Type*} [Semiring R] [Semiring S] : RingHomClass (R →+* S) R S", StatementDeps: []string{"RingHomClass", "RingHom"}},
		{Name: "«term_⊔_»", Kind: library.KindNotation, Symbol: "⊔", Signature: "infixl:68 \" ⊔ \" => Max.max"},
	}
	children := fieldsByParent(decls)
	var b strings.Builder
	for _, d := range decls {
		h, c := statementParts(d.Signature)
		fmt.Fprintf(&b, "%s\n  hypotheses: %s\n  conclusion: %s\n  terms: %q\n\n", d.Name, strings.TrimSpace(h), strings.TrimSpace(c), statementTerms(nil, d, children[d.Name]))
	}
	checkGolden(t, "testdata/statement.golden", b.String(), "statement renderings")
}

// TestMineSymbols checks that a symbol's words come from the library: the
// notation declaration's target (⊔ → Max.max → max) and the names of the
// lemmas whose statements use it (sup_le, le_sup_left → sup), and that a
// word common in names (le) is no symbol's word by co-occurrence alone.
func TestMineSymbols(t *testing.T) {
	decls := []*library.Decl{
		{Name: "«term_⊔_»", Kind: library.KindNotation, Symbol: "⊔", Signature: "infixl:68 \" ⊔ \" => Max.max"},
		{Name: "«term_∣_»", Kind: library.KindNotation, Symbol: "∣", Signature: "infix:50 \" ∣ \" => Dvd.dvd", StatementDeps: []string{"Dvd.dvd"}},
	}
	for i, n := range []string{"sup_le", "le_sup_left", "le_sup_right", "sup_comm", "sup_assoc", "sup_idem"} {
		decls = append(decls, &library.Decl{Name: n, Kind: library.KindTheorem, Signature: fmt.Sprintf("theorem %s (a b : α) : a ⊔ b = b ⊔ a%d", n, i)})
	}
	for i := range 80 {
		decls = append(decls, &library.Decl{Name: fmt.Sprintf("le_foo%d", i), Kind: library.KindTheorem, Signature: "theorem x (a b : α) : a ≤ b"})
	}
	got := map[string]bool{}
	for _, p := range mineSymbols(decls, nil) {
		got[p.part+" "+p.words] = true
	}
	for _, want := range []string{"§⊔ max", "§⊔ sup", "§∣ dvd"} {
		if !got[want] {
			t.Errorf("mined %v, want %q among them", got, want)
		}
	}
	if got["§⊔ le"] {
		t.Errorf("mined ⊔ → le, a word of most names")
	}
	tab := symbolsFrom(mineSymbols(decls, nil))
	exps := tab.expandSymbols([]string{"⊔", "dvd"}, map[string]bool{})
	var terms []string
	for _, x := range exps {
		terms = append(terms, x.term)
	}
	if s := strings.Join(terms, " "); !strings.Contains(s, "sup") || !strings.Contains(s, "∣") {
		t.Errorf("expansions of [⊔ dvd] = %q, want sup and ∣ among them", s)
	}
}
