package drift

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// TestAddOmittedConditions: an omitted numeral comparison becomes a
// hypothesis on the one variable the statement's words bind, and on none
// when the variable is not certain.
func TestAddOmittedConditions(t *testing.T) {
	for _, c := range []struct{ statement, stub, want string }{
		{"Every prime number greater than 2 is odd.",
			"theorem t (n : ℕ) (hp : Nat.Prime n) : Odd n := by sorry",
			"theorem t (n : ℕ) (hp : Nat.Prime n) (hn : 2 < n) : Odd n := by sorry"},
		// the noun's predicate picks the variable among two; hn is taken
		{"Every prime number greater than 2 is odd.",
			"theorem t (m n : ℕ) (hn : Nat.Prime n) (h : m = n) : Odd n := by sorry",
			"theorem t (m n : ℕ) (hn : Nat.Prime n) (h : m = n) (hn' : 2 < n) : Odd n := by sorry"},
		{"Every prime number greater than 2 is odd.",
			"theorem t (m n : ℕ) (hp : n.Prime) : Odd (n + m) := by sorry",
			"theorem t (m n : ℕ) (hp : n.Prime) (hn : 2 < n) : Odd (n + m) := by sorry"},
		// the variables named in math
		{"For positive integers $x$ and $y$, we have $x + y \\geq 2$.",
			"theorem t (x y : ℤ) : x + y ≥ 2 := by sorry",
			"theorem t (x y : ℤ) (hx : 0 < x) (hy : 0 < y) : x + y ≥ 2 := by sorry"},
		{"If $n$ is at least 3, then $n^2 > 2n$.",
			"theorem t (n : ℕ) : n ^ 2 > 2 * n := by sorry",
			"theorem t (n : ℕ) (hn : 3 ≤ n) : n ^ 2 > 2 * n := by sorry"},
		{"A nonzero real number times its inverse is 1.",
			"theorem t (x : ℝ) : x * x⁻¹ = 1 := by sorry",
			"theorem t (x : ℝ) (hx : x ≠ 0) : x * x⁻¹ = 1 := by sorry"},
		// said of three, stated of two
		{"For positive reals $a$, $b$ and $c$, show that $(a+b)(b+c)(c+a) \\geq 8abc$.",
			"theorem t (a b c : ℝ) (ha : 0 < a) (hb : b > 0) : (a + b) * (b + c) * (c + a) ≥ 8 * a * b * c := by sorry",
			"theorem t (a b c : ℝ) (ha : 0 < a) (hb : b > 0) (hc : 0 < c) : (a + b) * (b + c) * (c + a) ≥ 8 * a * b * c := by sorry"},
		// "two negative": both variables of the noun's type, one stated
		{"The product of two negative real numbers is positive.",
			"theorem t (x y : ℝ) (hx : x < 0) : 0 < x * y := by sorry",
			"theorem t (x y : ℝ) (hx : x < 0) (hy : y < 0) : 0 < x * y := by sorry"},
		{"The product of two negative real numbers is positive.",
			"theorem t (x y : ℝ) : 0 < x * y := by sorry",
			"theorem t (x y : ℝ) (hx : x < 0) (hy : y < 0) : 0 < x * y := by sorry"},
		// ambiguous: two integers, nothing applied to either
		{"Every integer greater than 2 is the sum of two integers.",
			"theorem t (m n : ℤ) : m + n = m + n := by sorry", ""},
		// the noun allows no binder: an integer is not real
		{"Every integer greater than 2 is nonzero.",
			"theorem t (x : ℝ) : x ≠ 0 := by sorry", ""},
		// a variable the stub does not bind
		{"If $k$ is positive, then so is $k + 1$.",
			"theorem t (n : ℕ) : 0 < n + 1 := by sorry", ""},
		// no order on ℂ
		{"Every positive complex number is nonzero.",
			"theorem t (z : ℂ) : z ≠ 0 := by sorry", ""},
	} {
		parsed, err := leanrepl.Gate(c.stub)
		if err != nil {
			t.Fatal(err)
		}
		cov := coverage.Check(c.statement, c.stub, nil)
		fixes := AddOmittedConditions(parsed, &cov, nil, nil)
		got, notes := "", []string(nil)
		if len(fixes) > 0 {
			got, notes = fixes[0].Stub, fixes[0].Notes
		}
		if got != c.want || (len(notes) == 0) != (c.want == "") {
			t.Errorf("%q\n%s\ngot  %q %q\nwant %q", c.statement, c.stub, got, notes, c.want)
		}
	}
}

