package falsify

import (
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// evalClosed evaluates a closed numeric term (no variables) as Lean does.
func evalClosed(src string) (string, bool) {
	c := newCompiler(nil)
	e, ok := c.num(leansrc.ParseTerm(src, nil), kNone)
	if !ok {
		return "undefined: " + c.reason, false
	}
	v, ok := e.f(&env{v: make([]num, c.nslots+1), limit: stepLimit})
	if !ok {
		return "undefined", false
	}
	return v.String() + " : " + e.t.String(), true
}

// TestOperators checks every operator against Lean's definitions: ℕ
// subtraction truncates, x / 0 = 0 and x % 0 = x, ℤ / and % are Int.ediv and
// Int.emod (0 ≤ a % b < |b|), ℚ division by 0 is 0, numerals default to ℕ.
func TestOperators(t *testing.T) {
	tests := []struct{ src, want string }{
		// ℕ
		{"2 - 3", "0 : ℕ"},
		{"5 - 3", "2 : ℕ"},
		{"(2 : ℕ) - 3 + 1", "1 : ℕ"},
		{"7 / 2", "3 : ℕ"},
		{"7 / 0", "0 : ℕ"},
		{"0 / 0", "0 : ℕ"},
		{"7 % 2", "1 : ℕ"},
		{"7 % 0", "7 : ℕ"},
		{"2 ^ 10", "1024 : ℕ"},
		{"0 ^ 0", "1 : ℕ"},
		{"2 ^ 3 ^ 2", "512 : ℕ"},
		{"2 + 3 * 4", "14 : ℕ"},
		{"10 - 2 - 3", "5 : ℕ"},
		{"5 !", "120 : ℕ"},
		{"0 !", "1 : ℕ"},
		{"Nat.succ 4", "5 : ℕ"},
		{"Nat.pred 0", "0 : ℕ"},
		{"Nat.gcd 12 18", "6 : ℕ"},
		{"Nat.gcd 0 5", "5 : ℕ"},
		{"Nat.lcm 4 6", "12 : ℕ"},
		{"Nat.lcm 0 6", "0 : ℕ"},
		{"Nat.sqrt 15", "3 : ℕ"},
		{"Nat.sqrt 16", "4 : ℕ"},
		{"Nat.choose 5 2", "10 : ℕ"},
		{"Nat.choose 2 5", "0 : ℕ"},
		{"min 3 5", "3 : ℕ"},
		{"max 3 5", "5 : ℕ"},
		{"(Nat.digits 10 123).sum", "6 : ℕ"},
		{"(Finset.range 4).card", "4 : ℕ"},
		{"Finset.sum (Finset.range 4) (fun i => i * i)", "14 : ℕ"},
		{"⌊(-7 : ℚ) / 2⌋", "-4 : ℤ"},
		{"⌈(-7 : ℚ) / 2⌉", "-3 : ℤ"},
		{"⌊(-7 : ℚ) / 2⌋₊", "0 : ℕ"},
		{"Int.fract ((-7 : ℚ) / 2)", "1/2 : ℚ"},
		{"√(9 / 4 : ℝ)", "3/2 : ℝ"},
		{"√(-4 : ℝ)", "0 : ℝ"},
		{"√(2 : ℝ)", "undefined"},
		{"(8 : ℝ) ^ (2 / 3 : ℝ)", "4 : ℝ"},
		{"(8 : ℝ) ^ (-1 / 3 : ℝ)", "1/2 : ℝ"},
		{"(-8 : ℝ) ^ (2 : ℝ)", "64 : ℝ"},
		{"(-8 : ℝ) ^ (1 / 3 : ℝ)", "undefined"},
		{"(0 : ℝ) ^ (1 / 2 : ℝ)", "0 : ℝ"},
		{"(2 : ℝ) ^ (1 / 2 : ℝ)", "undefined"},
		{"Real.logb 2 8", "3 : ℝ"},
		{"Real.logb 8 2", "1/3 : ℝ"},
		{"Real.logb 4 (1 / 8)", "-3/2 : ℝ"},
		{"Real.logb (-2) 8", "3 : ℝ"},
		{"Real.logb 1 8", "0 : ℝ"},
		{"Real.logb 2 3", "undefined"},
		{"Real.log 1", "0 : ℝ"},
		{"Real.log (-1)", "0 : ℝ"},
		{"Real.log 2", "undefined"},
		{"Real.exp 0", "1 : ℝ"},
		{"List.sum (Nat.digits 10 123)", "6 : ℕ"},
		{"List.length (Nat.digits 10 0)", "0 : ℕ"},
		{"List.length (Nat.digits 2 8)", "4 : ℕ"},
		{"∑ i ∈ Finset.range 5, i", "10 : ℕ"},
		{"∏ i ∈ Finset.Icc 1 5, i", "120 : ℕ"},
		{"∑ i ∈ Finset.Ico 1 1, i", "0 : ℕ"},
		{"∑ i ∈ Finset.Ioc 1 3, i", "5 : ℕ"},
		{"∑ i ∈ Finset.Ioo 1 4, i", "5 : ℕ"},
		{"∑ i in Finset.range 4, (i + 1)", "10 : ℕ"},
		{"Finset.card (Finset.filter (fun x => x % 3 = 0) (Finset.range 10))", "4 : ℕ"},
		{"∑ d ∈ Nat.divisors 12, d", "28 : ℕ"},
		{"∑ d ∈ Nat.properDivisors 12, d", "16 : ℕ"},
		{"-1", "undefined"},
		// ℤ: Int.ediv / Int.emod
		{"(-7 : ℤ) / 2", "-4 : ℤ"},
		{"(-7 : ℤ) % 2", "1 : ℤ"},
		{"(7 : ℤ) / (-2)", "-3 : ℤ"},
		{"(7 : ℤ) % (-2)", "1 : ℤ"},
		{"(-7 : ℤ) / (-2)", "4 : ℤ"},
		{"(-7 : ℤ) % (-2)", "1 : ℤ"},
		{"(-7 : ℤ) / 0", "0 : ℤ"},
		{"(-7 : ℤ) % 0", "-7 : ℤ"},
		{"(2 : ℤ) - 3", "-1 : ℤ"},
		{"(2 - 3 : ℤ)", "-1 : ℤ"},
		{"((2 - 3 : ℕ) : ℤ)", "0 : ℤ"},
		{"(-2 : ℤ) ^ 3", "-8 : ℤ"},
		{"|(-3 : ℤ)|", "3 : ℤ"},
		{"Int.natAbs (-5)", "5 : ℕ"},
		{"Int.toNat (-5)", "0 : ℕ"},
		{"Int.toNat 5", "5 : ℕ"},
		{"Int.gcd (-4) 6", "2 : ℕ"},
		{"gcd (-4 : ℤ) 6", "2 : ℤ"},
		{"lcm (-4 : ℤ) 6", "12 : ℤ"},
		{"gcd 12 18", "6 : ℕ"},
		{"-(3 : ℤ) * 2", "-6 : ℤ"},
		// ℚ: field division, x / 0 = 0
		{"(1 : ℚ) / 0", "0 : ℚ"},
		{"(1 : ℚ) / 2 + 1 / 3", "5/6 : ℚ"},
		{"(7 : ℚ) / 2", "7/2 : ℚ"},
		{"(2 : ℚ) ^ (-2 : ℤ)", "1/4 : ℚ"},
		{"(0 : ℚ) ^ (-1 : ℤ)", "0 : ℚ"},
		{"(2.5 : ℚ) * 2", "5 : ℚ"},
		{"(1e2 : ℚ)", "100 : ℚ"},
		{"(1 : ℚ) % 2", "undefined"},
		{"(3 : ℚ)⁻¹", "1/3 : ℚ"},
		{"(1 : ℝ) + 3⁻¹", "4/3 : ℝ"},
		{"3⁻¹ + 1", "undefined"},
		{"2.5", "undefined"},
		// NNReal (ℝ≥0): truncated subtraction, no negation, no %, no |·|;
		// coercions ℕ → NNReal → ℝ only
		{"(2 : NNReal) - 3", "0 : NNReal"},
		{"(5 : NNReal) - 3 / 2", "7/2 : NNReal"},
		{"(7 : NNReal) / 2", "7/2 : NNReal"},
		{"(7 : NNReal) / 0", "0 : NNReal"},
		{"(2 : NNReal) ^ (-2 : ℤ)", "1/4 : NNReal"},
		{"(4 : NNReal) ^ (1 / 2 : ℝ)", "2 : NNReal"},
		{"(2 : NNReal)⁻¹", "1/2 : NNReal"},
		{"NNReal.sqrt (9 / 4)", "3/2 : NNReal"},
		{"NNReal.sqrt 2", "undefined"},
		{"Real.sqrt (4 : NNReal)", "2 : ℝ"},
		{"max (2 : NNReal) 3", "3 : NNReal"},
		{"((2 : NNReal) - 3 : ℝ)", "-1 : ℝ"},
		{"(((2 : NNReal) - 3 : NNReal) : ℝ)", "0 : ℝ"},
		{"((2 : ℕ) : NNReal) + 1", "3 : NNReal"},
		{"-(1 : NNReal)", "undefined"},
		{"(1 : NNReal) % 2", "undefined"},
		{"|(1 : NNReal)|", "undefined"},
		{"(2.5 : NNReal)", "undefined"},
		{"(1 : ℤ) + (2 : NNReal)", "undefined"},
		{"(1 : ℚ) + (2 : NNReal)", "undefined"},
		{"((2 : ℤ) : NNReal)", "undefined"},
		{"((2 : NNReal) : ℚ)", "undefined"},
		// coercions: leaves take the tree's largest type
		{"(3 : ℕ) - 5 + (0 : ℤ)", "-2 : ℤ"},
		{"((3 : ℕ) - 5 : ℕ) + (0 : ℤ)", "0 : ℤ"},
		{"((7 : ℕ) / 2 : ℚ)", "7/2 : ℚ"},
		{"(↑(7 : ℕ) : ℚ) / 2", "7/2 : ℚ"},
		{"((7 / 2 : ℕ) : ℚ)", "3 : ℚ"},
		// big numbers: exact, or undefined beyond the cap
		{"5 ^ 2005 % 100", "25 : ℕ"},
		{"2 ^ 100", "1267650600228229401496703205376 : ℕ"},
		{"2 ^ 100000", "undefined"},
		{"100000 !", "undefined"},
		{"20 ! / 18 !", "380 : ℕ"},
		{"9223372036854775807 + 1", "9223372036854775808 : ℕ"},
	}
	for _, tc := range tests {
		got, _ := evalClosed(tc.src)
		if tc.want == "undefined" && len(got) >= 9 && got[:9] == "undefined" {
			continue
		}
		if got != tc.want {
			t.Errorf("%s = %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestRelations checks the relations and predicates on closed statements.
func TestRelations(t *testing.T) {
	tests := []struct {
		src  string
		want tri
	}{
		{"3 ∣ 12", tru}, {"0 ∣ 0", tru}, {"0 ∣ 3", fls}, {"(-3 : ℤ) ∣ 12", tru}, {"5 ∣ 12", fls},
		{"2 < 3", tru}, {"3 ≤ 3", tru}, {"3 > 3", fls}, {"4 ≥ 3", tru}, {"2 ≠ 2", fls}, {"(1 : ℚ) / 3 = 2 / 6", tru},
		{"Nat.Prime 2", tru}, {"Nat.Prime 1", fls}, {"Nat.Prime 91", fls}, {"Nat.Prime 97", tru}, {"Prime (-7 : ℤ)", tru},
		{"Odd 3", tru}, {"Even 0", tru}, {"Odd (-3 : ℤ)", tru}, {"Even (-4 : ℤ)", tru},
		{"Nat.Coprime 4 9", tru}, {"Nat.Coprime 4 6", fls},
		{"7 ≡ 2 [MOD 5]", tru}, {"7 ≡ 3 [MOD 5]", fls}, {"-3 ≡ 2 [ZMOD 5]", tru}, {"Nat.ModEq 5 7 2", tru},
		{"3 ∈ Finset.range 3", fls}, {"2 ∈ Finset.Icc 2 4", tru}, {"5 ∉ Finset.Icc 2 4", tru}, {"2 ∈ ({1, 2} : Finset ℕ)", unk},
		{"2 ∈ {1, 2}", tru}, {"(3 : ℤ) ∈ {x : ℤ | 0 < x}", tru},
		{"True ∧ ¬False", tru}, {"1 = 2 → 5 = 6", tru}, {"(1 = 1) ↔ (2 = 3)", fls},
		{"∀ m ∈ Finset.range 5, m < 5", tru}, {"∃ k < 10, k * k = 49", tru}, {"∃ k ≤ 5, k * k = 49", fls},
		{"∀ m, m ∣ 12 → m ≤ 12", tru}, {"∀ m, m < 4 → m * m < 10", tru}, {"∀ m, m < 5 → m * m < 10", fls},
		{"∃ k, 7 = 2 * k + 1", tru}, {"∃ k, 8 = 2 * k + 1", fls}, {"∃ c, 12 = 5 * c", fls}, {"∃ c, 0 = 0 * c", tru}, {"∃ c : ℤ, -6 = 3 * c", tru}, {"∃ c : ℕ, (-6 : ℤ) = 3 * c", unk},
		{"∀ x : ℕ, x + 0 = x", unk}, {"∀ x : ℕ, x < 20", fls}, {"∃ x : ℤ, x * x = 2", unk}, {"∃! x : ℕ, x < 1", tru}, {"∃! x : ℕ, x < 2", fls},
		{"∃! x ∈ Finset.range 5, x * x = 4", tru}, {"∃! x ∈ Finset.range 5, x < 2", fls},
		{"∃ x : ℤ, x * x = 4", tru}, {"∀ b : Bool, b = true ∨ b = false", tru},
		{"if 2 < 3 then 1 = 1 else 1 = 2", tru}, {"(if 2 < 3 then 5 else 6) = 5", tru},
		{"Foo 3", unk}, {"‖3‖ = 3", unk},
	}
	for _, tc := range tests {
		term := leansrc.ParseTerm(tc.src, nil)
		var p pexpr
		ok := false
		c := twoPass(nil, func(c *compiler) { p, ok = c.prop(term) })
		got := unk
		if ok {
			got = p.f(&env{v: make([]num, c.nslots+1), limit: stepLimit})
		}
		if got != tc.want {
			t.Errorf("%s: got %v, want %v (%s)", tc.src, got, tc.want, c.reason)
		}
	}
}
