package elab

import (
	"slices"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// testDecls are Mathlib's declarations as the indexer reads them (the
// signatures as written, Value where the falsifier keeps one), plus a
// definition in a file with section variables (inexact).
var testDecls = []*library.Decl{
	{Name: "Nat.Prime", Kind: library.KindDef, Signature: "def Nat.Prime (p : ℕ)", Value: "Irreducible p"},
	{Name: "Irreducible", Kind: library.KindStructure, Signature: "structure Irreducible {M : Type*} [Monoid M] (p : M) : Prop"},
	{Name: "Prime", Kind: library.KindDef, Signature: "def Prime {M : Type*} [CommMonoidWithZero M] (p : M) : Prop"},
	{Name: "NNReal", Kind: library.KindDef, Signature: "def NNReal", Value: "{ r : ℝ // 0 ≤ r } deriving\n  Zero, One"},
	{Name: "Nat.Primes", Kind: library.KindDef, Signature: "def Nat.Primes", Value: "{ p : ℕ // p.Prime }\n  deriving DecidableEq"},
	{Name: "Real", Kind: library.KindStructure, Signature: "structure Real"},
	{Name: "Real.sqrt", Kind: library.KindDef, Signature: "def Real.sqrt (x : ℝ) : ℝ"},
	{Name: "Nat.factorial", Kind: library.KindDef, Signature: "def Nat.factorial : ℕ → ℕ"},
	{Name: "Nat.prime_two", Kind: library.KindTheorem, Signature: "theorem Nat.prime_two : Prime 2"},
	{Name: "Nat.Prime.two_le", Kind: library.KindTheorem, Signature: "theorem Nat.Prime.two_le : ∀ {p : ℕ}, Prime p → 2 ≤ p"},
	{Name: "IsOpen", Kind: library.KindDef, Signature: "def IsOpen {X : Type u} [TopologicalSpace X] : Set X → Prop"},
	{Name: "Set", Kind: library.KindDef, Signature: "def Set (α : Type u)", Value: "α → Prop"},
	{Name: "Infinite", Kind: library.KindClass, Signature: "class Infinite (α : Sort*) : Prop"},
	{Name: "Even", Kind: library.KindDef, Signature: "def Even {α : Type*} [Add α] (a : α) : Prop"},
	{Name: "Finset.card", Kind: library.KindDef, Signature: "def Finset.card {α : Type*} (s : Finset α) : ℕ"},
	{Name: "Nat.divisors", Kind: library.KindDef, Signature: "def Nat.divisors : Finset ℕ"},
	{Name: "CharP", Kind: library.KindClass, Signature: "class CharP : Prop"},
	{Name: "IsCompact", Kind: library.KindDef, Signature: "def IsCompact (R : Type) (s : Set R)"},
	{Name: "Opt", Kind: library.KindDef, Signature: "def Opt (n : ℕ) (k : ℕ := 2) : Prop"},
	{Name: "Group", Kind: library.KindClass, Signature: "class Group (G : Type u) extends DivInvMonoid G"},
	{Name: "Nat.Prime.two_le", Kind: library.KindTheorem, Signature: "theorem Nat.Prime.two_le {p : ℕ} (hp : p.Prime) : 2 ≤ p"},
	{Name: "Set.Infinite", Kind: library.KindDef, Signature: "def Set.Infinite {α : Type u} (s : Set α) : Prop"},
	{Name: "Real.log", Kind: library.KindDef, Signature: "def Real.log (x : ℝ) : ℝ"},
	{Name: "Nat.totient", Kind: library.KindDef, Signature: "def Nat.totient (n : ℕ) : ℕ"},
	{Name: "Complex", Kind: library.KindStructure, Signature: "structure Complex : Type"},
	{Name: "Complex.re", Kind: library.KindField, Parent: "Complex", Signature: "field Complex.re : ℝ"},
	{Name: "Finset.range", Kind: library.KindDef, Signature: "def Finset.range (n : ℕ) : Finset ℕ"},
	{Name: "DivisibleBy", Kind: library.KindClass, Signature: "class DivisibleBy"},
	{Name: "Finset", Kind: library.KindStructure, Signature: "structure Finset (α : Type*)"},
	{Name: "Finset.sum", Kind: library.KindDef, Signature: "def Finset.sum {β α : Type*} [AddCommMonoid β] (s : Finset α) (f : α → β) : β"},
	{Name: "Hom", Kind: library.KindStructure, Signature: "structure Hom (M : Type*) (N : Type*)"},
	{Name: "Hom.toFun", Kind: library.KindField, Parent: "Hom", Signature: "field Hom.toFun : M → N"},
	{Name: "AddHom2", Kind: library.KindStructure, Signature: "structure AddHom2 (M : Type*) (N : Type*) extends Hom M N"},
	{Name: "AddHom2.toHom", Kind: library.KindField, Parent: "AddHom2", Signature: "field AddHom2.toHom : Hom"},
	{Name: "PropHom", Kind: library.KindStructure, Signature: "structure PropHom (M : Type*) (N : Type*) extends Hom M N : Prop"},
	{Name: "PropHom.toHom", Kind: library.KindField, Parent: "PropHom", Signature: "field PropHom.toHom : Hom"},
	{Name: "Differentiable", Kind: library.KindDef, Signature: "def Differentiable {E F : Type*} (f : E → F) : Prop"},
	{Name: "PosMono", Kind: library.KindClass, Signature: "class PosMono (α : Type*) [Mul α] extends Cov α (fun x y => x * y) (· ≤ ·) : Prop"},
	{Name: "Finset.filter", Kind: library.KindDef, Signature: "def Finset.filter {α : Type*} (p : α → Prop) [DecidablePred p] (s : Finset α) : Finset α"},
	{Name: "starRingEnd", Kind: library.KindDef, Signature: "def starRingEnd (R : Type u) [CommSemiring R] [StarRing R] : R →+* R"},
	{Name: "algebraMap", Kind: library.KindDef, Signature: "def algebraMap (R : Type u) (A : Type v) [CommSemiring R] [Semiring A] [Algebra R A] : R →+* A"},
	{Name: "IsOpenMap", Kind: library.KindDef, Signature: "def IsOpenMap {X Y : Type*} [TopologicalSpace X] [TopologicalSpace Y] (f : X → Y) : Prop"},
}

// inexact are the declarations whose file binds explicit section variables.
var inexact = map[string]bool{"Nat.divisors": true, "CharP": true, "IsCompact": true}

func testEnv() Env {
	byName := map[string]*library.Decl{}
	for _, d := range testDecls {
		byName[d.Name] = d
	}
	return Env{
		Resolve: func(name string) []string {
			if _, ok := byName[name]; ok || coreFuncs[name].params != nil {
				return []string{name}
			}
			return nil
		},
		Lookup: func(full string) (*library.Decl, bool) { d, ok := byName[full]; return d, ok },
		SectionVariables: func(d *library.Decl) ([]string, bool) {
			if d.Name == "DivisibleBy" {
				return []string{"A", "α"}, true
			}
			if inexact[d.Name] {
				return []string{"n", "R"}, true
			}
			return nil, true
		},
		// class DivisibleBy where div : A → α → A, under variable (A α : Type*)
		FieldVariables: func(d *library.Decl) int {
			if d.Name == "DivisibleBy" {
				return 2
			}
			return 0
		},
		// Positive is only a namespace (Positive.coe_add …)
		OnlyNamespace: func(name string) bool { return name == "Positive" },
	}
}

func check(t *testing.T, stub string, env Env) []Finding {
	t.Helper()
	s, err := leansrc.ParseStub(stub, nil)
	if err != nil {
		t.Fatalf("%s: %v", stub, err)
	}
	return Check(s, env)
}

// findings checks stub and joins its findings' "text: message" with " | ".
func findings(t *testing.T, stub string, env Env) string {
	t.Helper()
	var got []string
	for _, f := range check(t, stub, env) {
		s, _ := leansrc.ParseStub(stub, nil)
		got = append(got, s.Text[f.Start:f.End]+": "+f.Message)
	}
	return strings.Join(got, " | ")
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		stub string
		want string // the findings' "text: message" joined by " | "; "" for none
	}{
		// a type applied as a function
		{"theorem a (x : ℝ) (h : 0 ≤ x) : NNReal (x ^ 2) := by sorry", "NNReal (x ^ 2): function expected: `NNReal` is a type, it cannot be applied to an argument"},
		{"theorem a (p : ℕ) : Infinite (Nat.Primes p) := by sorry", "(Nat.Primes p): function expected: `Nat.Primes` is a type, it cannot be applied to an argument"},
		{"theorem a (x : ℝ) : Real x := by sorry", "Real x: function expected: `Real` is a type, it cannot be applied to an argument"},
		{"theorem a (x : ℕ) : ℕ x := by sorry", "ℕ x: function expected: `ℕ` is a type, it cannot be applied to an argument"},
		// a ∀ where a function is expected: a sort, which no coercion
		// makes a function
		{"theorem a (s : Finset ℕ) : (Finset.filter (∀ n, n > 0) s).card = 1 := by sorry", "(∀ n, n > 0): type mismatch: `Finset.filter` expects a function of type `α → Prop`, but `(∀ n, n > 0)` is a proposition or a type (a predicate is written `fun x => …`)"},
		// a pair where a number is expected
		{"theorem a (a b : ℕ) : Nat.Prime (a, b) := by sorry", "(a, b): type mismatch: `(a, b)` is a pair (a `Prod`), but `Nat.Prime` expects a value of type ℕ (its arguments are written apart: `Nat.Prime a b`)"},
		// too many arguments
		{"theorem a (n : ℕ) : Nat.Prime n n := by sorry", "Nat.Prime n n: too many arguments: `Nat.Prime` takes 1 explicit argument, given 2"},
		{"theorem a (x : ℝ) : Real.sqrt x x = x := by sorry", "Real.sqrt x x: too many arguments: `Real.sqrt` takes 1 explicit argument, given 2"},
		{"theorem a (n : ℕ) : Nat.factorial n n = 1 := by sorry", "Nat.factorial n n: too many arguments: `Nat.factorial` takes 1 explicit argument, given 2"},
		// a predicate or a theorem where a proposition is expected
		{"theorem a (s : Set ℝ) (h : IsOpen) : IsOpen s := by sorry", "IsOpen: type expected: `IsOpen` is a function (it takes 1 explicit argument, given 0); it must be applied to its arguments"},
		{"theorem a (s : Set ℝ) (h : IsCompact) : True := by sorry", "IsCompact: type expected: `IsCompact` is a function (it takes at least 1 explicit argument, given 0); it must be applied to its arguments"},
		{"theorem a (G : Group) : True := by sorry", "Group: type expected: `Group` is a function (it takes 1 explicit argument, given 0); it must be applied to its arguments"},
		{"theorem a (p : ℕ) (hp : Nat.prime_two) : p = 2 := by sorry", "Nat.prime_two: type expected: `Nat.prime_two` is a theorem, a proof and not a proposition"},
		{"theorem a (p : ℕ) : Nat.Prime p ∧ Nat.prime_two := by sorry", "Nat.prime_two: type expected: `Nat.prime_two` is a theorem, a proof and not a proposition"},
		// numeric types: no coercion down
		{"theorem a (x : ℤ) (h : Nat.Prime x) : x > 1 := by sorry", "x: `Nat.Prime` expects a ℕ, but `x` is ℤ (no coercion ℤ → ℕ)"},
		{"theorem a (x y : ℝ) : Nat.Prime (x + 2 * y) := by sorry", "(x + 2 * y): `Nat.Prime` expects a ℕ, but `(x + 2 * y)` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (n : ℤ) : Nat.factorial n > 0 := by sorry", "n: `Nat.factorial` expects a ℕ, but `n` is ℤ (no coercion ℤ → ℕ)"},
		{"theorem a : ∀ x : ℚ, Nat.Prime x → x > 1 := by sorry", "x: `Nat.Prime` expects a ℕ, but `x` is ℚ (no coercion ℚ → ℕ)"},
		{"theorem a (x : ℝ) : Nat.Prime (Real.sqrt x) := by sorry", "(Real.sqrt x): `Nat.Prime` expects a ℕ, but `(Real.sqrt x)` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (a b : ℕ) : Nat.gcd a b b = 1 := by sorry", "Nat.gcd a b b: too many arguments: `Nat.gcd` takes 2 explicit arguments, given 3"},
		{"theorem a (a b : ℤ) : Nat.Coprime a b := by sorry", "a: `Nat.Coprime` expects a ℕ, but `a` is ℤ (no coercion ℤ → ℕ) | b: `Nat.Coprime` expects a ℕ, but `b` is ℤ (no coercion ℤ → ℕ)"},
		{"theorem a (x : ℝ) : ((x : ℕ) : ℝ) = x := by sorry", "x: the ascription expects a ℕ, but `x` is ℝ (no coercion ℝ → ℕ)"},
		// a theorem reached by field notation on a hypothesis is a proof
		{"theorem a (p : ℕ) (hp : p.Prime) : hp.two_le := by sorry", "hp.two_le: type expected: `Nat.Prime.two_le` is a theorem, a proof and not a proposition"},
		{"theorem a (p : ℕ) (hp : Nat.Prime p) : hp.two_le := by sorry", "hp.two_le: type expected: `Nat.Prime.two_le` is a theorem, a proof and not a proposition"},
		{"theorem a (p : ℕ) (hp : p.Prime) (h : 2 ≤ p) : hp.two_le = h ∧ hp.1 = hp.1 := by sorry", ""},
		// ∀ n ≥ N: n has N's type
		{"theorem a (u : ℕ → ℝ) (N : ℝ) : ∀ n ≥ N, u n = 0 := by sorry", "n: `u` expects a ℕ, but `n` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (u : ℕ → ℝ) (N : ℕ) : ∀ n ≥ N, u n = 0 := by sorry", ""},
		{"theorem a (u : ℕ → ℝ) : ∀ n ≥ 2, u n = 0 := by sorry", ""},
		// a sequence in any type takes numbers of its domain
		{"theorem a (X : Type*) (u : ℕ → X) (a : X) (N : ℝ) : ∀ n ≥ N, u n = a := by sorry", "n: `u` expects a ℕ, but `n` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (X : Type*) (u : ℕ → ℕ → X) (a : X) (k : ℕ) : u k 2 = u 1 k := by sorry", ""},
		// a proof, a proposition, a type or a function where a value is expected
		{"theorem a (p : ℕ) (hp : Nat.Prime p) : Set.Infinite (Nat.Prime.two_le hp) := by sorry", "(Nat.Prime.two_le hp): type mismatch: `Set.Infinite` expects a value of type `Set α`, but `(Nat.Prime.two_le hp)` is a proof (`Nat.Prime.two_le` is a theorem)"},
		{"theorem a (x : ℝ) (h : 0 < x) : Real.log (0 < x) = 0 := by sorry", "(0 < x): type mismatch: `Real.log` expects a value of type `ℝ`, but `(0 < x)` is a proposition"},
		{"theorem a (n : ℕ) : Nat.Prime ℕ := by sorry", "ℕ: type mismatch: `Nat.Prime` expects a value of type `ℕ`, but `ℕ` is a type"},
		{"theorem a (a b : ℕ) (h : a < b) : Nat.gcd h b = 1 := by sorry", "h: type mismatch: `Nat.gcd` expects a value of type `ℕ`, but `h` is a hypothesis (a proof)"},
		{"theorem a (n : ℕ) : Nat.Prime (Real.sqrt) := by sorry", "(Real.sqrt): type mismatch: `Nat.Prime` expects a value of type `ℕ`, but `(Real.sqrt)` is a function (`Real.sqrt`: it takes 1 explicit argument, given 0)"},
		{"theorem a (n : ℕ) : Nat.Prime n + 1 > 0 := by sorry", "Nat.Prime n: failed to synthesize `+`: `Nat.Prime n` is a proposition, not a number"},
		{"theorem a (m k : ℕ) (hm : m < k) : m = 2 * k + hm := by sorry", "hm: failed to synthesize `+`: `hm` is a hypothesis (a proof), not a number"},
		{"theorem a (m n : ℕ) (h : Nat.Coprime m n) : Nat.gcd m n = h := by sorry", "h: failed to synthesize `=`: `h` is a hypothesis (a proof), not a number"},
		{"theorem a (x : ℕ) (h : x ∈ Nat.Primes) : True := by sorry", "Nat.Primes: failed to synthesize `Membership`: `Nat.Primes` is a type or a proposition, not a set"},
		{"theorem a (x n : ℕ) (h : x ∈ n) : True := by sorry", "n: failed to synthesize `Membership`: `n` is a number of type ℕ, not a set"},
		{"theorem a (a b : ℕ) : Finset.range a ⊆ b := by sorry", "b: failed to synthesize `⊆`: `b` is a number of type ℕ, not a set"},
		// a number where a type is expected, a number applied
		{"theorem a (n : ℕ) (x : Nat.factorial n) : True := by sorry", "Nat.factorial n: type expected: `Nat.factorial n` is a number of type ℕ, not a type or a proposition"},
		{"theorem a (n : ℕ) : Nat.totient n ≤ n n := by sorry", "n n: function expected: `n` is a number of type ℕ, it cannot be applied to an argument"},
		// a hypothesis where a proposition is expected
		{"theorem a (x : ℕ) (h : 0 < x) (h2 : h) : True := by sorry", "h: type expected: `h` is a hypothesis, a proof and not a proposition"},
		// x.f on a number is T.f x
		{"theorem a (n : ℕ) : n.Prime n := by sorry", "n.Prime n: too many arguments: `Nat.Prime` takes 1 explicit argument, given 2"},
		{"theorem a (z : ℂ) : Nat.Prime z.re := by sorry", "z.re: `Nat.Prime` expects a ℕ, but `z.re` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (q : ℚ) : Nat.Prime q.num := by sorry", "q.num: `Nat.Prime` expects a ℕ, but `q.num` is ℤ (no coercion ℤ → ℕ)"},
		// a namespace as a term; a structure's field variables
		{"theorem a (x : ℝ) : Positive (x ^ 2 + 1) := by sorry", "Positive: unknown identifier `Positive`: the library has a namespace `Positive` but no declaration of that name"},
		{"theorem a (A : Type) (h : DivisibleBy A) : True := by sorry", "DivisibleBy A: type expected: `DivisibleBy` is a function (it takes at least 2 explicit arguments, given 1); it must be applied to its arguments"},
		// a local function between numbers applied; a number where a function is expected
		{"theorem a (f : ℕ → ℝ) : Nat.Prime (f 1) := by sorry", "(f 1): `Nat.Prime` expects a ℕ, but `(f 1)` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (f : ℕ → ℝ) (x : ℝ) : f x = 0 := by sorry", "x: `f` expects a ℕ, but `x` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (f : ℝ → ℝ) (x : ℝ) : f x x = 0 := by sorry", "f x x: function expected: `f` takes 1 explicit argument, given 2, and its value is a number of type ℝ"},
		{"theorem a (f : ℝ → ℝ) (x : ℝ) : IsOpenMap (f x) := by sorry", "(f x): type mismatch: `IsOpenMap` expects a function of type `X → Y`, but `(f x)` is a number of type ℝ"},
		// x.f on a local of a library type is T.f x
		{"theorem a (s : Finset ℕ) : s.card s = 1 := by sorry", "s.card s: too many arguments: `Finset.card` takes 1 explicit argument, given 2"},
		// a name bound nowhere
		{"theorem a (x : ℝ) (h : 0 < y) : 0 < x + y := by sorry", "y: unknown identifier `y`: no binder of the statement binds it (autoImplicit is off)"},
		// relations do not chain
		{"theorem a (x : ℝ) (h : 0 < x < 1) : x ^ 2 < 1 := by sorry", "<: unexpected token '<': relations do not chain in Lean (a < b ≤ c does not parse); state each and join them with ∧"},
		{"theorem a (n : ℕ) : 0 < ∑ i ∈ Finset.range n, i ≤ n ^ 2 := by sorry", "≤: unexpected token '≤': relations do not chain in Lean (a < b ≤ c does not parse); state each and join them with ∧"},
		{"theorem a (n : ℕ) : ∑ i ∈ Finset.range n, i = ∑ j ∈ Finset.range n, j = n := by sorry", "=: unexpected token '=': relations do not chain in Lean (a < b ≤ c does not parse); state each and join them with ∧"},
		{"theorem a (x y : ℕ) : x ∣ y ∣ x + y := by sorry", "∣: unexpected token '∣': relations do not chain in Lean (a < b ≤ c does not parse); state each and join them with ∧"},
		{"theorem a (x y : ℕ) : x = y ∣ x := by sorry", "∣: unexpected token '∣': relations do not chain in Lean (a < b ≤ c does not parse); state each and join them with ∧"},
		{"theorem a (x y : ℕ) : x ∣ y ∧ (x ∣ y) = (y ∣ x) := by sorry", ""},
		{"theorem a (x : ℝ) (h : 0 < x ∧ x < 1) : x ^ 2 < 1 := by sorry", ""},
		{"theorem a (n : ℕ) : ∑ i ∈ Finset.range n, i = n * (n - 1) / 2 ∧ n ≤ ∏ i ∈ Finset.range n, (i + 1) := by sorry", ""},
		{"theorem a (x y : ℝ) : (x = y) = (y = x) := by sorry", ""},
		{"theorem a (x : ℝ) : ∀ ε > 0, ∃ δ > 0, δ < ε := by sorry", ""},
		// a binder's membership domain that is a type: the model's sum over all naturals
		{"theorem a (n : ℕ) : ∑ i ∈ ℕ, i = n := by sorry", "ℕ: failed to synthesize `Membership`: `ℕ` is a type, not a set"},
		{"theorem a : ∀ x ∈ ℝ, x ^ 2 ≥ 0 := by sorry", "ℝ: failed to synthesize `Membership`: `ℝ` is a type, not a set"},
		{"theorem a (s : Finset ℕ) : ∑ i ∈ s, i = 0 := by sorry", ""},
		// a Greek type variable bound nowhere (the model's `(OmegaCompletePartialOrder α)`)
		{"theorem a (s : Finset α) : s.card = 0 := by sorry", "α: unknown identifier `α`: no binder of the statement binds it (autoImplicit is off)"},
		{"theorem a {α : Type} (s : Finset α) : s.card = 0 := by sorry", ""},
		{"theorem a (s : Finset ℕ) : ∀ α ∈ s, α = 0 := by sorry", ""},
		// a name bound only later
		{"theorem a (h : 0 < x) (x : ℝ) : 0 < x := by sorry", "x: unknown identifier `x`: it is bound only later in the statement, and Lean reads binders left to right (autoImplicit is off)"},
		{"theorem a (h : p.Prime) (p : ℕ) : 2 ≤ p := by sorry", "p.Prime: unknown identifier `p.Prime`: it is bound only later in the statement, and Lean reads binders left to right (autoImplicit is off)"},
		// a dotted name whose root no binder binds; a stub's type variable as a value, applied, or the type of a field's receiver
		{"theorem a (w : ℂ) (h : 0 < z.re) : True := by sorry", "z.re: unknown identifier `z.re`: no binder of the statement binds `z`, and Lean binds no dotted name automatically"},
		{"theorem a (X : Type*) (h : Set.Infinite X) : True := by sorry", "X: type mismatch: `Set.Infinite` expects a value of type `Set α`, but `X` is a type"},
		{"theorem a (X : Type u) (x : X) : Nat.Prime (X 1) := by sorry", "(X 1): function expected: `X` is a type, it cannot be applied to an argument"},
		{"theorem a (G : Type*) [Group G] (g : G) (h : g.order = 2) : True := by sorry", "g.order: invalid field notation: the type of `g` is `G`, a variable of the statement, not of the form (C …) where C is a constant"},

		// Lean 3's lambda
		{"theorem a : StrictMono (λ x : ℝ, x ^ 3) := by sorry", ",: unexpected token ','; expected '↦', '=>': a function is written fun x => … in Lean 4"},
		{"theorem a (f : ℕ → ℕ) : f = fun n, n + 1 := by sorry", ",: unexpected token ','; expected '↦', '=>': a function is written fun x => … in Lean 4"},
		{"theorem a (β : ℕ → Type) (l : List (∀ a, β a)) : l = (l.map fun f : ∀ a, β a ↦ f) := by sorry", ""},
		{"theorem a (f : ℕ × ℕ → ℕ) : f = (fun ⟨a, b⟩ => a + b) ∧ f = (fun (a, b) ↦ a) ∧ f = (fun x : ℕ × ℕ => x.1) := by sorry", ""},

		// well-typed near misses
		{"theorem a (X : Type*) (s : Set X) (h : Set.Infinite s) (G : Type) [Group G] (g : G) : Infinite X ∧ g = g := by sorry", ""},
		{"theorem a (x : NNReal) : 0 ≤ x ^ 2 := by sorry", ""},
		{"theorem a : Infinite Nat.Primes := by sorry", ""},
		{"theorem a (p : Nat.Primes) : 2 ≤ (p : ℕ) := by sorry", ""},
		{"theorem a (x : ℕ) (h : Nat.Prime (x + 1)) : Nat.Prime 7 := by sorry", ""},
		{"theorem a (x : ℤ) (h : Prime x) : x ≠ 0 := by sorry", ""},
		{"theorem a (x : ℤ) (h : Nat.Prime x.natAbs) : x ≠ 0 := by sorry", ""},
		{"theorem a (x : ℤ) (h : Nat.Prime ↑x) : True := by sorry", ""},
		{"theorem a (s : Set ℝ) (h : IsOpen s) : Even 2 := by sorry", ""},
		// numbers neither of whose types coerces to the other's
		{"theorem a (x : ENNReal) (y : ℝ) : x < y := by sorry", "x < y: type mismatch: `x` is ℝ≥0∞ and `y` is ℝ; no coercion takes either to the other's type"},
		{"theorem a (x : NNReal) (n : ℤ) (y : ℝ) (m : ℕ) : x + n = 1 ∧ x ≤ y ∧ x ≤ m := by sorry", "x + n: type mismatch: `x` is ℝ≥0 and `n` is ℤ; no coercion takes either to the other's type"},
		// a function on a Set's elements (the subtype ↥S) applied to a number, or to one of them
		{"theorem a (S : Set ℝ) (f : S → ℝ) (x : ℝ) (hx : x ∈ S) : f x = 0 := by sorry", "x: application type mismatch: `x` is a number of type ℝ, but `f` expects an element of `S` (a value of the subtype `↥S`; no coercion ℝ → ↥S)"},
		{"theorem a (S : Set ℝ) (f : S → ℝ) (x : S) (y : ℝ) (hy : y ∈ S) : f x = f ⟨y, hy⟩ := by sorry", ""},
		{"theorem a (x : ℕ) : ((x : ℤ) : ℝ) = x := by sorry", ""},
		{"theorem a (x : ℝ) : Nat.Prime 3 ∧ Real.sqrt 4 = 2 := by sorry", ""},
		// unknowable: hidden section variables, optional arguments, named and
		// explicit-mode arguments, locals applied, ambiguous or unknown names
		{"theorem a (n : ℕ) : (Nat.divisors n).card = 2 := by sorry", ""},
		{"theorem a (R : Type) (p : ℕ) : CharP R p := by sorry", ""},
		{"theorem a (s : Set ℝ) (h : IsCompact s) : True := by sorry", ""},
		{"theorem a (s : Set ℝ) (h : IsCompact ℝ s s) : True := by sorry", ""},
		{"theorem a (n : ℕ) : Opt n 3 := by sorry", ""},
		{"theorem a (n : ℕ) : Nat.Prime (p := n) := by sorry", ""},
		{"theorem a (n : ℕ) : @Nat.Prime n := by sorry", ""},
		{"theorem a (f : ℕ → ℝ) (g : ℝ → ℝ) : Nat.Prime 1 ∧ g 1 = 1 := by sorry", ""},
		{"theorem a (x : ℝ) : Unknown.thing x x := by sorry", ""},
		{"theorem a (x : ℝ) : ∃ y : ℕ, Nat.Prime y ∧ (y : ℝ) < x := by sorry", ""},
		// a header variable and Type u are not later-bound names
		{"theorem a (α : Type u) (s : Set α) : True := by sorry", ""},
		// near misses of the rules above: Pi's f + 1, a numeral beside a
		// function, fields and core functions of numbers, members of sets,
		// names bound by ∃ and fun, hypotheses compared with hypotheses, a
		// predicate where a Set is expected (Set α := α → Prop), a
		// structure's own arguments given
		{"theorem a (x : ℝ) : Real.log x + 1 > Real.sqrt 1 := by sorry", ""},
		{"theorem a (f : ℝ → ℝ) : Real.sqrt + 1 = f := by sorry", ""},
		// a function beside a ℕ: Pi's NatCast makes `f = n` `f = ↑n`
		{"theorem a (s : Finset ℕ) (n : ℕ) : s.card = Finset.sum s ∧ Nat.factorial = n := by sorry", ""},
		{"theorem a (z : ℂ) (q : ℚ) (n : ℤ) : z.re ≤ 1 ∧ 0 < q.num ∧ q.den ≥ 1 ∧ n.natAbs ≥ 0 := by sorry", ""},
		{"theorem a (n : ℕ) (h : n.Prime) : n.totient < n := by sorry", ""},
		{"theorem a (x : ℕ) (h : x ∈ Finset.range 5) (s : Finset ℕ) (hs : s ⊆ Finset.range 3) : x < 5 := by sorry", ""},
		{"theorem a (x : ℝ) : ∃ y, y = x + 1 ∧ (fun t => t + y) 0 = y := by sorry", ""},
		{"theorem a (a b : ℕ) (h h' : a ≤ b) : h = h' := by sorry", ""},
		{"theorem a (p q : Prop) (hp : p) : p ∨ q := by sorry", ""},
		{"theorem a : Set.Infinite Nat.Prime := by sorry", ""},
		{"theorem a (A B : Type) (h : DivisibleBy A B) : True := by sorry", ""},
		{"theorem a (x : ℝ) (h : 0 < x) : ∀ y, y = x := by sorry", ""},
		{"theorem a (s : Finset ℕ) (t : Set ℕ) : s.card = 3 ∧ s.card ≤ Finset.card s ∧ s.sum id = 0 ∧ t.Infinite := by sorry", ""},
		{"theorem a (f : ℝ → ℝ) (g : ℕ → ℕ → ℕ) : IsOpenMap f ∧ IsOpenMap (g 1) ∧ g 1 2 = 3 ∧ f (g 1 2) = 0 := by sorry", ""},
		// notation the parser splits: ℝ≥0 is no relation, ×ℂ no product
		{"theorem a (s : Set ℝ≥0) (x : ℝ≥0∞) : Set.Infinite s ∧ x + 1 ≠ 0 := by sorry", ""},
		{"theorem a (s t : Set ℝ) : IsOpen (s ×ℂ t) := by sorry", ""},
	} {
		if g := findings(t, tc.stub, testEnv()); g != tc.want {
			t.Errorf("%s\n got: %s\nwant: %s", tc.stub, g, tc.want)
		}
	}
}