// TestAddOmittedConcepts: a concept said of the statement's subject and
// stated only in the conclusion becomes a hypothesis on each variable the
// subject counts, with the predicate the stub writes or a premise so named;
// later fixes try the premises' other names.
func TestAddOmittedConcepts(t *testing.T) {
	odd := []coverage.Concept{{Phrase: "odd integer", Names: []string{"Odd"}}}
	prime := []coverage.Concept{{Phrase: "prime number", Names: []string{"Nat.Prime", "Prime", "Nat.Primes"}}, {Phrase: "odd", Names: []string{"Odd"}}}
	for _, c := range []struct {
		statement, stub string
		concepts        []coverage.Concept
		want            []string
	}{
		{"The product of two odd integers is odd.", "theorem t (x y : ℤ) : Odd (x * y) := by sorry", odd,
			[]string{"theorem t (x y : ℤ) (hx : Odd x) (hy : Odd y) : Odd (x * y) := by sorry"}},
		{"The square of an odd integer is odd.", "theorem t (n : ℤ) : Odd (n ^ 2) := by sorry", odd,
			[]string{"theorem t (n : ℤ) (hn : Odd n) : Odd (n ^ 2) := by sorry"}},
		{"Every prime number greater than 2 is odd.", "theorem t (p : ℕ) : Odd p := by sorry", prime,
			[]string{"theorem t (p : ℕ) (hp : 2 < p) (hp' : Nat.Prime p) : Odd p := by sorry",
				"theorem t (p : ℕ) (hp : 2 < p) (hp' : Prime p) : Odd p := by sorry"}},
		{"The sum of two odd natural numbers is even.", "theorem t (m n : ℕ) : Even (m + n) := by sorry", odd,
			[]string{"theorem t (m n : ℕ) (hm : Odd m) (hn : Odd n) : Even (m + n) := by sorry"}},
		// no premise is named for the word: the library's root name is
		{"The sum of two odd natural numbers is even.", "theorem t (m n : ℕ) : Even (m + n) := by sorry",
			[]coverage.Concept{{Phrase: "odd natural number", Names: []string{"Nat.odd_iff", "Odd.add_odd"}}},
			[]string{"theorem t (m n : ℕ) (hm : Odd m) (hn : Odd n) : Even (m + n) := by sorry"}},
		// nor does the library have one
		// a divisibility the statement assumes
		{"If a natural number is divisible by 4, then it is even.", "theorem t (n : ℕ) : Even n := by sorry", nil,
			[]string{"theorem t (n : ℕ) (hn : 4 ∣ n) : Even n := by sorry"}},
		// said in the conclusion: not assumed
		{"If n is even, then n squared is divisible by 4.", "theorem t (n : ℕ) (h : Even n) : Even (n ^ 2) := by sorry", nil, nil},
		{"Every prime number is positive.", "theorem t (p : ℕ) : 0 < p := by sorry",
			[]coverage.Concept{{Phrase: "prime number", Names: []string{"Nat.prime_def"}}}, nil},
		// three integers for "two": which two is not certain
		{"The product of two odd integers is odd.", "theorem t (x y z : ℤ) : Odd (x * y * z) := by sorry", odd, nil},
		// stated already
		{"The product of two odd integers is odd.", "theorem t (x y : ℤ) (h : Odd x ∧ Odd y) : Odd (x * y) := by sorry", odd, nil},
	} {
		parsed, err := leanrepl.Gate(c.stub)
		if err != nil {
			t.Fatal(err)
		}
		cov := coverage.Check(c.statement, c.stub, c.concepts)
		var got []string
		has := func(n string) bool { return n == "Odd" || n == "Even" }
		for _, f := range AddOmittedConditions(parsed, &cov, has, nil) {
			got = append(got, f.Stub)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q\n%s\ngot  %q\nwant %q", c.statement, c.stub, got, c.want)
		}
	}
}

