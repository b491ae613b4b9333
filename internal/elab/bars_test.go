package elab

import (
	"strings"
	"testing"
)

// TestStrayBars: a bar with a space on both sides outside braces is a
// syntax error; |x|, a set-builder's bar and match alternatives are not.
func TestStrayBars(t *testing.T) {
	for _, c := range []struct{ stub, want string }{
		{"theorem t (n : ℕ) (h : 3 | n) : 3 ∣ n ^ 2 := by sorry", "|"},
		{"theorem t (x y : ℝ* | h (0 < x) (0 < y) | x > 0) : 0 < x * y := by sorry", "| |"},
		{"theorem t (x : ℝ) : | x | ≥ 0 := by sorry", "| |"},
		{"theorem t (x : ℝ) : 0 ≤ | x | := by sorry", "| |"},
		{"theorem t (x : ℝ) : |x| ≥ 0 := by sorry", ""},
		{"theorem t (x y : ℝ) : |x - y| ≤ |x| + |y| := by sorry", ""},
		{"theorem t : {n : ℕ | n < 3}.Finite := by sorry", ""},
		{"theorem t (s : Set ℕ) (h : s = {n | Even n}) : 0 ∈ s := by sorry", ""},
		{"theorem t (f : ℕ → ℕ) (h : f = fun | 0 => 1 | _ => 0) : f 0 = 1 := by sorry", ""},
	} {
		got := ""
		for _, f := range check(t, c.stub, testEnv()) {
			if f.Name == "|" {
				if got != "" {
					got += " "
				}
				got += "|"
			}
		}
		if got != c.want {
			t.Errorf("%s: stray bars %q, want %q", c.stub, got, c.want)
		}
	}
}

// TestBigOpOverType: ∑ or ∏ over a number type has no Fintype instance;
// over a Finset, a Fin n or a variable's type it is left alone.
func TestBigOpOverType(t *testing.T) {
	for _, c := range []struct{ stub, want string }{
		{"theorem t (z : ℂ) : ∑ k : ℤ, k * z ^ k ≠ 0 := by sorry", "ℤ"},
		{"theorem t : ∏ n : ℕ, (1 : ℝ) = 1 := by sorry", "ℕ"},
		{"theorem t (n : ℕ) : ∑ k ∈ Finset.range n, k = n * (n - 1) / 2 := by sorry", ""},
		{"theorem t (n : ℕ) : ∑ k : Fin n, (k : ℕ) = n * (n - 1) / 2 := by sorry", ""},
		{"theorem t (ι : Type) [Fintype ι] (f : ι → ℕ) : ∑ i : ι, f i = ∑ i : ι, f i := by sorry", ""},
	} {
		got := ""
		for _, f := range check(t, c.stub, testEnv()) {
			if strings.HasPrefix(f.Message, "failed to synthesize `Fintype") {
				got += c.stub[f.Start:f.End]
			}
		}
		if got != c.want {
			t.Errorf("%s: over %q, want %q", c.stub, got, c.want)
		}
	}
}

// TestNumberAscribedAProposition: `(n : 4 ∣ n)` ascribes a proposition to
// a number; a cast and a proof's ascription are left alone.
func TestNumberAscribedAProposition(t *testing.T) {
	for _, c := range []struct {
		stub string
		want bool
	}{
		{"theorem t (n : ℕ) : Even (n : 4 ∣ n) := by sorry", true},
		{"theorem t (x : ℝ) (h : 0 < x) : (x : 0 < x) = x := by sorry", true},
		{"theorem t (n : ℕ) : ((n : ℤ) : ℝ) ≥ 0 := by sorry", false},
		{"theorem t (n : ℕ) (h : 4 ∣ n) : (h : 4 ∣ n) = h := by sorry", false},
	} {
		got := false
		for _, f := range check(t, c.stub, testEnv()) {
			got = got || strings.HasPrefix(f.Message, "type mismatch: `")
		}
		if got != c.want {
			t.Errorf("%s: flagged %v, want %v (%v)", c.stub, got, c.want, check(t, c.stub, testEnv()))
		}
	}
}

