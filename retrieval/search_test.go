package retrieval

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestDetectIntent(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want Intent
	}{
		{"Cauchy-Schwarz inequality", IntentTheorem},
		{"Fermat's little theorem", IntentTheorem},
		{"Bezout's identity", IntentTheorem},
		{"Eisenstein's criterion", IntentTheorem},
		{"Stirling's formula", IntentTheorem},
		{"every prime greater than two is odd", IntentTheorem},
		{"a continuous function on a compact set is bounded", IntentTheorem},
		{"the fact that adding an element then subtracting it gives the original point", IntentTheorem},
		{"the order of an element of a group", IntentDefinition},
		{"greatest common divisor", IntentDefinition},
		{"vector space", IntentDefinition},
		{"a normal subgroup", IntentDefinition},
		{"Nat.Prime", IntentName},
		{"exists_prime_and_dvd", IntentName},
		{"IsPrimitiveRoot", IntentName},
		{"prime", IntentAny},
		{"compactness", IntentAny},
		{"", IntentAny},
		{"∑ ∏", IntentAny},
		{`A set \( s \) is called \emph{small} if \( \#s < \#\kappa \)`, IntentDefinition},
		{`An \emph{atom} is a pair \( a = (L, i) \)`, IntentDefinition},
		{`there is \emph{at most} one such map`, IntentTheorem},
		{`If $X$ is a random variable, the entropy $\mathbb{H}[X]$ of $X$ is defined as $\sum_x p_x \log(1/p_x)$`, IntentDefinition},
		{"we say that a group is simple if it has no proper normal subgroup", IntentDefinition},
		{"a function defined by a power series is analytic", IntentTheorem},
	} {
		if got := DetectIntent(tc.q); got != tc.want {
			t.Errorf("DetectIntent(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestDefinedTerm is the table of the terms a LaTeX query defines: its
// first emphasized words, math dropped.
func TestDefinedTerm(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{`A set \( s \) is called \emph{small} if \( \#s < \#\kappa \); sets are \emph{near} if …`, "small"},
		{`Then an \emph{\( \alpha \)-structural permutation} is an \( \alpha \)-tree`, "-structural permutation"},
		{`A \textbf{base permutation} is a pair`, "base permutation"},
		{`We say that $\alpha$ has \textit{typed near-litters} if`, "typed near-litters"},
		{`there is \emph{at most} one such map`, ""},
		{`an unclosed \emph{group`, ""},
		{`a set is small if it is small`, ""},
	} {
		got, ok := definedTerm(c.q)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("definedTerm(%q) = %q, %v; want %q", c.q, got, ok, c.want)
		}
	}
}

// TestStatedClaim is the table of the queries that announce a claim and
// the claim their words are matched by.
func TestStatedClaim(t *testing.T) {
	for _, c := range []struct {
		query, claim string // claim "" when the query announces none
	}{
		{"a lemma stating that the sum of two odd numbers is even", "the sum of two odd numbers is even"},
		{"A lemma stating that $a \\sqcup b = b \\sqcup a$", "$a \\sqcup b = b \\sqcup a$"},
		{"the theorem that every compact set is bounded", "every compact set is bounded"},
		{"a result saying a compact set is bounded below", "a compact set is bounded below"},
		{"The fact that ℝ is complete", "ℝ is complete"},
		{"a lemma which states that primes are infinite", "primes are infinite"},
		{"Lemma: x ≤ x", "x ≤ x"},
		{"proof that √2 is irrational", "√2 is irrational"},
		{"the theorem of Pythagoras", ""},       // a name, no claim
		{"Fermat's little theorem", ""},         // the noun ends a name
		{"a lemma stating that continuity", ""}, // one word is no claim
		{"the statement of the lemma", ""},
		{"Proposition stating that a set is near a given litter", ""}, // a predicate's description
		{"The proposition that the function preserves 1", ""},
		{"lemmas about sums", ""},
		{"", ""},
	} {
		claim, ok := statedClaim(c.query)
		if ok != (c.claim != "") || claim != c.claim {
			t.Errorf("statedClaim(%q) = %q, %v; want %q", c.query, claim, ok, c.claim)
		}
	}
}

func TestLongestRun(t *testing.T) {
	terms := func(s string) []string { return lexical.Terms(s) }
	for _, tc := range []struct {
		query, text string
		want        int
	}{
		{"Cauchy-Schwarz inequality", "the Cauchy–Schwarz inequality for sums", 3},
		{"Cauchy Schwarz inequality", "**Cauchy-Schwarz inequality**", 3},
		{"CauchySchwarz inequality", "an inequality of Cauchy, proved by Schwarz", 1},
		{"greatest common divisor", "the greatest common divisor of two numbers", 3},
		{"greatest common divisor", "a common divisor that is greatest", 2},
		{"Euler's totient function", "Euler's totient function φ", 3},
		{"normalised vectors", "normalized vector", 2},
		{"prime numbers", "a prime number", 2},
		{"prime", "nothing here", 0},
	} {
		if got := longestRun(terms(tc.query), terms(tc.text)); got != tc.want {
			t.Errorf("longestRun(%q, %q) = %d, want %d", tc.query, tc.text, got, tc.want)
		}
	}
}

// TestPhraseOutranksScattered checks that consecutive query words in a
// docstring outrank the same words scattered.
func TestPhraseOutranksScattered(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"lakefile.lean":  "import Lake\nopen Lake DSL\npackage demo\n",
		"lean-toolchain": "leanprover/lean4:v4.17.0\n",
		"Demo/A.lean": `namespace Demo
/-- A bound on the sum: the inequality of Cauchy, proved by Schwarz in another form. -/
theorem scattered (a b : Nat) : a ≤ a + b := sorry
/-- The Cauchy-Schwarz inequality for two sums. -/
theorem together (a b : Nat) : a ≤ b + a := sorry
/-- The Cauchy-Schwarz inequality for two sums. -/
@[deprecated together (since := "2025-01-01")] theorem together_old (a b : Nat) : a ≤ b + a := sorry
end Demo
`,
	})
	e := openReady(t, Config{Roots: []string{dir}})
	hits, err := e.Search(context.Background(), Query{Text: "Cauchy–Schwarz inequality", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	// The phrase outranks the scattered words; the deprecated copy of the
	// phrase ranks below both.
	if got := hitNames(hits); !reflect.DeepEqual(got, []string{"Demo.together", "Demo.scattered", "Demo.together_old"}) {
		t.Errorf("hits = %q", got)
	}
	if !strings.Contains(hits[0].Why, "Cauchy-Schwarz inequality") || hits[0].Summary != "The Cauchy-Schwarz inequality for two sums." {
		t.Errorf("explanation = %q, summary = %q", hits[0].Why, hits[0].Summary)
	}
}

func TestMineSynonyms(t *testing.T) {
	doc := func(name, d string) *library.Decl { return &library.Decl{Name: name, Kind: library.KindDef, Doc: d} }
	decls := []*library.Decl{
		doc("A.x", "Every principal ideal domain (PID) is a unique factorization domain (UFD)."),
		doc("B.y", "A principal ideal domain (PID) is Noetherian."),
		doc("C.z", "A unique factorization domain (UFD) once."),
		doc("Nat.gcd", "The greatest common divisor of two numbers."),
		doc("Int.gcd", "The greatest common divisor of two integers."),
		doc("Poly.gcd", "The gcd, computed by the Euclidean algorithm."),
		doc("Foo.fg", "Finitely generated, fully generated."),
		doc("Bar.fg", "Free group."),
	}
	tab := mineSynonyms(decls)
	expand := func(q string) []string {
		var out []string
		for _, x := range tab.expand(lexical.Terms(q)) {
			out = append(out, x.term)
		}
		return out
	}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"PID", []string{"princip", "ideal", "domain", "ring"}}, // mined (2 declarations) + hand list
		{"principal ideal domain", []string{"pid"}},             // both ways
		{"greatest common divisor", []string{"gcd"}},            // hand list and name pieces
		{"gcd", []string{"greatest", "common", "divisor"}},      //
		{"fg", nil},                          // two spellings, no majority
		{"vector spaces", []string{"modul"}}, // hand list, plural
		{"prime", nil},                       //
	} {
		if got := expand(tc.q); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("expand(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
	// The mined pair needs two declarations: UFD is attested once by
	// parentheses but comes from the hand list anyway; a made-up acronym
	// attested once is not mined.
	one := mineSynonyms([]*library.Decl{doc("Q.r", "A quasi regular thing (QRT) here.")})
	if got := one.expand(lexical.Terms("QRT")); len(got) != 0 {
		t.Errorf("QRT mined from one declaration: %v", got)
	}
	two := mineSynonyms([]*library.Decl{doc("Q.r", "A quasi regular torus (QRT) here."), doc("Q.s", "Every quasi regular torus (QRT).")})
	if got := two.expand(lexical.Terms("QRT")); len(got) != 3 {
		t.Errorf("QRT not mined from two declarations: %v", got)
	}
}

// goldenQueries are the queries of TestSearchGolden.
var goldenQueries = []string{
	"greatest common divisor",
	"gcd",
	"prime number",
	"Mm.gcd",
	"divisibility is transitive",
	"group",
	"every prime greater than two is odd",
	"coprime numbers",
	"congruence modulo n",
	"the sum over a list",
	"partial order",
	"an odd number squared is odd",
}

// checkGolden compares got with the golden file (rewritten with -update)
// and returns the file's text; what names the output in the message.
func checkGolden(t *testing.T, golden, got, what string) string {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differ from %s (run with -update after an intended change):\n%s", what, golden, got)
	}
	return string(want)
}