func TestAutoImplicitSilencesLaterBinders(t *testing.T) {
	env := testEnv()
	env.AutoImplicit = true
	for _, stub := range []string{
		"theorem a (h : 0 < x) (x : ℝ) : 0 < x := by sorry",
		"theorem a (x : ℝ) (h : 0 < y) : 0 < x + y := by sorry",
		"theorem a (x : ℝ) : Positive x := by sorry",
	} {
		if fs := check(t, stub, env); len(fs) != 0 {
			t.Errorf("autoImplicit on: %s: %v", stub, fs)
		}
	}
	// but Lean binds no dotted name automatically
	if fs := check(t, "theorem a (x : ℝ) (h : 0 < y.re) : 0 < x := by sorry", env); len(fs) != 1 || fs[0].Name != "y.re" {
		t.Errorf("autoImplicit on, y.re: %v", fs)
	}
	// notation from the header may give a letter a meaning
	env = testEnv()
	env.Notation = true
	if fs := check(t, "theorem a (x : ℝ) (h : 0 < y) : 0 < x + y := by sorry", env); len(fs) != 0 {
		t.Errorf("header notation: %v", fs)
	}
}

func TestRetype(t *testing.T) {
	for _, tc := range []struct{ stub, want string }{
		{"theorem a (x : ℤ) (h : Nat.Prime x) : x > 1 := by sorry", "theorem a (x : ℕ) (h : Nat.Prime x) : x > 1 := by sorry"},
		{"theorem a (n : ℝ) (h : 0 < n) : Nat.factorial n > 0 := by sorry", "theorem a (n : ℕ) (h : 0 < n) : Nat.factorial n > 0 := by sorry"},
		// x - 1 truncates in ℕ: not safe
		{"theorem a (x : ℤ) (h : Nat.Prime x) : x - 1 ≥ 0 := by sorry", ""},
		// a group binder, a binop argument, a shadowing ∀, an ascription: not retyped
		{"theorem a (x y : ℤ) (h : Nat.Prime x) : True := by sorry", ""},
		{"theorem a (x : ℤ) (h : Nat.Prime (x + 1)) : True := by sorry", ""},
		{"theorem a (x : ℤ) (h : Nat.Prime x) : ∀ x : ℤ, x = x := by sorry", ""},
		{"theorem a (x : ℝ) : Real.sqrt (x : ℕ) = 1 := by sorry", ""},
	} {
		s, err := leansrc.ParseStub(tc.stub, nil)
		if err != nil {
			t.Fatal(err)
		}
		fs := Check(s, testEnv())
		if len(fs) == 0 {
			t.Fatalf("%s: no finding", tc.stub)
		}
		got, ok := Retype(s.Text, fs)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("%s\n got: %s\nwant: %s", tc.stub, got, tc.want)
		}
	}
}

