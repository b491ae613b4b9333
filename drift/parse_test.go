package drift

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

func TestParseBoxed(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		dropped int
	}{
		{"prose around", "Sure! Here:\n\\boxed{A prime. Lean: `Nat.Prime p`}\nand \\boxed{B} done.", []string{"A prime. Lean: `Nat.Prime p`", "B"}, 0},
		{"nested braces", `\boxed{The set {x | x > 0}. Lean: ` + "`{x : ℝ | 0 < x}`" + `}`, []string{"The set {x | x > 0}. Lean: `{x : ℝ | 0 < x}`"}, 0},
		{"escaped braces", `\boxed{a \{ b}`, []string{`a \{ b`}, 0},
		{"unbalanced last", `\boxed{ok} \boxed{never {closed}`, []string{"ok"}, 1},
		{"unbalanced then good", `\boxed{open \boxed{fine}`, []string{"fine"}, 1},
		{"empty boxes", `\boxed{} \boxed{  }`, nil, 0},
		{"none", "I would use primes and divisibility.", nil, 0},
		{"non-UTF-8", "\\boxed{\xff\xfe}", []string{"\xff\xfe"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, dropped := ParseBoxed(tc.in)
			if !reflect.DeepEqual(got, tc.want) || dropped != tc.dropped {
				t.Fatalf("got %q dropped %d, want %q dropped %d", got, dropped, tc.want, tc.dropped)
			}
		})
	}
}

func TestParseDecomposition(t *testing.T) {
	subs, _, err := ParseDecomposition("\\boxed{A natural number p is prime. Lean: `Nat.Prime p`}\n\\boxed{A natural number p is prime. Lean: `Nat.Prime p`}\n\\boxed{Odd numbers.}")
	if err != nil {
		t.Fatal(err)
	}
	want := []retrieval.SubQuery{{Informal: "A natural number p is prime.", Formal: "Nat.Prime p"}, {Informal: "Odd numbers."}}
	if !reflect.DeepEqual(subs, want) {
		t.Fatalf("got %+v", subs)
	}
	for _, in := range []string{"no boxes at all", `\boxed{}`, `\boxed{unclosed`} {
		if _, _, err := ParseDecomposition(in); !errors.Is(err, ErrNoBoxed) {
			t.Errorf("%q: want ErrNoBoxed, got %v", in, err)
		}
	}
}

// The few-shot examples must themselves parse into sub-queries with a Lean
// form each.
func TestDecomposeExamplesParse(t *testing.T) {
	for _, ex := range decomposeExamples {
		subs, dropped, err := ParseDecomposition(ex.answer)
		if err != nil || dropped != 0 || len(subs) < 3 {
			t.Fatalf("%q: %v %d %d", ex.statement, err, dropped, len(subs))
		}
		for _, s := range subs {
			if s.Formal == "" || s.Informal == "" || strings.HasSuffix(s.Informal, "?") {
				t.Errorf("example sub-query %+v lacks a sentence or a Lean form", s)
			}
		}
	}
	if len(decomposeExamples) < 4 {
		t.Fatal("want at least 4 few-shot examples")
	}
}

