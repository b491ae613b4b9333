package coverage

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const demo = "Every prime number greater than 2 is odd."

var demoConcepts = []Concept{{Phrase: "prime number", Names: []string{"Mm.Prime", "Nat.Prime"}}, {Phrase: "odd", Names: []string{"Mm.Odd"}}}

// TestCheck runs one row per rule: the statement, the stub's statement,
// and the findings expected (nil: the stub covers every condition).
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, statement, stub string
		concepts              []Concept
		want                  []string
	}{
		// the demo: a stub that drops "greater than 2" is flagged
		{"demo omits the bound", demo, "(n : ℕ) (hp : Mm.Prime n) : Mm.Odd n", demoConcepts, []string{"omits 'greater than 2'"}},
		{"demo 2 < n", demo, "(n : ℕ) (hp : Mm.Prime n) (h : 2 < n) : Mm.Odd n", demoConcepts, nil},
		{"demo n > 2", demo, "(n : ℕ) (hp : Mm.Prime n) (h : n > 2) : Mm.Odd n", demoConcepts, nil},
		{"demo 3 ≤ n", demo, "(n : ℕ) (hp : Mm.Prime n) (h : 3 ≤ n) : Mm.Odd n", demoConcepts, nil},
		{"demo n ≥ 3", demo, "(n : ℕ) (hp : Mm.Prime n) (h : n ≥ 3) : Mm.Odd n", demoConcepts, nil},
		{"demo ASCII n >= 3", demo, "(n : ℕ) (hp : Mm.Prime n) (h : n >= 3) : Mm.Odd n", demoConcepts, nil},
		{"demo whole declaration", demo, "@[simp] theorem odd_of_prime_gt_two (n : ℕ) (hp : Mm.Prime n) : Mm.Odd n := by sorry", demoConcepts, []string{"omits 'greater than 2'"}},
		{"demo interval", demo, "(n : ℕ) (hp : Mm.Prime n) (h : n ∈ Set.Ioi 2) : Mm.Odd n", demoConcepts, nil},
		{"demo prime other than 2", demo, "(n : ℕ) (hp : Nat.Prime n) (h : n ≠ 2) : Odd n", nil, nil},
		// a number followed by an operation in words is an operand, not the bound
		{"power in words", "Every natural number n is less than 2 to the power n.", "(n : ℕ) : n < 2 ^ n", nil, nil},
		{"times in words", "For every natural number n greater than 1, n squared is more than 3 times n minus 4.", "(n : ℕ) : n ^ 2 > 3 * n - 4", nil, []string{"omits 'greater than 1'"}},
		// "the absolute value" wants |x|, abs or a norm
		{"absolute value dropped", "The absolute value of a real number is nonnegative.", "(x : ℝ) : 0 ≤ x", nil, []string{"omits 'absolute value'"}},
		{"absolute value as bars", "The absolute value of a real number is nonnegative.", "(x : ℝ) : 0 ≤ |x|", nil, nil},
		{"absolute value as a norm", "The absolute value of a complex number z is at least its real part.", "(z : ℂ) : z.re ≤ ‖z‖", nil, nil},
		// "square" is a power: a root or a parity does not state it
		{"square as a root", "A real number whose square is zero is zero.", "(x : ℝ) : NNReal.sqrt x = 0", nil, []string{"omits 'square'"}},
		{"square as sq", "A real number whose square is zero is zero.", "(x : ℝ) (h : sq x = 0) : x = 0", nil, nil},
		// the order of ∣'s arguments with a numeral
		{"divisible reversed", "If a natural number is divisible by 6, then it is divisible by 3.", "(n : ℕ) : n ∣ 3 → n ∣ 6", nil, []string{"reverses 'divisible by 6': a ∣ b says that a divides b", "reverses 'divisible by 3': a ∣ b says that a divides b"}},
		{"divisible in order", "If a natural number is divisible by 6, then it is divisible by 3.", "(n : ℕ) (h : 6 ∣ n) : 3 ∣ n", nil, nil},
		{"divisible as a remainder", "If a natural number is divisible by 6, then it is divisible by 3.", "(n : ℕ) (h : n % 6 = 0) : n % 3 = 0", nil, nil},
		{"divides a numeral", "Every natural number that divides 6 is at most 6.", "(n : ℕ) (h : 6 ∣ n) : n ≤ 6", nil, []string{"reverses 'divides 6': a ∣ b says that a divides b"}},
		{"numeral divides", "If 4 divides n then 2 divides n.", "(n : ℕ) (h : 4 ∣ n) : 2 ∣ n", nil, nil},
		{"a multiple of", "Every multiple of 4 is even.", "(n : ℕ) (h : n ∣ 4) : Even n", nil, []string{"reverses 'multiple of 4': a ∣ b says that a divides b"}},
		// a power named by its verb is said by the power
		{"squared as a concept", "For all real numbers a and b, 2ab is at most a squared plus b squared.", "(a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2",
			[]Concept{{Phrase: "a squared"}}, nil},
		{"cubed as a concept", "Every integer cubed minus itself is divisible by 3.", "(n : ℤ) : 3 ∣ n ^ 3 - n", []Concept{{Phrase: "integer cubed"}}, nil},
		// a divisibility the statement assumes must be stated
		{"assumed divisibility dropped", "If a natural number is divisible by 4, then it is even.", "(n : ℕ) : Even n", nil, []string{"omits 'divisible by 4'", "omits '4'"}},
		{"assumed divisibility ascribed", "If a natural number is divisible by 4, then it is even.", "(n : ℕ) (h : (4 : ℕ) ∣ n) : Even n", nil, nil},
		{"asserted divisibility is the conclusion", "If n is even, then n squared is divisible by 4.", "(n : ℕ) (h : Even n) : 4 ∣ n ^ 2", nil, nil},
		// Finset.range starts at 0
		{"sum from 0 over range", "For every natural number n, the sum of the powers 2^i for i from 0 to n - 1 is 2^n - 1.", "(n : ℕ) : ∑ i ∈ Finset.range n, 2 ^ i = 2 ^ n - 1", nil, nil},
		// an operation's noun is said by its symbol
		{"product as a concept", "For every integer n, the product of n and n + 1 is even.", "(n : ℤ) : Even (n * (n + 1))", []Concept{{Phrase: "product"}}, nil},
		{"power as a concept", "Every natural number n is less than 2 to the power n.", "(n : ℕ) : n < 2 ^ n", []Concept{{Phrase: "power"}}, nil},
		{"times as a concept", "For every natural number n, twice the sum of the natural numbers from 0 to n equals n times (n + 1).",
			"(n : ℕ) : 2 * (∑ i ∈ Finset.range (n + 1), i) = n * (n + 1)", []Concept{{Phrase: "times"}, {Phrase: "twice"}}, nil},
		{"times as a concept missing", "For every natural number n, twice the sum of the natural numbers from 0 to n equals n times (n + 1).",
			"(n : ℕ) : 2 + (∑ i ∈ Finset.range (n + 1), i) = n + (n + 1)", []Concept{{Phrase: "times"}}, []string{"omits 'times'"}},
		{"demo off by one", demo, "(n : ℕ) (hp : Mm.Prime n) (h : 2 ≤ n) : Mm.Odd n", demoConcepts, []string{"omits 'greater than 2'"}},
		{"demo bound inside an expression", demo, "(n : ℕ) (hp : Mm.Prime n) (h : n + 2 < 7) : Mm.Odd n", demoConcepts, []string{"omits 'greater than 2'"}},
		{"demo concept missing", demo, "(n : ℕ) (h : 2 < n) : Mm.Odd n", demoConcepts, []string{"omits 'prime'"}},
		{"concept by last component", demo, "(n : ℕ) (hp : n.Prime) (h : 2 < n) : Odd n", demoConcepts, nil},
		{"concept by word", "Every prime divides a factorial.", "(p : ℕ) (hp : Prime p) : ∃ n, p ∣ n !",
			[]Concept{{Phrase: "prime", Names: nil}, {Phrase: "divides", Names: []string{"Dvd.dvd"}}, {Phrase: "factorial", Names: []string{"Nat.factorial"}}}, nil},
		{"concept as a sentence", demo, "(n : ℕ) (hp : Nat.Prime n) (h : 2 < n) : Odd n",
			[]Concept{{Phrase: "A prime number is a natural number greater than 1 with no divisors other than 1 and itself.", Names: []string{"Nat.Prime"}}}, nil},
		{"concept as a sentence missing", demo, "(n : ℕ) (h : 2 < n) : Odd n",
			[]Concept{{Phrase: "A prime number is a number with exactly two divisors.", Names: []string{"Nat.Prime"}}}, []string{"omits 'prime'"}},
		{"concept by notation missing", "Every prime divides a factorial.", "(p : ℕ) (hp : Prime p) : ∃ n, p < n",
			[]Concept{{Phrase: "divides", Names: []string{"Dvd.dvd"}}}, []string{"omits 'divides'"}},
		// a concept said of the subject is a hypothesis: in a binder, a ∀
		// binder's type or a premise of →; asserted or predicated, it is not
		{"subject's adjective dropped", "The product of two odd integers is odd.", "(x y : ℤ) : Odd (x * y)",
			[]Concept{{Phrase: "odd integer", Names: []string{"Odd"}}}, []string{"omits 'odd' as a hypothesis ('two odd integers')"}},
		{"subject's sign word as comparisons", "The product of two negative real numbers is positive.", "(x y : ℝ) (hx : x < 0) (hy : y < 0) : 0 < x * y",
			[]Concept{{Phrase: "negative real number", Names: []string{"Real.neg"}}}, nil},
		{"subject's sign word dropped", "The product of two negative real numbers is positive.", "(x y : ℝ) (hx : x < 0) : 0 < x * y",
			[]Concept{{Phrase: "negative real number", Names: []string{"Real.neg"}}}, []string{"omits 'negative'"}},
		{"two positive, by stronger bounds", "The product of two positive whole numbers is 2005. If neither number is 1, what is their sum? Show that it is 406.",
			"(m n : ℕ) (h₀ : 1 < m) (h₁ : 1 < n) (h₂ : m * n = 2005) : m + n = 406", nil, nil},
		{"subject's adjective as binders", "The product of two odd integers is odd.", "(x y : ℤ) (hx : Odd x) (hy : Odd y) : Odd (x * y)",
			[]Concept{{Phrase: "odd integer", Names: []string{"Odd"}}}, nil},
		{"subject's adjective as premises", "The product of two odd integers is odd.", "(x y : ℤ) : Odd x ∧ Odd y → Odd (x * y)",
			[]Concept{{Phrase: "odd integer", Names: []string{"Odd"}}}, nil},
		{"subject's adjective under ∀", "The product of two odd integers is odd.", ": ∀ x y : ℤ, Odd x → Odd y → Odd (x * y)",
			[]Concept{{Phrase: "odd integer", Names: []string{"Odd"}}}, nil},
		{"subject's noun claimed", "Every prime number greater than 2 is odd.", "(p : ℕ) (h : 2 < p) : Nat.Prime p ∧ Odd p",
			[]Concept{{Phrase: "prime number", Names: []string{"Nat.Prime"}}}, []string{"omits 'prime' as a hypothesis ('every prime number')"}},
		{"asserted, not assumed", "There are infinitely many prime numbers.", ": Set.Infinite {p : ℕ | Nat.Prime p}",
			[]Concept{{Phrase: "prime number", Names: []string{"Nat.Prime"}}}, nil},
		{"predicated, not assumed", "Show that the square of n is an odd integer.", "(n : ℤ) (h : Odd n) : Odd (n ^ 2)",
			[]Concept{{Phrase: "odd integer", Names: []string{"Odd"}}}, nil},
		// fewer false flags: x * x is a square, a ∣ b says divides, a type
		// ascription names its numbers, an auto-bound variable is "every"
		{"square as x * x", "The square of an odd number is odd.", "(x : ℕ) (h : Odd x) : Odd (x * x)",
			[]Concept{{Phrase: "square", Names: []string{"IsSquare"}}, {Phrase: "odd", Names: []string{"Odd"}}}, nil},
		{"square missing", "The square of an odd number is odd.", "(x : ℕ) (h : Odd x) : Odd (x + x)",
			[]Concept{{Phrase: "square", Names: []string{"IsSquare"}}, {Phrase: "odd", Names: []string{"Odd"}}}, []string{"omits 'square'"}},
		{"divides as ∣", "If a divides b and b divides c then a divides c.", "(a b c : ℕ) (h₁ : a ∣ b) (h₂ : b ∣ c) : a ∣ c",
			[]Concept{{Phrase: "a divides b", Names: nil}}, nil},
		{"divisible as ∣", "If n is divisible by 6 then n is even.", "(n : ℕ) (h : 6 ∣ n) : Even n",
			[]Concept{{Phrase: "divisible", Names: nil}}, nil},
		{"divides missing", "If a divides b and b divides c then a divides c.", "(a b c : ℕ) (h₁ : a ≤ b) (h₂ : b ≤ c) : a ≤ c",
			[]Concept{{Phrase: "a divides b", Names: nil}}, []string{"omits 'divides'"}},
		{"natural number as ℕ", "Every natural number has a successor.", "(n : ℕ) : ∃ m, m = n + 1",
			[]Concept{{Phrase: "natural number", Names: nil}}, nil},
		{"natural number as Nat", "Every natural number has a successor.", "(n : Nat) : ∃ m, m = n + 1",
			[]Concept{{Phrase: "natural number", Names: nil}}, nil},
		{"real number as ℝ", "Every real number has an additive inverse.", "(x : ℝ) : ∃ y, x + y = 0",
			[]Concept{{Phrase: "real number", Names: nil}}, nil},
		{"natural number missing", "Every natural number has a successor.", "(n : ℤ) : ∃ m, m = n + 1",
			[]Concept{{Phrase: "natural number", Names: nil}}, []string{"omits 'natural'"}},
		{"every as an auto-bound variable", "Every natural number plus zero is itself.", "n + 0 = n", nil, nil},
		{"for all as an auto-bound variable", "For all x, x * 1 = x.", "x * 1 = x", nil, nil},
		{"any as an auto-bound subscripted variable", "Any a₁ satisfies a₁ = a₁.", "a₁ = a₁", nil, nil},
		{"every without a variable", "Every natural number plus zero is itself.", "(3 : ℕ) + 0 = 3", nil, []string{"omits 'Every'"}},
		{"every with only a bound variable", "Every natural number plus zero is itself.", "∃ n : ℕ, n + 0 = n", nil, []string{"omits 'Every'"}},
		{"every with a field, not a variable", "Every natural number plus zero is itself.", "Nat.zero + 0 = Nat.zero", nil, []string{"omits 'Every'"}},

		// comparisons in prose and LaTeX
		{"at least", "Let $k$ be at least 3. Then $k^2 > 8$.", "(k : ℕ) (h : 3 ≤ k) : k ^ 2 > 8", nil, nil},
		{"at least as strict", "Let $k$ be at least 3. Then $k^2 > 8$.", "(k : ℕ) (h : 2 < k) : k ^ 2 > 8", nil, nil},
		{"at least dropped", "Let $k$ be at least 3. Then $k^2 > 8$.", "(k : ℕ) (h : 3 < k) : k ^ 2 > 8", nil, []string{"omits 'at least 3'"}},
		{"at most", "A set with at most 5 elements is finite.", "(s : Finset ℕ) (h : s.card ≤ 5) : (s : Set ℕ).Finite", nil, nil},
		{"at most shifted", "A set with at most 5 elements is finite.", "(s : Finset ℕ) (h : s.card < 5) : (s : Set ℕ).Finite", nil, []string{"omits 'at most 5'"}},
		{"number word", "If $n$ is greater than two then $n^2 > n$.", "(n : ℕ) (h : 2 < n) : n ^ 2 > n", nil, nil},
		{"number word dropped", "If $n$ is greater than two then $n^2 > n$.", "(n : ℕ) (h : 1 < n) : n ^ 2 > n", nil, []string{"omits 'greater than two'"}},
		{"LaTeX geq", "Show that for $n \\geq 1$, $2^n > n$.", "(n : ℕ) (h : 1 ≤ n) : 2 ^ n > n", nil, nil},
		{"LaTeX geq dropped", "Show that for $n \\geq 1$, $2^n > n$.", "(n : ℕ) : 2 ^ n > n", nil, []string{"omits 'n \\geq 1'"}},
		{"LaTeX chain", "If $0 < x < 1$ then $x^2 < x$.", "(x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x ^ 2 < x", nil, nil},
		{"LaTeX chain half dropped", "If $0 < x < 1$ then $x^2 < x$.", "(x : ℝ) (h₁ : x < 1) : x ^ 2 < x", nil, []string{"omits '0 < x'"}},
		{"negative numeral", "Show that if $x > -1$ then $x + 1 > 0$.", "(x : ℝ) (h : -1 < x) : x + 1 > 0", nil, nil},
		{"typed numeral", "Show that if $x > 2$ then $x^2 > 4$.", "(x : ℝ) (h : (2 : ℝ) < x) : x ^ 2 > 4", nil, nil},
		{"decimal as fraction", "If $t$ is less than $3.5$ then $t < 4$.", "(t : ℝ) (h : t < 7 / 2) : t < 4", nil, nil},
		{"fraction as decimal", "If $t < \\frac{7}{2}$ then $t < 4$.", "(t : ℝ) (h : t < 3.5) : t < 4", nil, nil},
		{"fraction in lowest terms", "Show that if $\\frac{8}{15} < x$ then $x > 0$.", "(x : ℝ) (h : (16 : ℝ) / 30 < x) : x > 0", nil, nil},
		{"fraction bound weakened", "Show that if $\\frac{8}{15} < x$ then $x > 0$.", "(x : ℝ) (h : (8 : ℝ) / 15 ≤ x) : x > 0", nil, []string{"omits '\\frac{8}{15} < x'"}},
		{"fraction changed", "If $t < \\frac{7}{2}$ then $t < 4$.", "(t : ℝ) (h : t < 7 / 3) : t < 4", nil, []string{"omits 't < \\frac{7}{2}'"}},
		{"interval", "Every $x \\in [0, 1]$ satisfies $x^2 \\le x$.", "(x : ℝ) (hx : x ∈ Set.Icc 0 1) : x ^ 2 ≤ x", nil, nil},
		{"interval as the unit interval", "Every $x \\in [0, 1]$ satisfies $x^2 \\le x$.", "(x : unitInterval) : (x : ℝ) ^ 2 ≤ x", nil, nil},
		{"interval dropped", "Every $x \\in [0, 1]$ satisfies $x^2 \\le x$.", "(x : ℝ) (hx : x ≤ 1) : x ^ 2 ≤ x", nil, []string{"omits '[0, 1]'"}},

		// sign words
		{"positive", "For every positive integer $n$, $n^2 \\ge n$.", "(n : ℕ) (h : 0 < n) : n ^ 2 ≥ n", nil, nil},
		{"positive as PNat", "For every positive integer $n$, $n^2 \\ge n$.", "(n : ℕ+) : n ^ 2 ≥ n", nil, nil},
		{"positive as nonzero natural", "For every positive integer $n$, $n^2 \\ge n$.", "(n : ℕ) (h : n ≠ 0) : n ^ 2 ≥ n", nil, nil},
		{"positive dropped", "For every positive integer $n$, $n^2 \\ge n$.", "(n : ℕ) : n ^ 2 ≥ n", nil, []string{"omits 'positive'"}},
		{"positive said of three", "For positive reals $a$, $b$ and $c$, show that $(a+b)(b+c)(c+a) \\geq 8abc$.",
			"(a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : (a + b) * (b + c) * (c + a) ≥ 8 * a * b * c", nil, nil},
		{"positive said of three, one weakened", "For positive reals $a$, $b$ and $c$, show that $(a+b)(b+c)(c+a) \\geq 8abc$.",
			"(a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 ≤ c) : (a + b) * (b + c) * (c + a) ≥ 8 * a * b * c", nil, []string{"omits 'positive'"}},
		{"positive said before", "Suppose $x$ and $y$ are positive. Show that $x + y > 0$.", "(x y : ℝ) (h : 0 < x ∧ 0 < y) : x + y > 0", nil, nil},
		{"positive real is not nonzero", "Let $x$ be a positive real. Then $\\sqrt{x^2} = x$.", "(x : ℝ) (h : x ≠ 0) : Real.sqrt (x ^ 2) = x", nil, []string{"omits 'positive'"}},
		{"non-negative by type", "For non-negative reals $a, b$, $\\sqrt{ab} \\le (a+b)/2$.", "(a b : NNReal) : NNReal.sqrt (a * b) ≤ (a + b) / 2", nil, nil},
		{"non-negative dropped", "For non-negative reals $a, b$, $\\sqrt{ab} \\le (a+b)/2$.", "(a b : ℝ) : Real.sqrt (a * b) ≤ (a + b) / 2", nil, []string{"omits 'non-negative'"}},
		{"square root dropped", "For positive real numbers a and b, the square root of a times b is at most (a + b) / 2.",
			"(a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a * b ≤ (a + b) / 2", nil, []string{"omits 'square root'"}},
		{"square root as Real.sqrt", "For positive real numbers a and b, the square root of a times b is at most (a + b) / 2.",
			"(a b : ℝ) (ha : 0 < a) (hb : 0 < b) : Real.sqrt (a * b) ≤ (a + b) / 2", nil, nil},
		{"square root as an exponent", "For positive real numbers a and b, the square root of a times b is at most (a + b) / 2.",
			"(a b : ℝ) (ha : 0 < a) (hb : 0 < b) : (a * b) ^ ((1 : ℝ) / 2) ≤ (a + b) / 2", nil, nil},
		{"cube root as √ is not a cube root", "The cube root of 27 is 3.", "√ 27 = 3", nil, []string{"omits 'cube root'"}},
		{"a cube root is a property", "Show that $w$ is a cube root of 1.", "(w : ℂ) (h : w = 1) : w ^ 3 = 1", nil, nil},
		{"nonzero", "If $a$ is a nonzero rational then $a \\cdot a^{-1} = 1$.", "(a : ℚ) (h : a ≠ 0) : a * a⁻¹ = 1", nil, nil},
		{"negative", "If $a$ is negative then $a^3 < 0$.", "(a : ℤ) (h : a < 0) : a ^ 3 < 0", nil, nil},
		{"positive definite is no sign", "Every positive definite matrix is invertible.", "(n : ℕ) (A : Matrix (Fin n) (Fin n) ℝ) (h : A.PosDef) : IsUnit A", nil, nil},

		// quantifier words
		{"exactly", "A set with exactly 3 elements has 8 subsets.", "(s : Finset ℕ) (h : s.card = 3) : s.powerset.card = 8", nil, nil},
		{"exactly as a bound", "A set with exactly 3 elements has 8 subsets.", "(s : Finset ℕ) (h : s.card ≤ 3) : s.powerset.card = 8", nil, []string{"omits 'exactly 3'"}},
		{"exactly one", "Show that there is exactly one real $x$ with $x^3 = 8$.", "∃! x : ℝ, x ^ 3 = 8", nil, nil},
		{"unique", "Prove that the identity of a group is unique.", "(G : Type*) [Group G] : ∃! e : G, ∀ g : G, e * g = g", nil, nil},
		{"unique dropped", "Prove that the identity of a group is unique.", "(G : Type*) [Group G] : ∃ e : G, ∀ g : G, e * g ≠ g⁻¹", nil, []string{"omits 'unique'"}},
		{"distinct", "If $p$ and $q$ are distinct primes then $pq$ is not a square.", "(p q : ℕ) (hp : p.Prime) (hq : q.Prime) (h : p ≠ q) : ¬ IsSquare (p * q)", nil, nil},
		{"distinct dropped", "If $p$ and $q$ are distinct primes then $pq$ is not a square.", "(p q : ℕ) (hp : p.Prime) (hq : q.Prime) : IsSquare (p * q) → False", nil, []string{"omits 'distinct'"}},
		{"there exists asserted", "Prove that there exists a prime greater than $n$.", "(n : ℕ) : ∃ p, Nat.Prime p ∧ n < p", nil, nil},
		{"there exists dropped", "Prove that there exists a prime greater than $n$.", "(n p : ℕ) (hp : Nat.Prime p) : n < p", nil, []string{"omits 'there exists'"}},
		{"there exists assumed", "If there exists $x$ with $f(x) = 0$, then $f$ is not injective or $f$ is zero.", "(f : ℝ → ℝ) (x : ℝ) (hx : f x = 0) : ¬ Function.Injective f ∨ f = 0", nil, nil},
		{"there is no", "Show that there is no rational whose square is 2.", "¬ ∃ q : ℚ, q ^ 2 = 2", nil, nil},
		{"every without binder", "Every natural number is at most its square.", "∀ n : ℕ, n ≤ n ^ 2", nil, nil},
		{"infinitely many as a set", "Show that there are infinitely many primes of the form $3n+2$.", "Set.Infinite {p : ℕ | p.Prime ∧ p % 3 = 2}", nil, nil},
		{"infinitely many as unbounded", "Show that there are infinitely many primes of the form $3n+2$.", "∀ N : ℕ, ∃ p ≥ N, p.Prime ∧ p % 3 = 2", nil, nil},
		{"infinitely many as uniqueness", "Show that there are infinitely many primes of the form $3n+2$.",
			"(n : ℕ) : ∃ (p : ℤ), Prime p ∧ p % 3 = 2 ∧ ∀ (q : ℤ), Prime q ∧ q % 3 = 2 → p = q", nil, []string{"omits 'infinitely many'"}},
		{"not infinitely many", "Show that there are not infinitely many primes dividing $12$.", "{p : ℕ | p.Prime ∧ p ∣ 12}.Finite", nil, nil},

		// numerals
		{"quantities", "Show that $2^8 \\bmod 5$ is 1.", "2 ^ 8 % 5 = 1", nil, nil},
		{"quantity changed", "Show that $2^8 \\bmod 5$ is 1.", "2 ^ 8 % 5 = 3", nil, []string{"omits '1'"}},
		{"numeral written as often", "Show that $x^2 + y^2 \\ge 2xy$.", "(x y : ℝ) : x ^ 2 + y ^ 2 ≥ 2 * x * y", nil, nil},
		{"numeral written less often", "Show that $x^2 + y^2 \\ge 2xy$.", "(x y : ℝ) : x ^ 2 + y ^ 3 ≥ 2 * x * y", nil, []string{"omits '2' (the statement writes it 3 times)"}},
		{"numeral written as a product", "Show that $x^2 + y^2 \\ge 2xy$.", "(x y : ℝ) : x ^ 2 + y * y ≥ 2 * x * y", nil, nil},
		{"thousands", "Show that 1,000 is divisible by 8.", "8 ∣ 1000", nil, nil},
		{"twice", "Twice an odd number is even.", "(n : ℕ) (h : Odd n) : Even (2 * n)", nil, nil},
		{"square", "The square of a multiple of 3 is a multiple of 9.", "(n : ℕ) (h : 3 ∣ n) : 9 ∣ n ^ 2", nil, nil},
		{"square dropped", "The square of a multiple of 3 is a multiple of 9.", "(n : ℕ) (h : 3 ∣ n) : 9 ∣ n * 9", nil, []string{"omits 'square'"}},
		{"cube", "The cube of a multiple of 2 is a multiple of 8.", "(n : ℕ) (h : 2 ∣ n) : 8 ∣ n ^ 3", nil, nil},
		{"cube dropped", "The cube of a number divisible by 4 is divisible by 4.", "(n : ℕ) (h : 4 ∣ n) : 4 ∣ n ^ 2", nil, []string{"omits 'cube'"}},
		{"ellipsis terms", "Prove that $1 + 2 + \\cdots + n = n(n+1)/2$.", "(n : ℕ) : ∑ i ∈ Finset.range (n + 1), i = n * (n + 1) / 2", nil, nil},
		{"subscripts are arguments", "If $a_1 = 5$ and $a_{n+1} = a_n + 3$, then $a_{10} = 32$.", "(a : ℕ → ℕ) (h₀ : a 1 = 5) (h : ∀ n, a (n + 1) = a n + 3) : a 10 = 32", nil, nil},
		{"subscripts shifted", "If $a_1 = 5$ and $a_{n+1} = a_n + 3$, then $a_{10} = 32$.", "(a : ℕ → ℕ) (h₀ : a 0 = 5) (h : ∀ n, a (n + 1) = a n + 3) : a 9 = 32", nil,
			[]string{"omits 'a_1 = 5'", "omits 'a_{10} = 32'"}},
		{"subscripts are no quantities", "Let $M_0$ and $M_1$ be the bounds of $|f|$ and $|f'|$. Show that $M_1 \\le M_0$.", "(f : ℝ → ℝ) (M0 M1 : ℝ) (h₀ : ∀ x, |f x| ≤ M0) (h₁ : ∀ x, |deriv f x| ≤ M1) : M1 ≤ M0", nil, nil},
		{"field size is a quantity", "Prove that $x^2 + 1$ is irreducible over $\\mathbb{F}_7$.", "Irreducible (X ^ 2 + 1 : Polynomial (ZMod 7))", nil, nil},
		{"field size changed", "Prove that $x^2 + 1$ is irreducible over $\\mathbb{F}_7$.", "Irreducible (X ^ 2 + 1 : Polynomial (ZMod 5))", nil, []string{"omits '\\mathbb{F}_7'"}},
		{"positive integers as a set", "Show that $2^n > n$ for all $n \\in \\mathbb{Z}^{+}$.", "(n : ℕ) (h : 0 < n) : 2 ^ n > n", nil, nil},
		{"positive integers dropped", "Show that $2^n > n$ for all $n \\in \\mathbb{Z}^{+}$.", "(n : ℤ) : 2 ^ n > n", nil, []string{"omits '\\mathbb{Z}^{+}'"}},
		{"space exponent", "Every linear map from $\\mathbb{R}^2$ to itself is continuous.", "(f : (Fin 2 → ℝ) →ₗ[ℝ] Fin 2 → ℝ) : Continuous f", nil, nil},
		{"multiple choice", "What is $3 + 4$? $\\textbf{(A)}\\ 5 \\qquad \\textbf{(B)}\\ 6 \\qquad \\textbf{(C)}\\ 7 \\qquad \\textbf{(D)}\\ 8$ Show that it is 7.", "(3 : ℕ) + 4 = 7", nil, nil},
		{"definition is no condition", "A number is called large if it exceeds 100. Show that $x^2 \\ge 0$.", "(x : ℝ) : x ^ 2 ≥ 0", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Check(tc.statement, tc.stub, tc.concepts)
			var got []string
			for _, f := range res.Findings() {
				got = append(got, f.Message)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Check(%q, %q):\n got  %q\n want %q\n conditions %+v", tc.statement, tc.stub, got, tc.want, res.Conditions)
			}
			// one finding per uncovered condition, but one for two of one word
			if len(res.Findings()) > len(res.Conditions)-res.Covered() || res.Complete() != (len(got) == 0) {
				t.Errorf("counts disagree: %d findings, %d/%d covered", len(res.Findings()), res.Covered(), len(res.Conditions))
			}
		})
	}
}