// TestTypeless: a binder with no type that the statement never uses
// leaves its type unknown; one the statement uses is inferred from it.
func TestTypeless(t *testing.T) {
	for _, c := range []struct {
		stub string
		want string
	}{
		{"theorem t (Group G) : 1 = 1 := by sorry", "Group"},
		{"theorem t (f : ℂ → ℂ) (OmegaCompletePartialOrder α) : f = f := by sorry", "OmegaCompletePartialOrder"},
		{"theorem t (x) (n : ℕ) : n = n := by sorry", "x"},
		{"theorem t (x) : x + 0 = x := by sorry", ""},
		{"theorem t {α} (a : α) : a = a := by sorry", ""},
		{"theorem t (n) (h : n.Prime) : True := by sorry", ""},
	} {
		got := ""
		for _, f := range check(t, c.stub, testEnv()) {
			if strings.HasPrefix(f.Message, "failed to infer binder type") {
				got = f.Name
			}
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.stub, got, c.want)
		}
	}
}

// TestQuantifierIn: Lean 3's `∀ x in s` does not parse in Lean 4; `∀ x ∈ s`
// and Mathlib's deprecated `∑ x in s` do.
func TestQuantifierIn(t *testing.T) {
	for _, c := range []struct{ stub, want string }{
		{"theorem t (n : ℕ) : ∀ z in Finset.range n, z < n := by sorry", "in"},
		{"theorem t (s : Set ℝ) (h : ∃ x y in s, x < y) : True := by sorry", "in"},
		{"theorem t (n : ℕ) : ∀ z ∈ Finset.range n, z < n := by sorry", ""},
		{"theorem t (n : ℕ) : ∑ i in Finset.range n, i = n * (n - 1) / 2 := by sorry", ""},
		{"theorem t (n : ℕ) : ∀ m : ℕ, m < n → m ≤ n := by sorry", ""},
	} {
		got := ""
		for _, f := range check(t, c.stub, testEnv()) {
			if f.Name == "in" {
				got += "in"
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.stub, got, c.want)
		}
	}
}

// TestInactiveNotation: the library's notation that the header leaves out
// of force — a postfix symbol after a term, a token glued from several
// pieces, an identifier-like symbol bound nowhere — and near misses: the
// constant written out, the symbol bound by the stub, core's prefix `!`.
func TestInactiveNotation(t *testing.T) {
	env := notationEnv()
	inactive := map[string][2]string{"!": {"Nat.factorial", "Nat"}, "π": {"Real.pi", "Real"}, "ℝ≥0∞": {"ENNReal", "ENNReal"}, "ᵀ": {"Matrix.transpose", "Matrix"}, "[X]": {"Polynomial", "Polynomial"}}
	env.Postfix = func(atom string) (string, bool) { return "Polynomial", atom == "[X]" }
	env.Inactive = func(atom string) ([]string, []string) {
		if x, ok := inactive[atom]; ok {
			return []string{x[0]}, []string{x[1]}
		}
		return nil, nil
	}
	for _, c := range []struct{ stub, want string }{
		{"theorem t (n : ℕ) : 0 < n ! := by sorry", "!"},
		{"theorem t (n : ℕ) : (n + 1)! = (n + 1) * n ! := by sorry", "! !"},
		{"theorem t (x : ℝ≥0∞) : x = x := by sorry", "ℝ≥0∞"},
		{"theorem t (x : ℝ) (h : x < π) : x < 4 := by sorry", "π"},
		{"theorem t (n : ℕ) : 0 < Nat.factorial n := by sorry", ""},
		{"theorem t (π : ℝ) (x : ℝ) (h : x < π) : x < 4 := by sorry", ""},
		{"theorem t (x : ℝ) : ∀ π : ℝ, x < π → x < π + 1 := by sorry", ""},
		{"theorem t (b : Bool) (n : ℕ) : (!b) = b → n = n := by sorry", ""},
		{"theorem t (x : ℝ≥0) : x = x := by sorry", ""},
		// a bracketed postfix notation glued to its operand; core's xs[i]!
		{"theorem t (p : ℝ[X]) (q : Polynomial ℝ) : p = q := by sorry", "[X]"},
		{"theorem t (l : List ℕ) (v : Fin 3 → ℕ) : l[0]! = v 0 := by sorry", ""},
	} {
		var got []string
		for _, f := range check(t, c.stub, env) {
			got = append(got, f.Name)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: got %q, want %q", c.stub, strings.Join(got, " "), c.want)
		}
	}
}
