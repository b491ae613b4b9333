package falsify

import (
	"context"
	"testing"
)

// TestExplainGolden: a refutation shows the values that make the statement
// false (testdata/explain.txt → explain.golden; -update rewrites it).
func TestExplainGolden(t *testing.T) {
	golden(t, "explain.txt", "explain.golden", func(h string, r Result) string {
		s := r.Verdict.String()
		if r.Counterexample != "" {
			s += ": " + r.Counterexample
		}
		if r.Verdict != Refuted {
			return s + " " + r.Reason
		}
		if r.Explanation == "" {
			t.Errorf("%s: refuted with no explanation", h)
		}
		return s + "\n  " + r.Explanation
	})
}

// TestMiniF2FClosedExplained: the statement, to the letter.
func TestMiniF2FClosedExplained(t *testing.T) {
	r := Falsify(context.Background(), stmt(t, ": Real.sqrt 1000000 - 1000000^(1/3) = 900", nil), nil, Options{})
	const want = "1000000^(1/3) = 1 (1/3 is ℕ division: 0) · left side 999 ≠ 900"
	if r.Verdict != Refuted || r.Explanation != want {
		t.Fatalf("got %v %q; want refuted %q", r.Verdict, r.Explanation, want)
	}
}

// knownNames is a library that knows some names and no definition.
type knownNames map[string]bool

func (k knownNames) Resolve(name string) []string {
	if k[name] {
		return []string{name}
	}
	return nil
}
func (knownNames) Definition(string) (Definition, bool) { return Definition{}, false }
func (knownNames) Notation(string) (Notation, bool)     { return Notation{}, false }

// TestUndecidedKnownName: a name the library knows but the fragment does
// not is "outside the fragment", never "unknown name".
func TestUndecidedKnownName(t *testing.T) {
	lib := knownNames{"Group": true}
	for _, c := range []struct{ header, reason string }{
		{"(G : Type) [Group G] (n : ℕ) : n = n", "outside the fragment: Group"},
		{"(n : ℕ) (h : Frob n) : n = n", "unknown name Frob"},
		// Mathlib's ℝ≥0 written without its notation is read as ℝ ≥ 0: ℝ is no unknown name
		{"(a b : ℝ≥0) : a * b ≤ (a + b) / 2", "outside the fragment: ℝ"},
	} {
		r := Falsify(context.Background(), stmt(t, c.header, lib), lib, Options{})
		if r.Verdict != Unknown || r.Reason != c.reason {
			t.Errorf("%s: %v %q; want unknown %q", c.header, r.Verdict, r.Reason, c.reason)
		}
	}
}
