package falsify

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// exprGen writes random terms over the variables a, b, c of one type.
type exprGen struct {
	rng  *rand.Rand
	typ  string // "ℕ", "ℤ", "ℚ" or "NNReal"
	vars []string
}

func (g *exprGen) expr(depth int) string {
	if depth == 0 || g.rng.Intn(4) == 0 {
		if g.rng.Intn(3) == 0 {
			return fmt.Sprint(g.rng.Intn(12))
		}
		return g.vars[g.rng.Intn(len(g.vars))]
	}
	ops := []string{"+", "-", "*", "/", "%", "^"}
	if g.typ == "ℚ" || g.typ == "NNReal" {
		ops = []string{"+", "-", "*", "/", "^"}
	}
	op := ops[g.rng.Intn(len(ops))]
	if g.typ != "ℕ" && g.typ != "NNReal" && g.rng.Intn(8) == 0 {
		return "-(" + g.expr(depth-1) + ")"
	}
	if op == "^" {
		return "(" + g.expr(depth-1) + ") ^ " + fmt.Sprint(g.rng.Intn(4))
	}
	return "(" + g.expr(depth-1) + " " + op + " " + g.expr(depth-1) + ")"
}

// trueStatements are statement shapes true for every e1, e2 of the type.
var trueStatements = map[string][]string{
	"": {
		": E1 = E1",
		": E1 + E2 = E2 + E1",
		": E1 * E2 = E2 * E1",
		": E1 ≤ E2 ∨ E2 < E1",
		": (E1 + E2) * E1 = E1 * E1 + E2 * E1",
		"(h : E1 = E2) : E2 = E1",
		"(h₁ : E1 ≤ E2) (h₂ : E2 ≤ E1) : E1 = E2",
	},
	"ℕ": {
		": E1 / E2 * E2 + E1 % E2 = E1",
		"(h : 0 < E2) : E1 % E2 < E2",
		": E1 - E2 + E2 = max E1 E2",
		": ((E1 - E2 : ℕ) : ℤ) = if E2 ≤ E1 then ((E1 : ℕ) : ℤ) - ((E2 : ℕ) : ℤ) else 0",
		": 0 ≤ E1",
		": E1 ∣ E1 * E2",
		": ∀ m, m ∣ E1 → m ≤ E1 ∨ E1 = 0",
		": Odd E1 ∨ Even E1",
		": ∃ k, E1 = 2 * k ∨ E1 = 2 * k + 1",
		": Nat.gcd E1 E2 ∣ E1",
		": E1 ≡ E1 + E2 * 3 [MOD 3]",
	},
	"ℤ": {
		": E1 / E2 * E2 + E1 % E2 = E1",
		"(h : E2 ≠ 0) : 0 ≤ E1 % E2 ∧ E1 % E2 < |E2|",
		": |E1| = |-E1|",
		": E1 - E2 + E2 = E1",
		": E1 ∣ E1 * E2",
		": Int.natAbs (E1 * E2) = Int.natAbs E1 * Int.natAbs E2",
	},
	"ℚ": {
		"(h : E2 ≠ 0) : E1 / E2 * E2 = E1",
		"(h : E2 = 0) : E1 / E2 = 0",
		": E1 - E2 + E2 = E1",
		": (E1 + E2) / 2 ≤ max E1 E2",
	},
	// NNReal: truncated subtraction, and no value is negative (true here,
	// false over ℝ: a search that drew a negative value would refute them)
	"NNReal": {
		"(h : E2 ≠ 0) : E1 / E2 * E2 = E1",
		"(h : E2 = 0) : E1 / E2 = 0",
		": E1 - E2 + E2 = max E1 E2",
		": ((E1 - E2 : NNReal) : ℝ) = max (((E1 : NNReal) : ℝ) - ((E2 : NNReal) : ℝ)) 0",
		"(h : E2 ≤ E1) : E1 - E2 + E2 = E1",
		": E1 - E2 ≤ E1",
		": 0 ≤ E1",
		": E1 ≤ E1 + E2",
		": E1 * E2 ≤ (E1 + E2) ^ 2",
		": (E1 + E2) / 2 ≤ max E1 E2",
		": ∀ x : NNReal, E1 ≤ E1 + x",
		": ¬ ∃ x : NNReal, E1 + x < E1",
		": NNReal.sqrt (E1 * E1) = E1",
		": Real.sqrt ((E1 * E2 : NNReal) : ℝ) ≤ ((E1 + E2) / 2 : NNReal)",
	},
}

// TestSoundness generates statements true by construction and asserts
// that none is refuted.
func TestSoundness(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	checked, decided := 0, 0
	check := func(header string, seed int64) {
		r := Falsify(context.Background(), stmt(t, header, nil), nil, Options{Budget: 10e6, MaxAssignments: 300, Seed: seed})
		checked++
		if r.Verdict == Refuted {
			t.Errorf("refuted a true statement with %s: %s", r.Counterexample, header)
		}
		if r.Verdict == NotRefuted {
			decided++
		}
	}
	for _, typ := range []string{"ℕ", "ℤ", "ℚ", "NNReal"} {
		g := &exprGen{rng: rng, typ: typ, vars: []string{"a", "b", "c"}}
		shapes := append(append([]string{}, trueStatements[""]...), trueStatements[typ]...)
		for i := 0; i < 60; i++ {
			for _, shape := range shapes {
				e1, e2 := g.expr(3), g.expr(2)
				body := strings.NewReplacer("E1", "("+e1+")", "E2", "("+e2+")").Replace(shape)
				check("(a b c : "+typ+") "+body, int64(i))
			}
		}
	}
	// function and sequence variables defined by hypotheses
	for i := 0; i < 40; i++ {
		for _, typ := range []string{"ℕ", "ℤ", "ℚ", "NNReal"} {
			g := &exprGen{rng: rng, typ: typ, vars: []string{"x"}}
			body := g.expr(3)
			at := strings.ReplaceAll(body, "x", "(a + 1)")
			c0, c1 := rng.Intn(9), rng.Intn(9)
			for _, header := range []string{
				fmt.Sprintf("(f : %s → %s) (h : ∀ x, f x = %s) (a : %s) : f (a + 1) = %s", typ, typ, body, typ, at),
				fmt.Sprintf("(s : ℕ → %s) (h₀ : s 0 = %d) (h : ∀ n, s (n + 1) = s n + %d) (m : ℕ) : s m = %d + m * %d", typ, c0, c1, c0, c1),
				fmt.Sprintf("(s : ℕ → %s) (h₀ : s 0 = %d) (h₁ : s 1 = %d) (h : ∀ n, s (n + 2) = s (n + 1) + s n) (m : ℕ) : s (m + 2) ≥ s m", typ, c0, c1),
				fmt.Sprintf("(S : Finset ℕ) (a : ℕ) (h : ∀ n, n ∈ S ↔ n < a + %d) : S.card = a + %d", c0, c0),
				fmt.Sprintf("(S : Set %s) (h : ∀ x, x ∈ S ↔ %s = %d) (a : %s) (ha : a ∈ S) : %s = %d", typ, body, c0, typ, strings.ReplaceAll(body, "x", "a"), c0),
			} {
				check(header, int64(i))
			}
		}
	}
	if decided < checked/2 {
		t.Errorf("only %d of %d true statements were decided on some assignment", decided, checked)
	}
	t.Logf("%d true statements, %d checked on ≥1 assignment, none refuted", checked, decided)
}