// TestFindingNamesThePhrase checks the finding's fields and the verdict
// line for the demo.
func TestFindingNamesThePhrase(t *testing.T) {
	res := Check(demo, "(n : ℕ) (hp : Mm.Prime n) : Mm.Odd n", demoConcepts)
	fs := res.Findings()
	if len(fs) != 1 || fs[0].Kind != KindComparison || fs[0].Phrase != "greater than 2" || fs[0].Message != "omits 'greater than 2'" {
		t.Fatalf("findings = %+v", fs)
	}
	if got, want := res.Verdict(), "covers 3/4 conditions"; got != want {
		t.Errorf("Verdict() = %q, want %q (conditions %+v)", got, want, res.Conditions)
	}
	if got := Check("", "", nil).Verdict(); got != "no conditions found" {
		t.Errorf("empty Verdict() = %q", got)
	}
	if got := Check("Every $x \\ge 1$.", "(x : ℕ) (h : 1 ≤ x) : x ≠ 0", nil).Verdict(); got != "covers 2/2 conditions" {
		t.Errorf("Verdict() = %q", got)
	}
}

// TestDeterministic checks that the same input gives the same result.
func TestDeterministic(t *testing.T) {
	cases := readCases(t)
	for _, c := range cases {
		a := render(c)
		for range 3 {
			if b := render(c); b != a {
				t.Fatalf("%s: results differ:\n%s\n%s", c.name, a, b)
			}
		}
	}
}

