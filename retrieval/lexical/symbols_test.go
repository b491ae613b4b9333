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
		`If $X$ is $S$-valued, then $\mathbb{H}[X] \leq \log |S|$`,
		`$d[X ;Y] \leq d[X ;Z] + 2d[Z;Y]$ and $\mathrm{Var}[X] \ge 0$`,
		`A set \( s \subseteq t \) is small if \( \#s < \#\kappa \); a set-theoretic union`,
		`then \[ x - y \le z / 2 \] and \begin{align*} a &\le b \\ &= c \end{align*}`,
		`If $A \subset {\bf F}_2^n$ and $x \in \mathbb R$`,
		`\begin{itemize} \item[(i)] see \cref{lem:sum-bound} and \cite{tao} \end{itemize}`,
		"`xs[i] = H[X ; μ]` and $\\item[x]$",
		`$\rho^+(X) \le \rho(X) + \tau_1[X]$ for $\alpha \in S$, $\mu$ a measure`,
		`$\mu(A \cup B) \le \mu(A) + \mu(B)$ and $\varphi(n)$`,
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

// TestBracketHeads is the table of bracket-notation heads: a letter run
// before "[", not after a backslash, underscore or dot.
func TestBracketHeads(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"H[X ; μ] ≤ H[X]", "H["},
		{"2d[X ;Y] + dᵤ[A # B] + KL[X # Y]", "d[ dᵤ[ KL["},
		{"ρ⁻[X | Z] = ℍ[R]", "ρ⁻[ ℍ["},
		{`\item[(i)] X_1[a] a.b[c] 2[3] [x]`, ""},
		{"(H[X])", "H["},
	} {
		if got := strings.Join(BracketHeads(c.in), " "); got != c.want {
			t.Errorf("BracketHeads(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNotationWords is the table of the naming convention's words for
// inequalities with zero and for the size of a set in math.
func TestNotationWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`$x^2 \ge 0$ and $0 < \pi$`, "nonneg pos"},
		{`$D[X] \geq 0$, so $0\le y$`, "nonneg"},
		{`$-x + x \le 0$ and $x<0$`, "nonpo neg"},
		{`\( a = 0 \), \( b \neq 0 \), $f(0) \le 1$, $x \le 0.5$, $x \le 10$`, ""},
		{`x ≥ 0 in prose; ` + "`0 < n`", "pos"},
		{`$|A+A| \le K|A|$`, "card"},
		{`$|G'| = |H_1|$, $|x| \le 1$, $\|v\|$, $||A||$`, "card"},
		{`$|x - y| < \epsilon$ and $|S|$ in prose |T|`, "card"},
		{`$|x - y| < \epsilon$, $\|A\|$`, ""},
	} {
		if got := strings.Join(NotationWords(c.in), " "); got != c.want {
			t.Errorf("NotationWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMathSegments checks LaTeX's math delimiters and Lean's backticks.
func TestMathSegments(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`a $x$ b`, `a |$x$| b`},
		{`a $$x$$ b \(y\) c \[z\] d`, `a |$x$| b |$y$| c |$z$| d`},
		{`\begin{align*} x &= y \end{align*} e \begin{itemize} i \end{itemize}`, `|$ x &= y $| e \begin{itemize} i \end{itemize}`},
		{"`a ∣ b` and $unclosed", "|`a ∣ b`| and $unclosed"},
		{`\begin{equation} open`, `\begin{equation} open`},
	} {
		var b strings.Builder
		for _, seg := range mathSegments(c.in) {
			switch {
			case seg.lean:
				b.WriteString("|`" + seg.text + "`|")
			case seg.math:
				b.WriteString("|$" + seg.text + "$|")
			default:
				b.WriteString(seg.text)
			}
		}
		if b.String() != c.want {
			t.Errorf("mathSegments(%q) = %q, want %q", c.in, b.String(), c.want)
		}
	}
	if got := Prose(`a $x$ b \(y\) c`); got != "a   b   c" {
		t.Errorf("Prose = %q", got)
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