// factsDecls extend testDecls with what the rules that read the library's
// instances and section variables need.
var factsDecls = []*library.Decl{
	{Name: "Measure", Kind: library.KindStructure, Signature: "structure Measure (α : Type*) [MeasurableSpace α]"},
	{Name: "FinDim", Kind: library.KindDef, Signature: "def FinDim (K V : Type*) [DivisionRing K] [AddCommGroup V] [Module K V] : Prop"},
	{Name: "GroupLike", Kind: library.KindDef, Signature: "def GroupLike (G : Type*) [Group G] : Prop"},
	{Name: "Nat.digits", Kind: library.KindDef, Signature: "def Nat.digits (b : ℕ) (n : ℕ) : List ℕ"},
	{Name: "PNat", Kind: library.KindDef, Signature: "def PNat", Value: "{ n : ℕ // 0 < n } deriving DecidableEq"},
	{Name: "PNat.gcd", Kind: library.KindDef, Signature: "def PNat.gcd (n m : PNat) : PNat"},
	{Name: "Sub1", Kind: library.KindStructure, Signature: "structure Sub1 (α : Type*)"},
	{Name: "Sub1.carrier", Kind: library.KindField, Parent: "Sub1", Signature: "field Sub1.carrier : Set α"},
	{Name: "Sub2", Kind: library.KindStructure, Signature: "structure Sub2 (α : Type*) extends Sub1 α"},
	{Name: "MeasureSpace", Kind: library.KindClass, Signature: "class MeasureSpace (α : Type*) extends MeasurableSpace α"},
	{Name: "MeasureSpace.volume", Kind: library.KindField, Parent: "MeasureSpace", Signature: "field MeasureSpace.volume : Measure α"},
	{Name: "Odd", Kind: library.KindDef, Signature: "def Odd {α : Type*} [Semiring α] (a : α) : Prop"},
	{Name: "IsTop", Kind: library.KindDef, Signature: "def IsTop {α : Type*} [Lattice α] (a : α) : Prop"},
	{Name: "double", Kind: library.KindDef, Signature: "def double {α : Type*} [Add α] (a : α) : α"},
	{Name: "Real.exp", Kind: library.KindDef, Signature: "def Real.exp (x : ℝ) : ℝ"},
	{Name: "Nat.primeFactors", Kind: library.KindDef, Signature: "def Nat.primeFactors (n : ℕ) : Finset ℕ"},
	{Name: "Skel", Kind: library.KindStructure, Signature: "structure Skel"},
	{Name: "Skel.one", Kind: library.KindDef, Signature: "def Skel.one : Skel"},
	{Name: "Subgroup", Kind: library.KindStructure, Signature: "structure Subgroup (G : Type*) extends Submonoid G"},
	{Name: "Graph", Kind: library.KindStructure, Signature: "structure Graph"},
	{Name: "Filter", Kind: library.KindStructure, Signature: "structure Filter (α : Type*)"},
	{Name: "nhds", Kind: library.KindDef, Signature: "irreducible_def nhds {X : Type*} (x : X) : Filter X"},
	{Name: "Graph.«end»", Kind: library.KindDef, Signature: "def Graph.«end» (G : Graph) : Prop"},
	{Name: "DifferentiableAt", Kind: library.KindDef, Signature: "def DifferentiableAt {E F : Type*} (f : E → F) (x : E)", Value: "∃ f', HasFDerivAt f f' x"},
	{Name: "Mulish", Kind: library.KindClass, Signature: "class Mulish (α : Type*)"},
	{Name: "Mulish.op", Kind: library.KindField, Parent: "Mulish", Signature: "field Mulish.op : α → α → α"},
	{Name: "Reflish", Kind: library.KindClass, Signature: "class Reflish (α : Type*)"},
	{Name: "Reflish.refl", Kind: library.KindField, Parent: "Reflish", Signature: "field Reflish.refl : ∀ a : α, a = a"},
	{Name: "Cont", Kind: library.KindStructure, Signature: "structure Cont {X : Type u} {Y : Type v} [TopologicalSpace X] [TopologicalSpace Y] (f : X → Y) : Prop"},
	{Name: "Cont.pre", Kind: library.KindField, Parent: "Cont", Signature: "field Cont.pre : ∀ s, IsOpen s → IsOpen (f ⁻¹' s)"},
	{Name: "Freiman", Kind: library.KindStructure, Signature: "structure Freiman {α β : Type*} [CommMonoid α] [CommMonoid β] (f : α → β) : Prop"},
	{Name: "Freiman.map", Kind: library.KindField, Parent: "Freiman", Signature: "field Freiman.map : ∀ a b, f (a + b) = f a + f b"},
}