func TestParseDependencies(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		err  error
	}{
		{"json", `{"dependency": ["Nat.Prime", "ZMod"]}`, []string{"Nat.Prime", "ZMod"}, nil},
		{"fenced with prose", "Here you go:\n```json\n{\"dependency\": [\"Nat.Prime\", \"Nat.Prime\", 3]}\n```\nHope this helps.", []string{"Nat.Prime"}, nil},
		{"string value", `{"dependency": "Nat.Prime, Finset.sum"}`, []string{"Nat.Prime", "Finset.sum"}, nil},
		{"no usage json", `{"dependency": "No usage"}`, nil, nil},
		{"no usage text", `No usage.`, nil, nil},
		{"empty list", `{"dependency": []}`, nil, nil},
		{"bare lines", "- Nat.Prime\n- `Finset.range`\n* IsCompact", []string{"Nat.Prime", "Finset.range", "IsCompact"}, nil},
		{"bare commas", "Nat.Prime, Mm.Odd", []string{"Nat.Prime", "Mm.Odd"}, nil},
		{"json array", `["Nat.Prime"]`, []string{"Nat.Prime"}, nil},
		{"prose", "I think you would need the notion of a prime number and divisibility.", nil, ErrNoDependencyList},
		{"plain words", "primes divisibility", nil, ErrNoDependencyList},
		{"empty", "", nil, ErrNoDependencyList},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDependencies(tc.in)
			if !errors.Is(err, tc.err) || !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Fatalf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestCheckNames(t *testing.T) {
	ix := names.New([]*library.Decl{{Name: "Mm.Prime"}, {Name: "Mm.Prime.two_le"}, {Name: "Minimath.Divides"}, {Name: "Mm.Coprime"}})
	got, rate := CheckNames(ix, []string{"Mm.Prime", "Divides", "Coprim", "Nat.IsPrimeNumber"})
	want := []ProposedName{
		{Name: "Mm.Prime", Check: NameExact, Resolved: []string{"Mm.Prime"}},
		{Name: "Divides", Check: NameSuffix, Resolved: []string{"Minimath.Divides"}},
		{Name: "Coprim", Check: NamePartial, Resolved: []string{"Mm.Coprime"}},
		{Name: "Nat.IsPrimeNumber", Check: NameMissing, Resolved: []string{}},
	}
	if !reflect.DeepEqual(got, want) || rate != 0.25 {
		t.Fatalf("got %+v rate %v", got, rate)
	}
}

func TestNormalizeStub(t *testing.T) {
	const want = "theorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry"
	tests := []struct {
		name  string
		in    string
		want  string
		notes []string
		err   error
	}{
		{"clean", "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry\n```", want, nil, nil},
		{"lean4 fence, prose, := sorry", "Here is it:\n```lean4\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := sorry\n```\nDone.", want, nil, nil},
		{"lemma, wrong name", "```lean\nlemma foo {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry\n```", want, []string{"lemma written as theorem", "renamed foo to odd_of_prime"}, nil},
		{"proof instead of sorry", "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by\n  rcases hp with ⟨h1, h2⟩\n  omega\n```", want, []string{"replaced the proof by sorry"}, nil},
		{"term proof with :=", "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p :=\n  (fun x => x) (Mm.Prime.odd hp h)\n```", want, []string{"replaced the proof by sorry"}, nil},
		{"imports, opens, docstring, attribute", "```lean\nimport Mathlib\nopen Mm\n\n/-- doc with := inside -/\n@[simp] theorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry\n```", want, []string{"moved `open Mm` to the header", "dropped `@[simp]`"}, nil},
		{"no statement proof", "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p\n```", want, nil, nil},
		{"example", "```lean\nexample {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry\n```", want, []string{"example written as theorem"}, nil},
		{"no code block but theorem", "The answer is\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry", want, []string{"the answer had no code block"}, nil},
		{"no code block", "I cannot formalize this statement.", "", nil, ErrNoCode},
		{"two theorems", "```lean\ntheorem a : True := by sorry\n\ntheorem b : True := by sorry\n```", "", nil, ErrManyTheorems},
		{"two blocks", "```lean\ntheorem a : True := by sorry\n```\nor\n```lean\ntheorem b : True := by sorry\n```", "", nil, ErrManyTheorems},
		{"helper def", "```lean\ndef helper := 3\ntheorem a : helper = 3 := by sorry\n```", "", nil, ErrNoTheorem},
		{"#eval smuggled", "```lean\ntheorem a : True := by sorry\n#eval IO.println \"hi\"\n```", "", nil, ErrForbidden},
		{"run_cmd smuggled", "```lean\nrun_cmd Lean.logInfo \"x\"\ntheorem a : True := by sorry\n```", "", nil, ErrForbidden},
		{"set_option", "```lean\nset_option maxHeartbeats 0 in\ntheorem a : True := by sorry\n```", "", nil, ErrForbidden},
		{"unsafe def", "```lean\nunsafe def x : Nat := 1\ntheorem a : True := by sorry\n```", "", nil, ErrForbidden},
		{"keyword in an attribute's string", "```lean\n@[to_additive \"an example\"] theorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry\n```", want, []string{"dropped `@[to_additive \"an example\"]`"}, nil},
		{"identifier containing a keyword", "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by\n  exact unsafe_elab_thing\n```", want, []string{"replaced the proof by sorry"}, nil},
		{"no type", "```lean\ntheorem odd_of_prime := by sorry\n```", "", nil, ErrEmptyStatement},
		{"only prose in block", "```lean\nThis is not Lean.\n```", "", nil, ErrNoTheorem},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := NormalizeStub(tc.in, "odd_of_prime")
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("want %v, got %v (%+v)", tc.err, err, st)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.Text != tc.want {
				t.Fatalf("got  %q\nwant %q", st.Text, tc.want)
			}
			if !reflect.DeepEqual(st.Notes, tc.notes) {
				t.Fatalf("notes %q, want %q", st.Notes, tc.notes)
			}
		})
	}
}

