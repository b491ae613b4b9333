package stmtgrammar

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden grammars")

// vocabularies of the golden files: the core alone, an elementary number
// theory statement's premises, and names that need escaping or are left
// out.
var vocabularies = map[string][]string{
	"core":       nil,
	"even_add":   {"Even", "Even.add", "Int.even_add", "Int.emod_two_eq_zero_or_one", "Odd"},
	"edge_names": {"Nat.Prime", "foo.«bar baz»", "x", "Real.sqrt", "Nat.Prime", "ℝ≥0", "a'b", "1bad", "Finset.sum_range_succ"},
}

func TestLarkGolden(t *testing.T) {
	for name, names := range vocabularies {
		t.Run(name, func(t *testing.T) {
			got := New(names).Lark()
			path := filepath.Join("testdata", name+".lark")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("grammar of %s differs from %s (go test -update rewrites it):\n%s", name, path, got)
			}
		})
	}
}

func TestVocabulary(t *testing.T) {
	v := New(vocabularies["edge_names"])
	for _, n := range []string{"Nat.Prime", "Real.sqrt", "ℕ", "Type*", "a'b", "x"} {
		if !v.Has(n) {
			t.Errorf("%s missing", n)
		}
	}
	for _, n := range []string{"foo.«bar baz»", "1bad", "ℝ≥0"} {
		if v.Has(n) {
			t.Errorf("%s should be left out (not a plain name)", n)
		}
	}
	if got := strings.Count(strings.Join(v.Names, ","), "Nat.Prime"); got != 1 {
		t.Errorf("Nat.Prime %d times", got)
	}
	if !v.fields["Prime"] || !v.fields["sum_range_succ"] {
		t.Errorf("fields %v", v.Fields)
	}
}

func TestCheck(t *testing.T) {
	v := New([]string{"Even", "Nat.Prime", "Finset.range", "Finset.card", "Set.Icc"})
	keeps := []string{
		`{"name": "even_add", "binders": ["(a b : ℤ)", "(ha : Even a)", "(hb : Even b)"], "conclusion": "Even (a + b)"}`,
		`{"name":"sq_nonneg","binders":["(x : ℝ)"],"conclusion":"0 ≤ x ^ 2"}`,
		`{"name":"p","binders":["(n : ℕ)","(h₁ : 1 < n)"],"conclusion":"∃ p, p.Prime ∧ Nat.Prime p ∧ p ∣ n"}`,
		`{"name":"s","binders":[],"conclusion":"∀ n : ℕ, ∑ i in Finset.range n, (2 * i + 1) = n ^ 2"}`,
		`{"name":"s","binders":["{α : Type*}"],"conclusion":"{x : ℕ | x > 2} ⊆ Set.Icc 0 1 ∧ a ≡ b [MOD n] ∧ (Finset.range n).card = n ∧ x⁻¹ ≠ 0 ∧ n ! > 0"}`,
		`{"name":"s","binders":[],"conclusion":"(fun x => x ^ 2) 3 = 9 ∧ |x| ≤ 1 ∧ ⌊x⌋ = 1 ∧ ⟨a, b⟩ = c"}`,
		`{"name":"s","binders":["(x : ℝ)"],"conclusion":"x = 898"}`,
		`{"name":"s","binders":["(x1 x' : ℝ)", "(hx1 : 0 < x1)"],"conclusion":"x1 ≤ x'"}`,
		`{"name":"s","binders":["(p : ℕ)"],"conclusion":"Nat.Prime 7"}`,
	}
	for _, a := range keeps {
		if p := v.Check(a); len(p) > 0 {
			t.Errorf("Check(%s) = %q, want nothing", a, p)
		}
	}
	departs := map[string]string{
		`{"name":"s","binders":[],"conclusion":"\\sum_{i=1}^n i"}`:               "LaTeX",
		`{"name":"s","binders":[],"conclusion":"$x$ > 0"}`:                       "LaTeX",
		`{"name":"s","binders":["(a : ℕ)"],"conclusion":"coprime a b"}`:          "`coprime`, outside the vocabulary",
		`{"name":"s","binders":["[Fintype α]"],"conclusion":"a = a"}`:            "`Fintype`, outside the vocabulary",
		`{"name":"s","binders":["a : ℕ"],"conclusion":"a = a"}`:                  "not bracketed",
		`{"name":"s","binders":[],"conclusion":"∫ x, f x = 0"}`:                  "`∫`, outside the grammar",
		"```json\n{\"name\":\"s\",\"binders\":[],\"conclusion\":\"a = a\"}\n```": "not the grammar's one-line JSON",
		`{"name":"s","binders":[],"conclusion":"a = a","theorem":"x"}`:           "not the grammar's one-line JSON",
		`theorem s : a = a := by sorry`:                                          "not the grammar's one-line JSON",
		`{"name":"s","binders":["(a b c : ℝ)"],"conclusion":"a * cb = 1"}`:       "`cb`, outside the vocabulary",
		`{"name":"s","binders":["(x : ℝ)"],"conclusion":"x < pi"}`:               "`pi`, outside the vocabulary",
		`{"name":"s","binders":["(x : ℝ)"],"conclusion":"898"}`:                  "is a number, not a proposition",
		`{"name":"s","binders":[],"conclusion":" -0.5 "}`:                        "is a number, not a proposition",
	}
	for a, want := range departs {
		p := v.Check(a)
		if !strings.Contains(strings.Join(p, "; "), want) {
			t.Errorf("Check(%s) = %q, want %q", a, p, want)
		}
	}
}

func TestCheckEscapes(t *testing.T) {
	v := New(nil)
	for a, want := range map[string]string{
		`{"name":"s","binders":[],"conclusion":"a \u003e b"}`:       "JSON escape",
		`{"name":"s","binders":[],"conclusion":"\\frac{a}{b} = c"}`: "LaTeX",
		"```lean\ntheorem s : \\sum i = 0 := by sorry\n```":         "LaTeX",
		`{"name":"s","binders":["(n : ℕ)"],"conclusion":"n ≥ 0"}`:   "",
	} {
		got := strings.Join(v.Check(a), "; ")
		if want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("Check(%s) = %q, want %q", a, got, want)
		}
	}
}