// factsEnv is testEnv over testDecls and factsDecls: Prop is a Lattice
// and nothing else, ℝ and ℂ have no coercion to functions, a Skel may be
// coerced to Prop, a Filter to no sort, and DifferentiableAt's file has the explicit section
// variable 𝕜 (read whole unless loose).
func factsEnv(loose bool) Env {
	env := testEnv()
	byName := map[string]*library.Decl{}
	for _, d := range append(append([]*library.Decl{}, testDecls...), factsDecls...) {
		byName[d.Name] = d
	}
	env.Resolve = func(name string) []string {
		if _, ok := byName[name]; ok || coreFuncs[name].params != nil {
			return []string{name}
		}
		return nil
	}
	env.Lookup = func(full string) (*library.Decl, bool) { d, ok := byName[full]; return d, ok }
	vars := env.SectionVariables
	env.SectionVariables = func(d *library.Decl) ([]string, bool) {
		if d.Name == "DifferentiableAt" || d.Name == "Differentiable" {
			return []string{"𝕜"}, true
		}
		return vars(d)
	}
	env.Fields = func(d *library.Decl) []string {
		var out []string
		for _, f := range append(append([]*library.Decl{}, testDecls...), factsDecls...) {
			if f.Kind == library.KindField && f.Parent == d.Name {
				out = append(out, strings.TrimPrefix(f.Signature, "field "+f.Name+" : "))
			}
		}
		return out
	}
	env.AddedVariables = func(d *library.Decl) ([]string, bool) {
		if d.Name == "Differentiable" {
			return []string{"Type*"}, true // its body uses 𝕜
		}
		return nil, false
	}
	env.AllVariablesRead = func(d *library.Decl) bool { return !loose }
	env.PropInstance = func(class string, pos int) bool { return class == "Lattice" }
	env.CoercesToFunction = func(string) bool { return false }
	env.SortToProp = func(full string) bool { return full == "Skel" }
	env.CoercesToSort = func(full string) bool { return full != "Filter" && full != "" } // "": a function type
	env.NumberBeside = func(full, n string) bool { return full == "Subgroup" || full == "Measure" }
	env.NumberTo = env.NumberBeside
	env.VariableHas = func(classes []string, class string) bool {
		return slices.Contains(classes, class) || class == "MeasurableSpace" && slices.Contains(classes, "MeasureSpace")
	}
	env.FunctionType = func(full string) (string, string) {
		if full == "Measure" {
			return "Set", "ENNReal"
		}
		return "", ""
	}
	return env
}