// TestFormalizeAddsOmittedCondition: the sampled stub drops "greater than
// 2"; the pipeline adds it as a hypothesis (no model call), the stub then
// covers its statement, and the note says so.
func TestFormalizeAddsOmittedCondition(t *testing.T) {
	const st = "Every prime number greater than 2 is odd."
	for _, off := range []bool{false, true} {
		s := goodScript()
		s.backTranslate = llmtest.Reply{Text: st}
		s.formalize = []llmtest.Reply{{Text: "```lean\ntheorem odd_of_prime (n : Nat) (hp : Mm.Prime n) : Mm.Odd n := by sorry\n```"}}
		srv := llmtest.New(t, s.respond)
		pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1, NoConditionRepair: off}, nil)
		res, err := pl.Formalize(context.Background(), Request{Statement: st, Name: "odd_of_prime"}, nil)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if off {
			if res.ConditionRepairs != 0 || len(res.Report.CoverageFindings()) != 1 {
				t.Errorf("NoConditionRepair: %q, %d repairs", res.Stub, res.ConditionRepairs)
			}
			continue
		}
		want := "theorem odd_of_prime (n : Nat) (hp : Mm.Prime n) (hn : 2 < n) : Mm.Odd n := by sorry"
		if res.Stub != want || res.ConditionRepairs != 1 || len(res.Report.CoverageFindings()) != 0 ||
			!strings.Contains(strings.Join(res.Candidates[0].Notes, ";"), "added the hypothesis (hn : 2 < n) for 'greater than 2'") {
			t.Errorf("stub %q, %d repairs, findings %v, notes %q", res.Stub, res.ConditionRepairs, res.Report.CoverageFindings(), res.Candidates[0].Notes)
		}
	}
}

// TestFormalizeAddsOmittedSubject: the sampled stub states "odd" of n but
// drops "prime" and "greater than 2", both said of the subject; the
// pipeline adds both as hypotheses (no model call) and the stub then covers
// its statement.
func TestFormalizeAddsOmittedSubject(t *testing.T) {
	const st = "Every prime number greater than 2 is odd."
	s := goodScript()
	s.backTranslate = llmtest.Reply{Text: st}
	s.formalize = []llmtest.Reply{{Text: "```lean\ntheorem odd_of_prime (n : Nat) : Mm.Odd n := by sorry\n```"}}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: st, Name: "odd_of_prime"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "theorem odd_of_prime (n : Nat) (hn : 2 < n) (hn' : Mm.Prime n) : Mm.Odd n := by sorry"
	if res.Stub != want || len(res.Report.CoverageFindings()) != 0 {
		t.Errorf("stub %q, findings %v, notes %q", res.Stub, res.Report.CoverageFindings(), res.Candidates[0].Notes)
	}
}

// TestRetypeToNoun: the number noun the statement names and the stub
// omits becomes the type of its numeric binders when they all share
// another one; anything less certain is left alone.
func TestRetypeToNoun(t *testing.T) {
	natural := []coverage.Concept{{Phrase: "natural number", Names: []string{"Nat"}}}
	for _, c := range []struct {
		statement, stub string
		concepts        []coverage.Concept
		want            string
	}{
		{"For natural numbers a, b and c, if a divides b and b divides c, then a divides c.",
			"theorem t (a : ℤ) (b : ℤ) (c : ℤ) : a ∣ b → b ∣ c → a ∣ c := by sorry", natural,
			"theorem t (a : ℕ) (b : ℕ) (c : ℕ) : a ∣ b → b ∣ c → a ∣ c := by sorry"},
		{"For natural numbers a and b, a + b = b + a.", "theorem t (a b : ℤ) : a + b = b + a := by sorry", natural,
			"theorem t (a b : ℕ) : a + b = b + a := by sorry"},
		// stated over ℕ already
		{"For natural numbers a and b, a + b = b + a.", "theorem t (a b : ℕ) : a + b = b + a := by sorry", natural, ""},
		// two types: which variables the noun binds is not certain
		{"For natural numbers a and b, a + b = b + a.", "theorem t (a : ℤ) (b : ℝ) : a + b = b + a := by sorry", natural, ""},
		// a second number noun: which binder is whose is not certain
		{"For every real x and natural n, x ^ n is defined.", "theorem t (x : ℕ) (n : ℕ) : x ^ n = x ^ n := by sorry",
			[]coverage.Concept{{Phrase: "real number", Names: []string{"Real"}}, {Phrase: "natural number", Names: []string{"Nat"}}}, ""},
		// a phrase the noun starts is no noun
		{"The real part of z is zero.", "theorem t (z : ℂ) : z.re = 0 := by sorry", []coverage.Concept{{Phrase: "real part", Names: []string{"Complex.re"}}}, ""},
	} {
		parsed, err := leanrepl.Gate(c.stub)
		if err != nil {
			t.Fatal(err)
		}
		cov := coverage.Check(c.statement, c.stub, c.concepts)
		got := ""
		if f := RetypeToNoun(parsed, &cov); f != nil {
			got = f.Stub
		}
		if got != c.want {
			t.Errorf("%q\n%s\ngot  %q\nwant %q\nconditions %+v", c.statement, c.stub, got, c.want, cov.Conditions)
		}
	}
}

