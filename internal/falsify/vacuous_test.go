package falsify

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestContradiction: hypotheses that cannot all hold are proven so, with
// why; hypotheses that can hold, or that the fragment cannot decide, are
// left alone, and so is a conclusion False (its claim is the contradiction).
func TestContradiction(t *testing.T) {
	tests := []struct{ header, want string }{
		// bounds on one variable, with Lean's division
		{"(n : ℤ) (hn : 0 < n) (hn' : 8/15 < n) (hn_1 : n < 7/13) : n = 112", "0 < n, and n < 7/13, where 7/13 = 0 in ℤ"},
		{"(n : ℕ) (h : n < 0) : n = 5", "n : ℕ, and n < 0"},
		{"(n : ℕ) (h : n + 0 < 0) : n = 5", ""}, // a bound on n + 0 is no bound on n
		{"(x : ℝ) (h₀ : 3 < x) (h₁ : x < 2) : x = 1", "3 < x, and x < 2"},
		{"(x : ℝ) (h₀ : 3 < x ∧ x < 2) : x = 1", "3 < x, and x < 2"},
		{"(x : ℝ) (h₀ : 3 ≤ x) (h₁ : x < 3) : x = 3", "3 ≤ x, and x < 3"},
		{"(x : ℝ) (h₀ : x > 1 / 2) (h₁ : 2 * x < 1) : x = 3", ""}, // 2 * x is no variable: undecided
		{"(x : ℤ) (h : (x : ℚ) = 7 / 2) : x = 3", "(x : ℚ) = 7 / 2, and x : ℤ"},
		{"(x : ℕ) (h₀ : (x : ℝ) < 1 / 2) (h₁ : 0 < x) : x = 3", "0 < x, and (x : ℝ) < 1 / 2"},
		{"(x : NNReal) (h : x < 0) : x = 3", "x : NNReal, and x < 0"},
		{"(x : ℝ) (h : x < 0) : ∀ y : ℕ, y < 0 → x = y", "y : ℕ, and y < 0"},
		// finitely many integers, all tried
		{"(n : ℕ) (h₀ : 0 < n) (h₁ : n < 6) (h₂ : n ^ 2 = 7) : n = 1", "0 < n, n < 6 leave n in 1 … 5, and none of these values meets every hypothesis"},
		{"(n m : ℕ) (h₀ : n ≤ 3) (h₁ : m ≤ 3) (h₂ : n * m = 11) : n = 1", "n ≤ 3, m ≤ 3 leave n in 0 … 3, m in 0 … 3, and none of these values meets every hypothesis"},
		{"(b : Bool) (h₀ : b = true) (h₁ : b = false) : 1 = 2", "b true or false, and none of these values meets every hypothesis"},
		{"(h : (2 : ℤ) + 2 = 5) : 1 = 1", "its hypothesis (2 : ℤ) + 2 = 5 is false"},
		// a hypothesis outside the fragment is left out: the others contradict
		{"(n : ℕ) (h₀ : 0 < n) (h₁ : n < 1) (h₂ : Foo n) : Bar n", "0 < n, and n < 1"},
		// hypotheses that hold somewhere
		{"(n : ℕ) (h₀ : 2 ≤ n) (h₁ : n ≤ 3) (h₂ : n ≠ 2) : n = 4", ""},
		{"(x : ℝ) (h₀ : 3 ≤ x) (h₁ : x ≤ 3) : x = 4", ""},
		{"(n : ℤ) (h₀ : -5 < n) (h₁ : n < -4 + 1) (h₂ : n * n = 16) : n = 0", ""},
		{"(n : ℕ) (h₀ : 0 < n) (h₁ : n < 6) (h₂ : Foo n) : n = 0", ""},
		{"(x y : ℝ) (h₀ : x ^ 2 + y ^ 2 = 146) (h₁ : x + y = 16) : x = 0", ""},
		{"(n : ℤ) (h₀ : n < 100000) (h₁ : -100000 < n) (h₂ : n ^ 2 = 9801) : n = 0", ""}, // too many values to try
		// a conclusion False claims the contradiction
		{"(n : ℕ) (h₀ : n < 6) (h₂ : n ^ 2 = 7) : False", ""},
		{"(n : ℕ) : n < 6 → n ^ 2 = 7 → False", ""},
		{"(n : ℕ) (h : n < 0) : Nat.Prime n", "n : ℕ, and n < 0"},
		// a ∀ binder bounded by a numeral takes its type from its uses: x
		// is real here, and x < 0 holds for some
		{": ∀ x < 0, 2 - Real.sqrt 2 ≥ 2 - x - 1 / (2 * x)", ""},
		{": ∀ x < 0, x + 1 = 1", "x : ℕ, and x < 0"},
	}
	for _, tc := range tests {
		r := Falsify(context.Background(), stmt(t, tc.header, nil), nil, Options{})
		if r.Contradiction != tc.want {
			t.Errorf("%s\n got %q (%v, %s)\nwant %q", tc.header, r.Contradiction, r.Verdict, r.Reason, tc.want)
		}
		if tc.want != "" && (r.Verdict != Unknown || r.Assignments != 0) {
			t.Errorf("%s: contradictory hypotheses, yet %v after %d assignments", tc.header, r.Verdict, r.Assignments)
		}
	}
}