func TestLibraryFactsRules(t *testing.T) {
	for _, tc := range []struct {
		stub  string
		loose bool
		want  string
	}{
		// a proposition where a class-constrained type variable is expected
		{"theorem a (n : ℕ) (h : Nat.Prime n) : Even (n.Prime) := by sorry", false, "(n.Prime): failed to synthesize `Add Prop`: `Even` expects a value of a type with `Add`, but `(n.Prime)` is a proposition (the library has no such instance for Prop)"},
		{"theorem a (a b : ℕ) : Odd (a < b) := by sorry", false, "(a < b): failed to synthesize `Semiring Prop`: `Odd` expects a value of a type with `Semiring`, but `(a < b)` is a proposition (the library has no such instance for Prop)"},
		// a predicate where a function into a class-constrained type
		// variable is expected
		{"theorem a (n : ℕ) : Finset.sum (Finset.range n) Nat.Prime ≤ n := by sorry", false, "Nat.Prime: failed to synthesize `AddCommMonoid Prop`: `Finset.sum` expects a function into a type with `AddCommMonoid`, but `Nat.Prime` is a predicate (its values are propositions, and the library has no such instance for Prop)"},
		// a signature's (α : Type*) binder counts: a class taking one
		{"theorem a (h : PosMono ℝ ℝ) : True := by sorry", false, "PosMono ℝ ℝ: too many arguments: `PosMono` takes 1 explicit argument, given 2"},
		// a function beside a real value
		{"theorem a (x : ℝ) : Real.log x ≤ x * Real.exp := by sorry", false, "Real.exp: failed to synthesize `*`: `Real.exp` is a function (`Real.exp`: it takes 1 explicit argument, given 0), not a number"},
		{"theorem a (x : ℝ) : Real.log x ≤ Real.exp - 1 := by sorry", false, "Real.exp - 1: failed to synthesize `≤`: `Real.exp - 1` is a function (`Real.exp`: it takes 1 explicit argument, given 0), not a number"},
		{"theorem a (f : ℝ → ℝ) (x : ℝ) : f ≤ x := by sorry", false, "f: failed to synthesize `≤`: `f` is a function (`f`: a local function between numbers), not a number"},
		// a theorem whose statement is a value
		{"theorem a (n : ℕ) : Nat.primeFactors n := by sorry", false, "Nat.primeFactors n: type of theorem is not a proposition: `Nat.primeFactors n` is a value of type `Finset`"},
		// a value of a structure with no sort coercion as a hypothesis's type
		{"theorem a (x : ℝ) (h : nhds x) : True := by sorry", false, "nhds x: type expected: `nhds x` is a value of type `Filter`, not a type or a proposition (no coercion to a sort)"},
		// a field a library structure does not have
		// a field of a projected structure value
		{"theorem a (n : ℕ) : (Nat.primeFactors n).length ≤ n := by sorry", false, "(Nat.primeFactors n).length: invalid field `length`: the environment does not contain `Finset.length` (`(Nat.primeFactors n)` is a `Finset`)"},
		// a field of a field: s.card is a ℕ, whose Prime takes one argument
		{"theorem a (s : Finset ℕ) (h : s.card.Prime 2) : s.card.Prime := by sorry", false, "s.card.Prime 2: too many arguments: `Nat.Prime` takes 1 explicit argument, given 2"},
		// core's max needs a Max instance, which ℂ lacks
		{"theorem a (z w : ℂ) (x : ℝ) : max x x = x ∧ max z w = z := by sorry", false, "z: failed to synthesize `Max ℂ`: `max` expects a value of a type with `Max`, but `z` is ℂ, which has no linear order"},
		// a class over ℝ a type variable with only an additive group lacks
		{"theorem a (V : Type*) [AddCommGroup V] (h : FinDim ℝ V) : True := by sorry", false, "V: failed to synthesize `Module ℝ V`: `FinDim` needs an instance `[Module ℝ V]`, and `V` has only `[AddCommGroup V]`, which gives it no structure over ℝ (add `[Module ℝ V]`)"},
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] (h : FinDim ℝ V) : True := by sorry", false, ""},
		// a class with a data field is a type, which ∧ does not join; one
		// of proof fields only is a proposition
		{"theorem a (α : Type) : Mulish α ∧ True := by sorry", false, "Mulish α: type mismatch: `Mulish α` is a type (a class of data, whose instances are structures), not a proposition; assume it as an instance binder, or state `Nonempty (Mulish α)`"},
		{"theorem a (α : Type) : Reflish α ∧ True := by sorry", false, ""},
		// a structure's instance on a variable fixed inside an argument's
		// type, which its fields use (IsOpen takes a TopologicalSpace);
		// one its fields do not use Lean does not add
		{"theorem a (X Y : Type*) [TopologicalSpace X] (f : X → Y) (h : Cont f) : True := by sorry", false, "f: failed to synthesize `TopologicalSpace Y`: `Cont` needs an instance `[TopologicalSpace Y]`, and `Y` has no local instance (nor does the library give every type one)"},
		{"theorem a (X Y : Type*) [TopologicalSpace X] [TopologicalSpace Y] (f : X → Y) (h : Cont f) : True := by sorry", false, ""},
		{"theorem a (A B : Type*) [AddCommMonoid A] [AddCommMonoid B] (f : A → B) (h : Freiman f) : True := by sorry", false, ""},
		// a Set where a type with a group structure is expected: ↥H has none
		{"theorem a (G : Type*) [Group G] (H : Set G) (h : GroupLike H) : GroupLike G := by sorry", false, "H: failed to synthesize `Group ↥H`: `H` is a Set, and no instance gives the elements of a set a Group (a subgroup is `(H : Subgroup G)`)"},
		// a value of Lean core's List beside a numeral
		{"theorem a (n : ℕ) : Nat.digits 10 n % 9 = n % 9 := by sorry", false, "9: failed to synthesize `OfNat (List …) 9`: the numeral stands beside `Nat.digits 10 n`, a value of type `List …`, which has no numerals (no NatCast, no OfNat instance)"},
		// a subtype is a structure's type: no cast takes a ℕ there
		{"theorem a (n : ℕ) (m : PNat) : PNat.gcd n m = m ∧ PNat.gcd m m = m := by sorry", false, "n: type mismatch: `PNat.gcd` expects a value of type `PNat`, but `n` is a number of type ℕ (no cast or coercion ℕ → PNat)"},
		// a structure's field notation looks in the structures it extends
		{"theorem a (H : Sub2 ℕ) (h : H.card = 2) : H.carrier = H.carrier := by sorry", false, "H.card: invalid field `card`: the environment does not contain `Sub2.card` (`H` is a `Sub2`)"},
		{"theorem a (x : ℝ) (h : x.Irrational) : True := by sorry", false, "x.Irrational: invalid field `Irrational`: the environment does not contain `Real.Irrational` (`x` is a `Real`)"},
		{"theorem a (s : Finset ℕ) (h : s.Infinite) : True := by sorry", false, "s.Infinite: invalid field `Infinite`: the environment does not contain `Finset.Infinite` (`s` is a `Finset`)"},
		// the section variables a body certainly uses, before the
		// parameters: Differentiable 𝕜 f
		{"theorem a (f : ℝ → ℝ) (h : Differentiable f) : True := by sorry", false, "Differentiable f: type expected: `Differentiable` is a function (it takes 2 explicit arguments, given 1); it must be applied to its arguments | f: type mismatch: `Differentiable` expects a type (`Type*`) here, but `f` is a function (a local function between numbers)"},
		{"theorem a (f : ℝ → ℝ) (h : Differentiable ℝ f) : True := by sorry", false, ""},
		{"theorem a (f : ℝ → ℝ) : Differentiable f f := by sorry", false, "f: type mismatch: `Differentiable` expects a type (`Type*`) here, but `f` is a function (a local function between numbers)"},
		// a type of data as a theorem's statement: a structure with a
		// data field (its own or a parent's), a core number type
		{"theorem a (f : ℝ → ℝ) : AddHom2 ℝ ℝ := by sorry", false, "AddHom2 ℝ ℝ: type of theorem is not a proposition: `AddHom2 ℝ ℝ` is a type"},
		{"theorem a : ℕ := by sorry", false, "ℕ: type of theorem is not a proposition: `ℕ` is a type"},
		{"theorem a : PropHom ℝ ℝ := by sorry", false, ""},
		{"example : Hom ℝ ℝ := by sorry", false, ""},
		// a structure's value beside a number, neither cast nor coerced to the other
		{"theorem a (n : ℕ) (hn : 0 < n) : Nat.primeFactors n ≤ n := by sorry", false, "n: type mismatch: `n` is a number of type ℕ, beside `Nat.primeFactors n`, a value of type `Finset …`; no cast or coercion joins them"},
		{"theorem a (s : Finset ℕ) : s = 3 := by sorry", false, "3: failed to synthesize `OfNat (Finset …) 3`: the numeral stands beside `s`, a value of type `Finset …`, which has no numerals (no NatCast, no OfNat instance)"},
		// more arguments than the parameters and the section variables
		{"theorem a (f : ℝ → ℝ) (x : ℝ) (h : DifferentiableAt ℝ f x x) : True := by sorry", false, "DifferentiableAt ℝ f x x: too many arguments: `DifferentiableAt` takes at most 3 explicit arguments (with the explicit section variables of its file), given 4"},

		// untouched: a function into numbers; a predicate where one is
		// expected (Finset.filter's p : α → Prop)
		{"theorem a (n : ℕ) : Finset.sum (Finset.range n) Nat.factorial ≤ n := by sorry", false, ""},
		{"theorem a (n : ℕ) (h : Finset.filter Nat.Prime (Finset.range n) = ∅) : True := by sorry", false, ""},
		// untouched: Prop is a Lattice; a variable the result fixes first
		{"theorem a (p : Prop) : IsTop (p ∧ p) := by sorry", false, ""},
		{"theorem a (n : ℕ) : double (n.Prime) := by sorry", false, ""},
		// Pi's numerals, casts and powers
		{"theorem a (n : ℤ) (x : ℝ) : Real.exp + n = 2 * Real.exp ∧ Real.exp ^ x = Real.exp := by sorry", false, ""},
		// a value that may coerce to a sort (a Finset's elements), or to
		// Prop; an example's type may be any
		{"theorem a (n : ℕ) (h : Nat.primeFactors n) : True := by sorry", false, ""},
		{"theorem a : Skel.one := by sorry", false, ""},
		{"example (n : ℕ) : Nat.primeFactors n := by sorry", false, ""},
		// a structure that extends another (its parents' fields), a field
		// Lean generates, a number of Lean core
		{"theorem a (s : Subgroup ℕ) (x : ℝ) (n : ℕ) (h : s.Foo ∧ x.ext ∧ n.Foo) : True := by sorry", false, ""},
		// a field whose name is a keyword: G.end is Graph.«end»
		{"theorem a (G : Graph) (h : G.end) : True := by sorry", false, ""},
		// a function that is no predicate as a divisor of a number, as a set
		// a value of the statement's type variable where a number is expected
		{"theorem a (G : Type*) [Group G] (g : G) : Nat.Prime g := by sorry", false, "g: `Nat.Prime` expects a ℕ, but `g` has type G, a type variable of the statement (no coercion G → ℕ)"},
		{"theorem a (G : Type*) [CoeTC G ℕ] (g : G) : Nat.Prime g := by sorry", false, ""},
		{"theorem a (M : Type*) [MetricSpace M] (x : M) (r : ℝ) : r ≤ x := by sorry", false, "r ≤ x: type mismatch: `r` is ℝ and `x` is of the statement's type variable M; no cast or coercion takes either to the other's type"},
		{"theorem a (R : Type*) [NatCast R] (x : R) (n : ℕ) : x ≤ n := by sorry", false, ""},
		// ∣ is no binop%: the first operand fixes the type
		{"theorem a (n : ℕ) (z : ℤ) : n ∣ z ∨ z ∣ n ∨ 2 ∣ z := by sorry", false, "z: type mismatch: `z` is ℤ, but `n` (ℕ) fixed the type of `∣` (no coercion ℤ → ℕ)"},
		{"theorem a (n : ℕ) (x : ℝ) : n ∣ Nat.primeFactors ∧ x ∈ Real.exp ∧ Nat.primeFactors ∣ n ∧ 2 ∣ Nat.primeFactors := by sorry", false, "Nat.primeFactors: failed to synthesize `∣`: `Nat.primeFactors` is a function (`Nat.primeFactors`: it takes 1 explicit argument, given 0), not a number | Real.exp: failed to synthesize `Membership`: `Real.exp` is a function (`Real.exp`: it takes 1 explicit argument, given 0), not a set"},
		// Finset's union of a bare type's elements: no DecidableEq
		{"theorem a (α : Type*) (s t : Finset α) : (s ∪ t).card ≤ s.card := by sorry", false, "(s ∪ t): failed to synthesize `DecidableEq α`: `∪` of Finsets needs it, and `α` has no local instance (add [DecidableEq α], or open Classical)"},
		{"theorem a (α : Type*) [Lattice α] (s t : Finset α) (u v : Finset ℕ) : s ∪ t = t ∪ s ∧ u ∩ v ⊆ u := by sorry", false, ""},
		// a power of a function is Pi's, a function still, beside a real
		{"theorem a (x : ℝ) : Real.exp x ^ 2 + Real.exp ^ 2 = 1 ∧ Real.exp ^ 2 + Real.exp ^ 2 = 1 := by sorry", false, "Real.exp ^ 2: failed to synthesize `+`: `Real.exp ^ 2` is a function (`Real.exp`: it takes 1 explicit argument, given 0), not a number"},
		// a measure's value (its FunLike codomain) beside a real
		// a measure's set fixes its type: volume needs a MeasureSpace
		{"theorem a (Ω : Type) [MeasurableSpace Ω] (s : Set Ω) : MeasureSpace.volume s ≤ 1 := by sorry", false, "s: failed to synthesize `MeasureSpace Ω`: `MeasureSpace.volume` needs an instance `[MeasureSpace Ω]`, and `Ω` has only `[MeasurableSpace Ω]`, from which the library derives no `MeasureSpace` instance"},
		{"theorem a (Ω : Type) [MeasureSpace Ω] (s : Set Ω) : MeasureSpace.volume s ≤ 1 := by sorry", false, ""},
		{"theorem a (Ω : Type) [MeasurableSpace Ω] (μ : Measure Ω) (s : Set Ω) (p : ℝ) (h : μ s ≤ p) : (μ s).toReal ≤ p ∧ μ s ≤ 1 := by sorry", false, "μ s ≤ p: type mismatch: `μ s` is ℝ≥0∞ and `p` is ℝ; no coercion takes either to the other's type"},
		// a size, a power, a structure the library casts numbers to
		{"theorem a (s : Finset ℕ) (n : ℕ) (G : Subgroup ℕ) : s.card = n ∧ s ^ 2 = s ∧ G = n ∧ G = 2 := by sorry", false, ""},
		// the section variables' count: within it, or not all read
		{"theorem a (f : ℝ → ℝ) (x : ℝ) (h : DifferentiableAt ℝ f x) : True := by sorry", false, ""},
		{"theorem a (f : ℝ → ℝ) (x : ℝ) (h : DifferentiableAt ℝ f x x) : True := by sorry", true, ""},
	} {
		if g := findings(t, tc.stub, factsEnv(tc.loose)); g != tc.want {
			t.Errorf("%s\n got: %s\nwant: %s", tc.stub, g, tc.want)
		}
	}
	// open Classical decides every proposition
	env := factsEnv(false)
	env.Classical = true
	if fs := check(t, "theorem a (α : Type*) (s t : Finset α) : (s ∪ t).card ≤ s.card := by sorry", env); len(fs) != 0 {
		t.Errorf("open Classical: %v", fs)
	}
	// a coercion to functions in scope (open algebraMap) silences the
	// function rule
	env = factsEnv(false)
	env.CoercesToFunction = func(string) bool { return true }
	if fs := check(t, "theorem a (x : ℝ) : Real.log x ≤ x * Real.exp := by sorry", env); len(fs) != 0 {
		t.Errorf("coercion in scope: %v", fs)
	}
}