// TestReorderDivisors checks the swap of ∣'s arguments where the statement
// fixes the numeral's side and the stub reverses it, and that nothing else
// is touched.
func TestReorderDivisors(t *testing.T) {
	const six = "If a natural number is divisible by 6, then it is divisible by 3."
	for _, c := range []struct{ statement, stub, want string }{
		{six, "theorem t (n : ℕ) : n ∣ 6 → n ∣ 3 := by sorry", "theorem t (n : ℕ) : 6 ∣ n → 3 ∣ n := by sorry"},
		{six, "theorem t (n : ℕ) (h : n ∣ 6) : 3 ∣ n := by sorry", "theorem t (n : ℕ) (h : 6 ∣ n) : 3 ∣ n := by sorry"},
		// in order already, or stated by a remainder
		{six, "theorem t (n : ℕ) (h : 6 ∣ n) : 3 ∣ n := by sorry", ""},
		{six, "theorem t (n : ℕ) (h : n % 6 = 0) : n % 3 = 0 := by sorry", ""},
		// "divides 6" puts the numeral on the right
		{"Every natural number that divides 6 is at most 6.", "theorem t (n : ℕ) (h : 6 ∣ n) : n ≤ 6 := by sorry", "theorem t (n : ℕ) (h : n ∣ 6) : n ≤ 6 := by sorry"},
		// the other argument is no single token: left alone
		{six, "theorem t (n : ℕ) : (n + 1) ∣ 6 → n ∣ 3 := by sorry", "theorem t (n : ℕ) : (n + 1) ∣ 6 → 3 ∣ n := by sorry"},
	} {
		cov := coverage.Check(c.statement, c.stub, nil)
		got := ""
		if f := ReorderDivisors(c.stub, &cov); f != nil {
			got = f.Stub
		}
		if got != c.want {
			t.Errorf("%q\n%s\ngot  %q\nwant %q\nconditions %+v", c.statement, c.stub, got, c.want, cov.Conditions)
		}
	}
}

// TestFormalizeReordersDivisors: the sampled stub writes n ∣ 6 → n ∣ 3 for
// "divisible by 6 … by 3" (the bundled model's answer, true and so not
// refuted); the pipeline swaps the arguments (no model call) and the stub
// then covers its statement.
func TestFormalizeReordersDivisors(t *testing.T) {
	const st = "If a natural number is divisible by 6, then it is divisible by 3."
	s := goodScript()
	s.backTranslate = llmtest.Reply{Text: st}
	s.formalize = []llmtest.Reply{{Text: "```lean\ntheorem dvd3 (n : Nat) : n ∣ 6 → n ∣ 3 := by sorry\n```"}}
	srv := llmtest.New(t, s.respond)
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: st, Name: "dvd3"}, nil)
	srv.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := "theorem dvd3 (n : Nat) : 6 ∣ n → 3 ∣ n := by sorry"
	if res.Stub != want || res.ConditionRepairs != 1 || len(res.Report.CoverageFindings()) != 0 ||
		!strings.Contains(strings.Join(res.Candidates[0].Notes, ";"), "wrote ∣ the other way round for 'divisible by 6'") {
		t.Errorf("stub %q, %d repairs, findings %v, notes %q", res.Stub, res.ConditionRepairs, res.Report.CoverageFindings(), res.Candidates[0].Notes)
	}
}