// TestContradictionSound: hypotheses that hold at a point by construction
// (bounds around it, with numerals and divisions of the type, and
// equations of random terms with their value there) are never said to
// contradict.
func TestContradictionSound(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	rels := []string{"<", "≤", "=", "≥", ">"}
	checked := 0
	for _, typ := range []string{"ℕ", "ℤ", "ℚ", "NNReal"} {
		g := &exprGen{rng: rng, typ: typ, vars: []string{"a", "b"}}
		for i := 0; i < 150; i++ {
			point := map[string]int64{}
			for _, v := range g.vars {
				point[v] = int64(rng.Intn(9))
				if (typ == "ℤ" || typ == "ℚ") && rng.Intn(2) == 0 {
					point[v] = -point[v]
				}
			}
			at := func(e string) (num, bool) {
				for _, v := range g.vars {
					e = strings.ReplaceAll(e, v, fmt.Sprintf("(%d : %s)", point[v], typ))
				}
				c := newCompiler(nil)
				x, ok := c.num(parseTerm("(("+e+") : "+typ+")", nil), kNone)
				if !ok {
					return num{}, false
				}
				return x.f(&env{v: make([]num, c.nslots+1), limit: stepLimit})
			}
			var hyps []string
			for j := 0; j < 2+rng.Intn(3); j++ {
				v := g.vars[rng.Intn(len(g.vars))]
				c := fmt.Sprintf("%d / %d", rng.Intn(30), 1+rng.Intn(9))
				cv, ok := at(c)
				if !ok {
					continue
				}
				// a relation between v and c that holds at the point
				x := small(point[v])
				var holds []string
				for _, r := range rels {
					if compareNums(r, x, cv) {
						holds = append(holds, r)
					}
				}
				r := holds[rng.Intn(len(holds))]
				if rng.Intn(2) == 0 {
					hyps = append(hyps, fmt.Sprintf("%s %s %s", v, r, c))
				} else {
					hyps = append(hyps, fmt.Sprintf("%s %s %s", c, boundRels[r], v))
				}
			}
			e := g.expr(2)
			if ev, ok := at(e); ok && ev.isInt() && ev.sign() >= 0 {
				hyps = append(hyps, fmt.Sprintf("%s = %s", e, ev))
			}
			var b strings.Builder
			fmt.Fprintf(&b, "(a b : %s)", typ)
			for k, h := range hyps {
				fmt.Fprintf(&b, " (h%d : %s)", k, h)
			}
			b.WriteString(" : a = b")
			header := b.String()
			r := Falsify(context.Background(), stmt(t, header, nil), nil, Options{MaxAssignments: 200})
			checked++
			if r.Contradiction != "" {
				t.Errorf("hypotheses that hold at a = %d, b = %d said to contradict (%s): %s", point["a"], point["b"], r.Contradiction, header)
			}
		}
	}
	t.Logf("%d statements whose hypotheses hold at a point: none said to contradict", checked)
}

// compareNums decides x r y.
func compareNums(r string, x, y num) bool {
	c := cmpNum(x, y)
	switch r {
	case "<":
		return c < 0
	case "≤":
		return c <= 0
	case "=":
		return c == 0
	case "≥":
		return c >= 0
	}
	return c > 0
}

// TestMidpoints: a real variable the hypotheses confine to a narrow
// interval, which none of the small rationals lies in, is tried at its
// midpoint: the stub the bundled model wrote for AIME 1987 p8 over ℝ is
// refuted there (before, no assignment met the hypotheses).
func TestMidpoints(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   Verdict
	}{
		{"(n : ℝ) (h : 0 < n) (hn : 8/15 < n) (hn' : n < 7/13) : n = 112", Refuted},
		{"(x : ℚ) (h₀ : 1/1000 < x) (h₁ : x ≤ 1/999) : x ≠ x", Refuted},
		{"(x : ℝ) (h₀ : 8/15 < x) (h₁ : x < 7/13) : 0 < x", NotRefuted},
	} {
		r := Falsify(context.Background(), stmt(t, tc.header, nil), nil, Options{})
		if r.Verdict != tc.want {
			t.Errorf("%s: %v (%s), want %v", tc.header, r.Verdict, r.Counterexample+r.Reason, tc.want)
		}
	}
}