func TestNormalizeStubKeepsModelName(t *testing.T) {
	st, err := NormalizeStub("```lean\ntheorem «my thm» (n : Nat) : n = n := rfl\n```", "")
	if err != nil || st.Name != "«my thm»" || st.Text != "theorem «my thm» (n : Nat) : n = n := by sorry" {
		t.Fatalf("%+v %v", st, err)
	}
}

func FuzzNormalizeStub(f *testing.F) {
	f.Add("```lean\ntheorem a (x : Nat) : x = x := by sorry\n```")
	f.Add("theorem a : (b := 1) := by\n | 0 => 1")
	f.Add("```lean\n/- /- -/ theorem x : T")
	f.Fuzz(func(t *testing.T, s string) {
		st, err := NormalizeStub(s, "n")
		if err == nil && (!strings.HasPrefix(st.Text, "theorem n ") || !strings.HasSuffix(st.Text, ":= by sorry")) {
			t.Fatalf("bad stub %q", st.Text)
		}
		ParseBoxed(s)
		ParseDependencies(s)
	})
}

// hostileAnswers are maximal-size answers (the client's 256 KiB cap) shaped
// to trigger quadratic behaviour in naive parsers.
func hostileAnswers() map[string]string {
	const n = 256 << 10
	return map[string]string{
		"many lines":       "```lean\ntheorem a : True" + strings.Repeat("\n ", n/2) + "\n```",
		"unclosed boxes":   strings.Repeat(`\boxed{`, n/7),
		"nested brackets":  "```lean\ntheorem a : " + strings.Repeat("(", n/2) + "\n```",
		"many fences":      strings.Repeat("```lean\nx\n```\n", n/14),
		"comment openers":  "```lean\n" + strings.Repeat("/-", n/2) + "\n```",
		"many bare tokens": strings.Repeat("Nat.Prime, ", n/11),
	}
}

func TestHostileAnswers(t *testing.T) {
	for name, in := range hostileAnswers() {
		t.Run(name, func(t *testing.T) {
			NormalizeStub(in, "x")
			if boxes, dropped := ParseBoxed(in); len(boxes)+dropped > maxBoxes {
				t.Fatalf("%d boxes read", len(boxes)+dropped)
			}
			if names, _ := ParseDependencies(in); len(names) > maxProposed {
				t.Fatalf("%d names", len(names))
			}
		})
	}
}

func BenchmarkHostileAnswers(b *testing.B) {
	for name, in := range hostileAnswers() {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				NormalizeStub(in, "x")
				ParseBoxed(in)
				ParseDependencies(in)
			}
		})
	}
}