// TestAscribeAppliedTypes: a number type applied to a value, which the
// light elaborator finds, is written as a cast; a binder's whole type and
// an application to two arguments are left alone.
func TestAscribeAppliedTypes(t *testing.T) {
	decls := map[string]*library.Decl{
		"Real": {Name: "Real", Kind: library.KindStructure, Signature: "structure Real"},
	}
	env := elab.Env{
		Resolve: func(name string) []string {
			if _, ok := decls[name]; ok {
				return []string{name}
			}
			return nil
		},
		Lookup: func(full string) (*library.Decl, bool) { d, ok := decls[full]; return d, ok },
	}
	for _, c := range []struct{ stub, want string }{
		{"theorem t (x : ℝ) : Real (x ^ 2) = 0 := by sorry", "theorem t (x : ℝ) : (x ^ 2 : Real) = 0 := by sorry"},
		{"theorem t (n : ℕ) : Real n + 1 > 0 := by sorry", "theorem t (n : ℕ) : (n : Real) + 1 > 0 := by sorry"},
		{"theorem t (x : ℕ) : Real (x ^ 2) = Real x * Real x := by sorry", "theorem t (x : ℕ) : (x ^ 2 : Real) = (x : Real) * (x : Real) := by sorry"},
		{"theorem t (n : ℕ) : ℝ n = 1 := by sorry", "theorem t (n : ℕ) : (n : ℝ) = 1 := by sorry"},
		// a binder's whole type: no cast can assert what it meant
		{"theorem t (x : ℕ) (h : Real x) : 0 ≤ x := by sorry", ""},
		// two arguments
		{"theorem t (x y : ℝ) : Real x y = 0 := by sorry", ""},
	} {
		s, err := leansrc.ParseStub(c.stub, nil)
		if err != nil {
			t.Fatal(err)
		}
		fs := elab.Check(s, env)
		if len(fs) == 0 {
			t.Fatalf("%s: no finding", c.stub)
		}
		got := ""
		if f := AscribeAppliedTypes(s.Text, fs); f != nil {
			got = f.Stub
		}
		if got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s\nfindings %+v", c.stub, got, c.want, fs)
		}
	}
}

// TestFormalizeAscribesAppliedTypes: the sampled stub applies the type
// Nat to a value (the bundled model's `Real (x ^ 2) = 0`); the pipeline
// writes it as a cast (no model call) and the stub checks without a type
// finding.
func TestFormalizeAscribesAppliedTypes(t *testing.T) {
	const st = "For every natural number n, n squared plus one is positive."
	s := goodScript()
	s.backTranslate = llmtest.Reply{Text: st}
	s.formalize = []llmtest.Reply{{Text: "```lean\ntheorem sq_succ_pos (n : Nat) : Nat (n ^ 2) + 1 > 0 := by sorry\n```"}}
	srv := llmtest.New(t, s.respond)
	ws, err := library.Discover(filepath.Join("..", "testdata", "workspace"), nil)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := library.Load(context.Background(), ws, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checker := leanrepl.NewChecker(leanrepl.CheckerConfig{Names: names.New(testDecls), Library: func() *library.Library { return lib },
		Kinds: leanrepl.LibraryKinds(lib.Lookup, lib.ExportAlias), NoLean: "test"})
	pl, _ := newPipeline(t, srv, checker, Params{Samples: 1, NoContextSamples: -1}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: st, Name: "sq_succ_pos"}, nil)
	srv.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := "theorem sq_succ_pos (n : Nat) : (n ^ 2 : Nat) + 1 > 0 := by sorry"
	if res.Stub != want || res.TypeRepairs != 1 || len(res.Report.Types) != 0 ||
		!strings.Contains(strings.Join(res.Candidates[0].Notes, ";"), "wrote `Nat (n ^ 2)` as the cast `(n ^ 2 : Nat)`") {
		t.Errorf("stub %q, %d type repairs, findings %v, notes %q", res.Stub, res.TypeRepairs, res.Report.Types, res.Candidates[0].Notes)
	}
}