// FuzzCheck feeds arbitrary text: Check must not panic and its phrases
// must be text of the statement.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{demo, "$x \\ge", "\\frac", "$$", "(A) (B) (C) (D)", "non-", "\xff\xfe $1,", "there", "exactly", "\\text{"} {
		f.Add(s, "(n : ℕ) (h : 2 < n) : Odd n")
	}
	f.Fuzz(func(t *testing.T, statement, stub string) {
		res := Check(statement, stub, []Concept{{Phrase: statement}})
		for _, c := range res.Conditions {
			if c.Kind != KindConcept && !strings.Contains(strings.ToValidUTF8(statement, " "), c.Phrase) {
				t.Errorf("phrase %q is not in the statement", c.Phrase)
			}
		}
	})
}

// goldenCase is one (statement, stub, concepts) triple of testdata/cases.txt.
type goldenCase struct {
	name, statement, stub string
	concepts              []Concept
}

// readCases reads testdata/cases.txt: blocks of "# name", "statement: …",
// "stub: …" and any number of "concept: phrase = Name, Name" lines.
func readCases(t testing.TB) []goldenCase {
	data, err := os.ReadFile(filepath.Join("testdata", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenCase
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "# "):
			out = append(out, goldenCase{name: strings.TrimPrefix(line, "# ")})
		case len(out) == 0 || strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "statement: "):
			out[len(out)-1].statement = strings.TrimPrefix(line, "statement: ")
		case strings.HasPrefix(line, "stub: "):
			out[len(out)-1].stub = strings.TrimPrefix(line, "stub: ")
		case strings.HasPrefix(line, "concept: "):
			phrase, names, _ := strings.Cut(strings.TrimPrefix(line, "concept: "), " = ")
			c := Concept{Phrase: phrase}
			for _, n := range strings.Split(names, ",") {
				if n = strings.TrimSpace(n); n != "" {
					c.Names = append(c.Names, n)
				}
			}
			last := &out[len(out)-1]
			last.concepts = append(last.concepts, c)
		default:
			t.Fatalf("cases.txt: unexpected line %q", line)
		}
	}
	return out
}

