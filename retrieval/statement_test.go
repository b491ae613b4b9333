package retrieval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
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

// TestMineBracketHeads checks that a bracket notation's head (H[ of
// "H[" X "]" => entropy X) stands for the words of the targets of its
// notations with the fewest operands, not of the variants that add
// operands, and that a query's head expands to them.
func TestMineBracketHeads(t *testing.T) {
	decls := []*library.Decl{
		{Name: "«termH[_]»", Kind: library.KindNotation, Symbol: "H[ X ]", Signature: `notation3:max "H[" X "]" => entropy X volume`, StatementDeps: []string{"ProbabilityTheory.entropy"}},
		{Name: "«termH[_;_]»", Kind: library.KindNotation, Symbol: "H[ X ; μ ]", Signature: `notation3:max "H[" X "; " μ "]" => entropy X μ`, StatementDeps: []string{"ProbabilityTheory.entropy"}},
		{Name: "«termH[_|_]»", Kind: library.KindNotation, Symbol: "H[ X | Y ]", Signature: `notation3:max "H[" X " | " Y "]" => condEntropy X Y volume`, StatementDeps: []string{"ProbabilityTheory.condEntropy"}},
		{Name: "«termH[_|_;_]»", Kind: library.KindNotation, Symbol: "H[ X | Y ; μ ]", Signature: `notation3:max "H[" X " | " Y " ; " μ "]" => condEntropy X Y μ`, StatementDeps: []string{"ProbabilityTheory.condEntropy"}},
		{Name: "«term_[X]»", Kind: library.KindNotation, Symbol: "R [X]", Signature: `notation:9000 R "[X]" => Polynomial R`, StatementDeps: []string{"Polynomial"}},
	}
	got := map[string]float64{}
	for _, p := range mineSymbols(decls, nil) {
		got[p.part+" "+p.words] = p.weight
	}
	if got["§H[ entropi"] != 1 {
		t.Errorf("mined %v, want H[ → entropi with weight 1", got)
	}
	for k := range got {
		if strings.Contains(k, "cond") || strings.HasPrefix(k, "§R") || strings.HasPrefix(k, "§[X]") {
			t.Errorf("mined %q: a variant with more operands, or a pattern opening with an operand", k)
		}
	}
	tab := symbolsFrom(mineSymbols(decls, nil))
	if exps := tab.expandSymbols([]string{"H["}, map[string]bool{}); len(exps) != 1 || exps[0].term != "entropi" {
		t.Errorf("expansions of H[ = %+v, want entropi", exps)
	}
	for _, c := range []struct {
		pattern, head string
		operands      int
	}{
		{"H[ X ; μ ]", "H[", 2},
		{"dᵤ[ A # B ]", "dᵤ[", 2},
		{"KL[ X | Z # Y ]", "KL[", 3},
		{"R [X]", "", 0},
		{"⁅ x , y ⁆", "", 2},
		{"x[ i ]", "x[", 1},
		{"", "", 0},
	} {
		if h, n := bracketHead(c.pattern), operands(c.pattern); h != c.head || n != c.operands {
			t.Errorf("bracketHead, operands(%q) = %q, %d; want %q, %d", c.pattern, h, n, c.head, c.operands)
		}
	}
}

// TestBinderGroupsKeepTerms checks that the hypotheses read binder group by
// binder group, through the analyzer's cache and twice over, give the
// terms and symbols of the text read whole (the statement field must not
// depend on the cache).
func TestBinderGroupsKeepTerms(t *testing.T) {
	fa := newFieldAnalyzer()
	for _, hyps := range []string{
		"{α : Type u} {ι ι' : Sort u} [CompleteLattice α] (f : ι → ι' → α)",
		"{X Y : Type u} [TopologicalSpace X] {f : X → Y} (hf : Continuous f) (hs : IsClosed s) → IsClosed (f ⁻¹' s)",
		"{p : ℕ} (hp : p.Prime) (h₁ : 2 ≤ p) ⦃x : α⦄ ⟨a, b⟩",
		"  leading  and   double  spaces  ",
		"(h : a ∣ b) → b ∣ c →",
		"unbalanced ) ] } (h : x ≤ y",
		"(x : \\mathbb R) (n : \\mathbb N)", // a backslash: read whole
		"[Fintype ι] (s : Finset ι) (w : ι → ℝ) (hw : ∀ i ∈ s, 0 ≤ w i) (h₀ : ∑ i ∈ s, w i = 1)",
		"",
	} {
		want := append(lexical.Terms(hyps), lexical.Symbols(hyps)...)
		for round := range 2 {
			var got, syms []string
			for g := range binderGroups(hyps) {
				got, syms = fa.a.AppendChunk(got, syms, g)
			}
			got = append(got, syms...)
			if !slices.Equal(got, want) {
				t.Errorf("round %d, %q:\n got %q\nwant %q", round, hyps, got, want)
			}
		}
	}
}