// TestWidenRanges: a range of the stub that stops before the upper end of
// the statement's "from A to B" is widened to include it.
func TestWidenRanges(t *testing.T) {
	const zero = "For every natural number n, twice the sum of the natural numbers from 0 to n equals n times (n + 1)."
	for _, c := range []struct{ statement, stub, want string }{
		{zero, "theorem t (n : ℕ) : 2 * ∑ i ∈ Finset.range n, i = n * (n + 1) := by sorry",
			"theorem t (n : ℕ) : 2 * ∑ i ∈ Finset.range (n + 1), i = n * (n + 1) := by sorry"},
		{"The sum of $k$ for $k$ from $1$ to $n$ is $n(n+1)/2$.", "theorem t (n : ℕ) : ∑ k in range n, k = n * (n + 1) / 2 := by sorry",
			"theorem t (n : ℕ) : ∑ k in Icc 1 n, k = n * (n + 1) / 2 := by sorry"},
		{"The sum of i from i = 1 to m of i is m(m+1)/2.", "theorem t (m : ℕ) : ∑ i ∈ Finset.range m, i = m * (m + 1) / 2 := by sorry",
			"theorem t (m : ℕ) : ∑ i ∈ Finset.Icc 1 m, i = m * (m + 1) / 2 := by sorry"},
		// the range already includes n, or ends at another bound, or the statement names no range
		{zero, "theorem t (n : ℕ) : 2 * ∑ i ∈ Finset.range (n + 1), i = n * (n + 1) := by sorry", ""},
		{zero, "theorem t (n m : ℕ) : 2 * ∑ i ∈ Finset.range m, i = n * (n + 1) := by sorry", ""},
		{"The sum of the first n odd numbers is n squared.", "theorem t (n : ℕ) : ∑ i ∈ Finset.range n, (2 * i + 1) = n ^ 2 := by sorry", ""},
	} {
		got := ""
		if f := WidenRanges(c.stub, c.statement); f != nil {
			got = f.Stub
		}
		if got != c.want {
			t.Errorf("%q\n%s\ngot  %q\nwant %q", c.statement, c.stub, got, c.want)
		}
	}
}

// TestAddConditionsBrokenByCounterexample: a comparison the coverage check
// counts as covered (the conclusion says "positive" of the product) is
// added for the variables a refuting counterexample gives a value that
// breaks it, and for no other; without a counterexample, nothing.
func TestAddConditionsBrokenByCounterexample(t *testing.T) {
	const statement = "The product of two positive real numbers is positive."
	for _, c := range []struct {
		stub, counterexample, want string
	}{
		{"theorem t (x y : ℝ) : 0 < x * y := by sorry", "x = 0, y = 0", "theorem t (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : 0 < x * y := by sorry"},
		{"theorem t (x y : ℝ) (hy : 0 < y) : 0 < x * y := by sorry", "x = -1/2, y = 1", "theorem t (x y : ℝ) (hy : 0 < y) (hx : 0 < x) : 0 < x * y := by sorry"},
		{"theorem t (x y : ℝ) : 0 < x * y := by sorry", "", ""},
	} {
		parsed, err := leanrepl.Gate(c.stub)
		if err != nil {
			t.Fatal(err)
		}
		cov := coverage.Check(statement, c.stub, nil)
		got := ""
		if fixes := AddOmittedConditions(parsed, &cov, nil, counterexampleValues(c.counterexample)); len(fixes) > 0 {
			got = fixes[0].Stub
		}
		if got != c.want {
			t.Errorf("%s with %q:\ngot  %q\nwant %q", c.stub, c.counterexample, got, c.want)
		}
	}
}

