package leanrepl

import (
	"context"
	"strings"
	"testing"
)

// TestVerdictValues: a refuted stub's verdict and finding show the values
// that make it false (golden strings), and an undecided falsifier names
// what is outside its fragment.
func TestVerdictValues(t *testing.T) {
	c := NewChecker(CheckerConfig{})
	for _, tc := range []struct{ stub, verdict, finding string }{
		{"theorem t : Real.sqrt 1000000 - 1000000^(1/3) = 900 := by sorry",
			"refuted: 1000000^(1/3) = 1 (1/3 is ℕ division: 0) · left side 999 ≠ 900 · names not checked · Lean not run",
			"refuted: the statement has no variables and is false: 1000000^(1/3) = 1 (1/3 is ℕ division: 0) · left side 999 ≠ 900"},
		{"theorem t (n : ℕ) (hp : Nat.Prime n) : Odd n := by sorry",
			"refuted: n = 2 · names not checked · Lean not run",
			"refuted: n = 2 satisfies every hypothesis and falsifies the conclusion (hypotheses Nat.Prime n: true · Odd n: false)"},
		{"theorem t (a b : ℕ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 7 := by sorry",
			"refuted: a = 6, b = 4 · names not checked · Lean not run",
			"refuted: a = 6, b = 4 satisfies every hypothesis and falsifies the conclusion (hypotheses a + b = 10: 10 = 10, a - b = 2: 2 = 2 · left side 6 ≠ 7)"},
		{"theorem t (G : Type) [Group G] (a : G) (n : ℕ) : n = n := by sorry",
			"names not checked · Lean not run · falsifier undecided (outside the fragment: Group)", ""},
	} {
		rep, err := c.Check(context.Background(), CheckRequest{Stub: tc.stub})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Verdict(); got != tc.verdict {
			t.Errorf("%s\n verdict %q\n    want %q", tc.stub, got, tc.verdict)
		}
		var refuted []string
		for _, f := range rep.Findings() {
			if f.Code == CodeRefuted {
				refuted = append(refuted, f.Message)
			}
		}
		if got := strings.Join(refuted, "; "); got != tc.finding {
			t.Errorf("%s\n finding %q\n    want %q", tc.stub, got, tc.finding)
		}
		if j := rep.JSON(); rep.Refuted() && (j.Falsifier == nil || j.Falsifier.Explanation == "") {
			t.Errorf("%s: the JSON report has no explanation: %+v", tc.stub, j.Falsifier)
		}
	}
}