// TestSearchGolden pins the top 5 of a dozen queries over the demo
// workspace (testdata/workspace); run with -update to rewrite the golden
// file after an intended ranking change.
func TestSearchGolden(t *testing.T) {
	e := openReady(t, Config{Roots: []string{filepath.Join("..", "testdata", "workspace")}})
	var b strings.Builder
	for _, q := range goldenQueries {
		hits, err := e.Search(context.Background(), Query{Text: q, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\t[%s]\n", q, DetectIntent(q))
		for i, h := range hits {
			fmt.Fprintf(&b, "  %d. %s (%s)\n", i+1, h.Decl.Name, h.Decl.Kind)
		}
	}
	golden := filepath.Join("testdata", "search.golden")
	want := checkGolden(t, golden, b.String(), "search results")
	if !strings.Contains(string(want), "greatest common divisor\t[definition]\n  1. Mm.gcd (def)\n") {
		t.Error("greatest common divisor must find Mm.gcd first")
	}
}

// TestSpells pins the alignments by which the lexicon miner reads a name
// part as an abbreviation of docstring words.
func TestSpells(t *testing.T) {
	for _, tc := range []struct {
		part  string
		words string
		want  int
	}{
		{"deriv", "derivative of f", 1},
		{"comp", "composition of maps", 1},
		{"nhds", "neighborhoods of a point", 1},
		{"bdd", "bounded above", 1},
		{"gcd", "greatest common divisor of", 3},
		{"minpoly", "minimal polynomial of x", 2},
		{"charpoly", "characteristic polynomial", 2},
		{"smul", "scalar multiplication by", 2},
		{"fderiv", "frechet derivative", 2},
		{"ring", "ring of integers", 0},     // the word itself
		{"de", "derivative", 0},             // one word needs three letters
		{"odd", "ordered field", 1},         // a skeleton: minePairs drops it as a prose word
		{"ord", "ordered", 1},               //
		{"obd", "ordered", 0},               // b is not in the word
		{"ored", "ordered", 0},              // a vowel after the first letter
		{"sm", "scalar multiplication", 2},  // initials
		{"scm", "scalar multiplication", 0}, // c is no prefix of "multiplication"
		{"tendsto", "tends", 0},             // longer than the word
	} {
		if got := spells(tc.part, strings.Fields(tc.words)); got != tc.want {
			t.Errorf("spells(%q, %q) = %d, want %d", tc.part, tc.words, got, tc.want)
		}
	}
}

// TestLexiconMined checks the mined lexicon end to end: a part spelled out
// by two declarations' docstrings is mined with its weight, a part used as
// a prose word is not, and the pairs survive the base index file.
func TestLexiconMined(t *testing.T) {
	doc := func(name, d string) *library.Decl { return &library.Decl{Name: name, Kind: library.KindDef, Doc: d} }
	pairs := minePairs([]*library.Decl{
		doc("Polynomial.minpoly", "The minimal polynomial of an element."),
		doc("Matrix.minpoly", "The minimal polynomial of a matrix."),
		doc("Odd.ordered", "An odd function on an ordered field."),
		doc("Nat.odd", "An odd number; see the ordered ring."),
		doc("Foo.odd", "Ordered pairs, odd ones."),
	})
	if len(pairs) != 1 || pairs[0].part != "minpoly" || pairs[0].words != "minimal polynomial" {
		t.Fatalf("minePairs = %+v, want only minpoly = minimal polynomial", pairs)
	}
	if w := pairs[0].weight; w <= 0 || w > 1 {
		t.Errorf("weight %v not in (0, 1]", w)
	}
	tab := synonymsFrom(pairs)
	var got []string
	for _, x := range tab.expand(lexical.Terms("minimal polynomials")) {
		got = append(got, x.term)
	}
	if !slices.Contains(got, lexical.Stem("minpoly")) {
		t.Errorf("expand(minimal polynomials) = %q, want minpoly among them", got)
	}
}

// TestStmtQuery is the table of the queries read against statements.
func TestStmtQuery(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{
		{"Cantor's theorem", false},
		{"Cantor’s Theorem", false}, // the curly apostrophe is no notation
		{"Hall's marriage theorem", true},
		{"Euler’s Generalization of Fermat’s Little Theorem", true},
		{"The collection of declared rule sets", false}, // "rule" modifies "sets"
		{"the rule of three for proportions", true},
		{"a lemma stating that the sum of two odd numbers is even", true},
		{"a result saying that the closure of the image of a map", true}, // announced, no cue of its own
		{"every bounded monotone sequence converges", true},
		{"compact spaces", false},
		{"the Euler totient function of a natural number", false},
		{"a poset with binary $\\sqcup$ and $\\sqcap$", true},
		{"a ⊔ b = b ⊔ a", true},
		{"continuous image of a compact set in a metric space is compact", true},
		{"Or there is exactly one tree", false}, // stop words leave one term
		{"`x`", true},
	} {
		if got := stmtQuery(c.query, ""); got != c.want {
			t.Errorf("stmtQuery(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

// TestStatesResult is the table of the queries under which an
// undocumented declaration's statement weighs more (StmtUndoc): those
// that state a result, in words or as a formula with a relation.
func TestStatesResult(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{
		{"A compact set is bounded below", true},
		{"a lemma stating that the sum of two odd numbers is even", true},
		{"the fact that adding an element then subtracting it gives the original point", true},
		{"every bounded monotone sequence converges", true},
		{"Is a ring", false}, // the cue must follow the first word
		{"Hahn–Banach theorem", false},
		{"fundamental theorem of calculus, part 2", false},
		{"$p$-adic number", false},
		{"$k$-times continuously differentiable functions", false},
		{"$x^2 \\ge 0$ for real $x$", true},
		{"`a ⊔ b = b ⊔ a`", true},
		{"$f^{-1}(C)$ closed", false},
		{"$a \\mid b$ and $b \\mid c$", true},
	} {
		if got := statesResult(c.query, ""); got != c.want {
			t.Errorf("statesResult(%q) = %v, want %v", c.query, got, c.want)
		}
	}
	// A formal guess states a result by a relation, not by its names.
	for formal, want := range map[string]bool{"Demo.Divides a b": false, "a ∣ b * c": true} {
		if got := statesResult("", formal); got != want {
			t.Errorf("statesResult(formal %q) = %v, want %v", formal, got, want)
		}
	}
}