// TestAddConditionsListedVariables: "positive real numbers a and b" says
// it of a and b ("a" is no article there); the counterexample breaks it on
// b, the one the stub left unstated.
func TestAddConditionsListedVariables(t *testing.T) {
	const statement = "For positive real numbers a and b, the square root of a times b is at most (a + b) / 2."
	const stub = "theorem t (a b : ℝ) (h : 0 < a) : |√a * √b| ≤ (a + b) / 2 := by sorry"
	parsed, err := leanrepl.Gate(stub)
	if err != nil {
		t.Fatal(err)
	}
	cov := coverage.Check(statement, stub, nil)
	fixes := AddOmittedConditions(parsed, &cov, nil, counterexampleValues("a = 1, b = -2"))
	want := "theorem t (a b : ℝ) (h : 0 < a) (hb : 0 < b) : |√a * √b| ≤ (a + b) / 2 := by sorry"
	if len(fixes) == 0 || fixes[0].Stub != want {
		t.Errorf("fixes %+v, want %q", fixes, want)
	}
}

// TestSubjectConcepts: an adjective of the statement's subject that no
// sub-query names becomes a concept when the library has a definition of
// its capitalized word at the root; the omission repair then states it of
// the subject's variables ("two even integers" dropped by a stub).
func TestSubjectConcepts(t *testing.T) {
	decls := map[string]*library.Decl{"Even": {Name: "Even", Kind: library.KindDef}, "Real": {Name: "Real", Kind: library.KindDef},
		"even_iff": {Name: "even_iff", Kind: library.KindTheorem}}
	lookup := func(n string) (*library.Decl, bool) { d, ok := decls[n]; return d, ok }
	for _, c := range []struct {
		statement string
		given     []coverage.Concept
		want      []string // the phrases added
	}{
		{"The difference of two even integers is even.", nil, []string{"even"}},
		{"The difference of two even integers is even.", []coverage.Concept{{Phrase: "even integer", Names: []string{"Even"}}}, nil},
		// no such definition (Positive is only a namespace), a number noun
		{"The product of two positive real numbers is positive.", nil, nil},
		{"The cube of an odd integer is odd.", nil, nil},
	} {
		got := subjectConcepts(c.statement, c.given, lookup)[len(c.given):]
		var phrases []string
		for _, g := range got {
			phrases = append(phrases, g.Phrase)
		}
		if !slices.Equal(phrases, c.want) {
			t.Errorf("%q: added %q, want %q", c.statement, phrases, c.want)
		}
	}
	stub := "theorem t (n m : ℤ) : Even (n - m) := by sorry"
	parsed, err := leanrepl.Gate(stub)
	if err != nil {
		t.Fatal(err)
	}
	statement := "The difference of two even integers is even."
	cov := coverage.Check(statement, stub, subjectConcepts(statement, nil, lookup))
	fixes := AddOmittedConditions(parsed, &cov, func(n string) bool { _, ok := lookup(n); return ok }, nil)
	if want := "theorem t (n m : ℤ) (hn : Even n) (hm : Even m) : Even (n - m) := by sorry"; len(fixes) == 0 || fixes[0].Stub != want {
		t.Errorf("repair of %s: %v, want %s", stub, fixes, want)
	}
}