// render prints one case's result for the golden file.
func render(c goldenCase) string {
	var b strings.Builder
	res := Check(c.statement, c.stub, c.concepts)
	fmt.Fprintf(&b, "# %s\n%s\n", c.name, res.Verdict())
	for _, cd := range res.Conditions {
		mark := "omitted"
		if cd.Covered {
			mark = "covered"
		}
		fmt.Fprintf(&b, "  %s %-10s %q\n", mark, cd.Kind, cd.Phrase)
	}
	for _, f := range res.Findings() {
		fmt.Fprintf(&b, "  finding: %s\n", f.Message)
	}
	return b.String()
}

// TestGolden checks every case of testdata/cases.txt against
// testdata/cases.golden (go test -run TestGolden -update rewrites it).
func TestGolden(t *testing.T) {
	var b bytes.Buffer
	for _, c := range readCases(t) {
		b.WriteString(render(c))
		b.WriteString("\n")
	}
	path := filepath.Join("testdata", "cases.golden")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("golden mismatch (go test -run TestGolden -update to accept):\n%s", b.String())
	}
}

// BenchmarkCheck measures one Check over each golden case in turn.
func BenchmarkCheck(b *testing.B) {
	cases := readCases(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := cases[i%len(cases)]
		Check(c.statement, c.stub, c.concepts)
		i++
	}
}

