package falsify

import (
	"context"
	"testing"
	"time"
)

// FuzzFalsify checks that no statement text, however malformed, makes the
// falsifier panic or hang past its budget.
func FuzzFalsify(f *testing.F) {
	for _, s := range []string{
		"(n : ℕ) (hp : Nat.Prime n) : Odd n",
		"(x : ℤ) : x / 0 = 0 ∧ x % 0 = x",
		"(f : ℕ → ℕ) (h : ∀ n, f n = f n + 1) : f 0 = 0",
		"(x : ℝ) (h : √x = 2) : ⌊x⌋ = 4",
		": ∀ m, m ∣ 0 → ∃ k, m = 2 * k",
		": ∑ i ∈ Finset.range 100000000, i ^ i = 0",
		": 2 ^ 2 ^ 2 ^ 2 ^ 2 ^ 2 = 0",
		"(a : ℕ) : ∃! x ∈ Finset.Icc a (a ^ a), x ∣ a",
		": (1 : ℚ) / 0 = 0",
		"(n : ℕ) : (Nat.digits 0 n).sum = n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		st, ok := splitHeader(header, nil)
		if !ok {
			st = Statement{Conclusion: header}
		}
		r := Falsify(context.Background(), st, nil, Options{Budget: 5 * time.Millisecond, MaxAssignments: 200})
		if r.Verdict != Refuted && r.Counterexample != "" {
			t.Errorf("%v with a counterexample %q", r.Verdict, r.Counterexample)
		}
	})
}