// TestAssumeClause: a stub whose conclusion is the condition "whose …"
// assumes is restated with that condition as a hypothesis and the
// statement's claim as its conclusion; anything less certain is left.
func TestAssumeClause(t *testing.T) {
	has := func(n string) bool { return n == "Even" || n == "Odd" || n == "Nat.Prime" }
	const zero = "A real number whose square is zero is zero."
	for _, c := range []struct{ statement, stub, want string }{
		{zero, "theorem t (x : ℝ) : x ^ 2 = 0 := by sorry", "theorem t (x : ℝ) (hx : x ^ 2 = 0) : x = 0 := by sorry"},
		{zero, "theorem t (x : ℝ) : (x ^ 2 : Real) = 0 := by sorry", "theorem t (x : ℝ) (hx : (x ^ 2 : Real) = 0) : x = 0 := by sorry"},
		{"An integer whose square is even is even.", "theorem t (n : ℤ) (hn : n = n) : Even (n ^ 2) := by sorry",
			"theorem t (n : ℤ) (hn : n = n) (hn' : Even (n ^ 2)) : Even n := by sorry"},
		{"Every natural number whose square is divisible by 4 is divisible by 2.", "theorem t (n : ℕ) : 4 ∣ n * n := by sorry",
			"theorem t (n : ℕ) (hn : 4 ∣ n * n) : 2 ∣ n := by sorry"},
		// already the claim; two variables of the noun's type; a claim of no known shape; no such sentence
		{zero, "theorem t (x : ℝ) : x = 0 := by sorry", ""},
		{zero, "theorem t (x y : ℝ) : x ^ 2 = 0 := by sorry", ""},
		{"A real number whose square is zero is small.", "theorem t (x : ℝ) : x ^ 2 = 0 := by sorry", ""},
		{"The square of a real number is zero.", "theorem t (x : ℝ) : x ^ 2 = 0 := by sorry", ""},
		// a conclusion with its own implication, or about no variable of the noun
		{zero, "theorem t (x : ℝ) : x ^ 2 = 0 → x = 0 := by sorry", ""},
		{"Any integer whose square is even is itself even.", "theorem t (n : ℤ) : Even (n ^ 2) := by sorry", "theorem t (n : ℤ) (hn : Even (n ^ 2)) : Even n := by sorry"},
		{"A real number whose square is even is even.", "theorem t (x : ℝ) : Even (x ^ 2) := by sorry", ""},
		// a conclusion about something else than the clause's quantity stays
		{zero, "theorem t (x : ℝ) : x ^ 3 = 0 := by sorry", ""},
		{"An integer whose cube is odd is odd.", "theorem t (n : ℤ) : Odd (n ^ 3) := by sorry", "theorem t (n : ℤ) (hn : Odd (n ^ 3)) : Odd n := by sorry"},
	} {
		parsed, err := leansrc.ParseStub(c.stub, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if f := AssumeClause(parsed, c.statement, has); f != nil {
			got = f.Stub
		}
		if got != c.want {
			t.Errorf("%q\n%s\ngot  %q\nwant %q", c.statement, c.stub, got, c.want)
		}
	}
}

// TestFormalizeRepairsRefuted: the sampled stub (the bundled model's
// answer) is refuted, and the pipeline mends it with a deterministic
// repair (no model call), after which it is no longer refuted: a sum over
// range n for "from 0 to n" (refuted at n = 1) gets the range that includes
// n; the condition of "whose square is zero" stated as the conclusion
// (refuted at x = 1) becomes the hypothesis, and the claim the conclusion.
func TestFormalizeRepairsRefuted(t *testing.T) {
	for _, tc := range []struct{ statement, answer, want, note string }{
		{"For every natural number n, twice the sum of the natural numbers from 0 to n equals n times (n + 1).",
			"theorem sum_id (n : Nat) : 2 * ∑ i ∈ Finset.range n, i = n * (n + 1) := by sorry",
			"theorem sum_id (n : Nat) : 2 * ∑ i ∈ Finset.range (n + 1), i = n * (n + 1) := by sorry",
			"wrote the range 'from 0 to n' to include n"},
		{"A real number whose square is zero is zero.",
			"theorem sq_zero (x : ℝ) : x ^ 2 = 0 := by sorry",
			"theorem sq_zero (x : ℝ) (hx : x ^ 2 = 0) : x = 0 := by sorry",
			"assumed 'square is zero' as (hx : x ^ 2 = 0)"},
	} {
		s := goodScript()
		s.backTranslate = llmtest.Reply{Text: tc.statement}
		s.formalize = []llmtest.Reply{{Text: "```lean\n" + tc.answer + "\n```"}}
		srv := llmtest.New(t, s.respond)
		pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
		res, err := pl.Formalize(context.Background(), Request{Statement: tc.statement, Name: strings.Fields(tc.answer)[1]}, nil)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Stub != tc.want || res.Report.Refuted() || res.ConditionRepairs != 1 ||
			!strings.Contains(strings.Join(res.Candidates[0].Notes, ";"), tc.note) {
			t.Errorf("%s\nstub %q, refuted %v, %d repairs, notes %q", tc.statement, res.Stub, res.Report.Refuted(), res.ConditionRepairs, res.Candidates[0].Notes)
		}
	}
}