// TestConditionSubject: an omitted comparison carries its bound and what
// it is said of, for drift's deterministic repair.
func TestConditionSubject(t *testing.T) {
	for _, c := range []struct {
		statement, phrase, rel, value, noun string
		vars                                []string
	}{
		{"Every prime number greater than 2 is odd.", "greater than 2", ">", "2", "prime number", nil},
		{"If $n$ is at least 3, then n! is even.", "at least 3", "≥", "3", "", []string{"n"}},
		{"For positive integers $x$ and $y$, x + y > 1.", "positive", ">", "0", "integers", []string{"x", "y"}},
		{"If $x$ and $y$ are positive, then x y is positive.", "positive", ">", "0", "", []string{"x", "y"}},
		// "a" opens a list of letters after the noun, not an article
		{"For positive real numbers a and b, √(a b) ≤ (a + b) / 2.", "positive", ">", "0", "real numbers", []string{"a", "b"}},
		{"Let $n > 2$ be an integer. Then n ^ 2 > 4.", "n > 2", ">", "2", "", []string{"n"}},
		{"Every nonzero real number has a reciprocal.", "nonzero", "≠", "0", "real number", nil},
	} {
		res := Check(c.statement, "(z : ℕ) : True", nil)
		var got *Condition
		for i := range res.Conditions {
			if res.Conditions[i].Phrase == c.phrase {
				got = &res.Conditions[i]
			}
		}
		if got == nil || got.Bound == nil {
			t.Errorf("%q: no comparison %q in %+v", c.statement, c.phrase, res.Conditions)
			continue
		}
		if got.Bound.Rel != c.rel || got.Bound.Value != c.value || got.Subject.Noun != c.noun || !slices.Equal(got.Subject.Vars, c.vars) {
			t.Errorf("%q: %s %s of %+v, want %s %s of %q %v", c.statement, got.Bound.Rel, got.Bound.Value, got.Subject, c.rel, c.value, c.noun, c.vars)
		}
	}
}

func TestNotations(t *testing.T) {
	for _, c := range []struct {
		statement string
		want      []Notation
	}{
		{"If a divides b and b divides c, then a divides c.", []Notation{{"divides", "a divides b is a ∣ b (the symbol ∣)"}}},
		{"If n is divisible by 6, then n is divisible by 3.", []Notation{{"divisible", "b is divisible by a is a ∣ b (the divisor first) (the symbol ∣)"}}},
		{"Every integer greater than 1 has a prime factor.", []Notation{{"factor", "a is a factor of b is a ∣ b (the symbol ∣)"}}},
		{"A multiple of 4 has even divisors.", []Notation{{"multiple", "b is a multiple of a is a ∣ b (the divisor first) (the symbol ∣)"},
			{"divisors", "a is a divisor of b is a ∣ b (the symbol ∣)"}}},
		{"Six divided by two is three, and 5! is a factorial.", nil},
		{"The square of an even integer is even.", nil},
	} {
		if got := Notations(c.statement); !slices.Equal(got, c.want) {
			t.Errorf("Notations(%q) = %q, want %q", c.statement, got, c.want)
		}
	}
}
