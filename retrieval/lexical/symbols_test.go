package lexical

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestQueryReader is the golden table of the LaTeX and Unicode query
// reader: each query, the Unicode its LaTeX typesets, its notation symbols
// and its terms (testdata/latex.golden; -update rewrites it).
func TestQueryReader(t *testing.T) {
	queries := []string{
		`a poset with binary $\sqcup$ and $\sqcap$`,
		`$\sum_{i=1}^n i = n(n+1)/2$`,
		`$x^2 \ge 0$ for $x \in \mathbb{R}$`,
		`$f^{-1}(C)$ closed`,
		`$a \mid b$ and $b \mid c$ implies $a \mid c$`,
		`a ⊔ b = b ⊔ a`,
		"`⨆ i, ⨅ j, f i j ≤ ⨅ j, ⨆ i, f i j`",
		`$\sup_i \inf_j f(i, j) \le \inf_j \sup_i f(i, j)$`,
		`$\|x + y\| \le \|x\| + \|y\|$`,
		`Cauchy-Schwarz inequality and/or the triangle inequality`,
		`$\gcd(a,b) \cdot \mathrm{lcm}(a,b) \sim ab$`,
		`$X \cong \mathrm{Spec}\,\Gamma(X, \mathcal{O}_X)$`,
		"`Continuous f ↔ ∀ s, IsClosed s → IsClosed (f ⁻¹' s)`",
		`$\bigcap_{i \in I} U_i$ open`,
		`R →+* S is a ring hom`,
		`paracompact $+\ T_2 \Rightarrow T_4$`,
		`$\mathbb{Z}/n\mathbb{Z}$`,
		`an unclosed $x \le`,
	}
	var b strings.Builder
	for _, q := range queries {
		fmt.Fprintf(&b, "query:   %s\nunicode: %s\nsymbols: %q\nterms:   %q\n\n", q,
			strings.Join(strings.Fields(LaTeXToUnicode(q)), " "), QuerySymbols(q), Terms(q))
	}
	golden := "testdata/latex.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("query reader output differs from %s (run with -update after an intended change):\n%s", golden, b.String())
	}
}

func TestSymbols(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"a ⊔ b ≤ c", "⊔ ≤"},
		{"IsClosed (f ⁻¹' s)", "⁻¹'"},
		{"(f : R →+* S) (x : α)", "→+*"},
		{"x ^ 2 + y * z = w", "^ + *"},
		{"∀ x, ∃ y, x = y → ↑x = y", ""},
		{"e : M ≃ₗ[R] N", "≃ₗ"},
		{"⟨a, b⟩ ∈ s ×ˢ t", "∈ ×ˢ"},
		{"x' = x''", ""},
	} {
		if got := strings.Join(Symbols(c.in), " "); got != c.want {
			t.Errorf("Symbols(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestQuotesAreNoSymbols checks that the quotation marks of prose are no
// query symbols, while notation next to them still is.
func TestQuotesAreNoSymbols(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"Cantor’s Theorem", nil},
		{"Euler’s Generalization of Fermat’s Little Theorem", nil},
		{"“open” sets and ‘closed’ ones, «quoted»", nil},
		{"Cantor's theorem", nil},
		{"a ⊔ b for Cantor’s lattice", []string{"⊔"}},
		{"$f’ \\le g$", []string{"≤"}},
	} {
		if got := QuerySymbols(c.query); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("QuerySymbols(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}
