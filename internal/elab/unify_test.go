package elab

import (
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// unifyDecls are Mathlib declarations whose parameters' types share
// variables, as the indexer reads them (R and n are section variables).
var unifyDecls = []*library.Decl{
	{Name: "Polynomial", Kind: library.KindStructure, Signature: "structure Polynomial (R : Type*) [Semiring R]"},
	{Name: "Polynomial.IsRoot", Kind: library.KindDef, Signature: "def Polynomial.IsRoot (p : R[X]) (a : R) : Prop"},
	{Name: "Polynomial.eval", Kind: library.KindDef, Signature: "def Polynomial.eval (x : R) (p : R[X]) : R"},
	{Name: "Polynomial.AllRoot", Kind: library.KindDef, Signature: "def Polynomial.AllRoot (S : Set R[X]) (a : R) : Prop"},
	{Name: "Matrix", Kind: library.KindDef, Signature: "def Matrix (m : Type u) (n : Type u') (α : Type v) : Type max u u' v", Value: "m → n → α"},
	{Name: "Matrix.det", Kind: library.KindDef, Signature: "def Matrix.det (M : Matrix n n R) : R"},
	{Name: "Function.comp", Kind: library.KindDef, Signature: "def Function.comp {α β δ} (f : β → δ) (g : α → β) : α → δ"},
	{Name: "Dist", Kind: library.KindClass, Signature: "class Dist (α : Type*)"},
	{Name: "Dist.dist", Kind: library.KindField, Parent: "Dist", Signature: "field Dist.dist : α → α → ℝ"},
	{Name: "Valuation.RankOne", Kind: library.KindClass, Signature: "class Valuation.RankOne (v : Valuation R Γ₀)"},
	{Name: "Valuation.RankOne.hom", Kind: library.KindField, Parent: "Valuation.RankOne", Signature: "field Valuation.RankOne.hom : Γ₀ → ℝ"},
	{Name: "Calc.fd", Kind: library.KindDef, Signature: "def Calc.fd {E F : Type*} (f : E → F) (x : E) : F"},
	{Name: "Calc.d", Kind: library.KindDef, Signature: "def Calc.d {K : Type*} {F : Type*} (f : K → F) (x : K)", Value: "fd f x"},
	{Name: "Star", Kind: library.KindClass, Signature: "class Star (R : Type u)"},
	{Name: "Star.star", Kind: library.KindField, Parent: "Star", Signature: "field Star.star : R → R"},
	{Name: "max", Kind: library.KindDef, Signature: "def max {α : Type u} [Max α] (a b : α) : α"},
	{Name: "Polynomial.roots", Kind: library.KindDef, Signature: "def Polynomial.roots {R : Type u} [CommRing R] [IsDomain R] (p : R[X]) : Multiset R"},
	{Name: "ZMod", Kind: library.KindDef, Signature: "def ZMod : ℕ → Type"},
	{Name: "Fintype.card", Kind: library.KindDef, Signature: "def Fintype.card (α : Type*) [Fintype α] : ℕ"},
}

// unifyEnv is notationEnv with unifyDecls and Mathlib's `R[X]`.
func unifyEnv() Env {
	env := withDecls(notationEnv(), unifyDecls)
	env.Postfix = func(atom string) (string, bool) { return "Polynomial", atom == "[X]" }
	return env
}

// TestUnify: two arguments whose types fix one of the signature's
// variables to types that certainly differ; coercions up, types that
// might unfold to each other, and unknown types stay silent.
func TestUnify(t *testing.T) {
	for _, tc := range []struct{ stub, want string }{
		// a variable fixed inside one argument's type, then met by a number with no coercion down
		{"theorem a (p : Polynomial ℚ) (x : ℝ) (h : p.IsRoot x) : True := by sorry", "x: application type mismatch: `x` has type `ℝ`, but `Polynomial.IsRoot` expects `R` here, which `p` fixed to `ℚ` (no coercion ℝ → ℚ)"},
		{"theorem a (p : ℚ[X]) (x : ℝ) (h : Polynomial.IsRoot p x) : True := by sorry", "x: application type mismatch: `x` has type `ℝ`, but `Polynomial.IsRoot` expects `R` here, which `p` fixed to `ℚ` (no coercion ℝ → ℚ)"},
		{"theorem a (p : Polynomial ℝ) (n : ℕ) (x : ℝ) (h : p.IsRoot n ∧ p.IsRoot x) : True := by sorry", ""}, // ℕ → ℝ
		// the postfix notation as an argument of a type (Set R[X])
		{"theorem a (S : Set ℚ[X]) (x : ℝ) (h : Polynomial.AllRoot S x) : True := by sorry", "x: application type mismatch: `x` has type `ℝ`, but `Polynomial.AllRoot` expects `R` here, which `S` fixed to `ℚ` (no coercion ℝ → ℚ)"},
		// the number first: a coercion might still be found
		{"theorem a (p : Polynomial ℝ) (q : ℚ) (x : ℝ) : Polynomial.eval q p = Polynomial.eval x p := by sorry", ""},
		{"theorem a (p : Polynomial ℚ) (x : ℝ) : Polynomial.eval x p = 0 := by sorry", "p: application type mismatch: `p` has type `Polynomial ℚ`, but `Polynomial.eval` expects `Polynomial R`, and `R` would be both `ℝ` (from `x`) and `ℚ`"},
		// inside two arguments' types: rigid types that differ
		{"theorem a (A : Matrix (Fin 2) (Fin 3) ℝ) : Matrix.det A = 0 := by sorry", "A: application type mismatch: `A` has type `Matrix (Fin 2) (Fin 3) ℝ`, but `Matrix.det` expects `Matrix n n R`, and `n` would be both `Fin 2` and `Fin 3`"},
		{"theorem a (n : ℕ) (A : Matrix (Fin 2) (Fin 2) ℝ) (B : Matrix (Fin n) (Fin n) ℝ) : Matrix.det A = Matrix.det B := by sorry", ""},
		{"theorem a (f : ℕ → ℝ) (g : ℤ → ℕ) : Function.comp f g = Function.comp f g := by sorry", ""},
		{"theorem a (f : ℕ → ℝ) (g : ℤ → ℚ) : Function.comp f g 0 = 0 := by sorry", "g: application type mismatch: `g` has type `ℤ → ℚ`, but `Function.comp` expects `α → β`, and `β` would be both `ℕ` (from `f`) and `ℚ`"},
		// both arguments are the variable itself: the first fixes it, the second must coerce to it
		{"theorem a (n : ℕ) (x : ℝ) : max n x = x := by sorry", "x: application type mismatch: `x` has type `ℝ`, but `max` expects `α` here, which `n` fixed to `ℕ` (no coercion ℝ → ℕ)"},
		{"theorem a (n : ℕ) (x : ℝ) : max x n = x ∧ max (n : ℝ) x = x := by sorry", ""},
		// a result type fixed inside an argument's type: det A is ℝ, no function
		{"theorem a (A : Matrix (Fin 2) (Fin 2) ℝ) (x : ℝ) : Matrix.det A A = x ∧ A.det = x := by sorry", "Matrix.det A A: too many arguments: `Matrix.det` takes 1 explicit argument, given 2 (its value here is a number of type ℝ, no function)"},
		// …but not by an argument of the result's type itself (an expected type may fix it)
		{"theorem a (p : Polynomial ℝ) (x : ℝ) : Polynomial.eval x p x = 0 := by sorry", ""},
		// a matrix times a vector: no HMul instance
		{"theorem a (A : Matrix (Fin 2) (Fin 2) ℝ) (v : Fin 2 → ℝ) (c : ℝ) : A * v = c • v := by sorry",
			"A * v: failed to synthesize `HMul`: `A` is a matrix and `v` a vector (of type `Fin 2 → ℝ`); no instance multiplies them: a matrix times a vector is `A *ᵥ v` (Matrix.mulVec), a vector times a matrix `v ᵥ* A`"},
		{"theorem a (A : Matrix (Fin 2) (Fin 2) ℝ) (B : Fin 2 → Fin 2 → ℝ) (c : ℝ) : A * B = A := by sorry", ""},
		// a matrix product whose inner dimensions differ
		{"theorem a (A B : Matrix (Fin 2) (Fin 3) ℝ) (C : Matrix (Fin 3) (Fin 2) ℝ) : A * B = A ∧ A * C = C * A := by sorry", "A * B: failed to synthesize `HMul`: `A` has Fin 3 columns and `B` has Fin 2 rows; a matrix product needs them equal (an entrywise product is `A ⊙ B`)"},
		// given all its arguments, a value of the type an argument of the
		// result's type has (an expected type fixing R first needs x to
		// coerce to it just the same)
		{"theorem a (x : ℝ) (n : ℕ) (h : Nat.Prime (Star.star x)) : Real.sqrt (Star.star n) = 0 := by sorry", "(Star.star x): `Nat.Prime` expects a ℕ, but `(Star.star x)` is ℝ (no coercion ℝ → ℕ)"},
		// a definition without a result type whose body's value is a
		// variable its own argument fixes (deriv f x := fderiv 𝕜 f x 1);
		// a constant between numbers has its arrow type
		{"theorem a (f : ℝ → ℝ) (x : ℝ) : Calc.d f x x = 0 ∧ Calc.d Real.log x x = 0 ∧ Calc.d f x = 0 := by sorry", "Calc.d f x x: too many arguments: `Calc.d` takes 2 explicit arguments, given 3 (its value here is a number of type ℝ, no function) | Calc.d Real.log x x: too many arguments: `Calc.d` takes 2 explicit arguments, given 3 (its value here is a number of type ℝ, no function)"},
		// a matrix's row, and a sum of rows, are functions; an entry is a number
		{"theorem a (A : Matrix (Fin 2) (Fin 2) ℝ) (x : ℝ) : x = ∑ i, A i ∧ x = ∑ i, A i i := by sorry", "∑ i, A i: failed to synthesize `=`: `∑ i, A i` is a function (`A`: a sum of functions (a row of the matrix, a function of its column), itself a function), not a number"},
		// a class's field: its parameters are implicit when its type mentions them
		{"theorem a (n : ℕ) (x : ℝ) (h : Dist.dist n x < 1 ∧ Dist.dist x n < 1) : True := by sorry", "x: application type mismatch: `x` has type `ℝ`, but `Dist.dist` expects `α` here, which `n` fixed to `ℕ` (no coercion ℝ → ℕ)"},
		{"theorem a (x : ℝ) (h : Dist.dist x x x < 1) : True := by sorry", "Dist.dist x x x: too many arguments: `Dist.dist` takes 2 explicit arguments, given 3"},
		{"theorem a (x : ℝ) (h : Valuation.RankOne.hom x x = 1) : True := by sorry", ""},
		// a stub's type variable is rigid; an unknown type is silent
		{"theorem a (G : Type*) [Semiring G] (p : Polynomial G) (q : Polynomial ℝ) (h : Polynomial.eval (Polynomial.eval 0 q) p = 0) : True := by sorry", ""},
		{"theorem a (G : Type*) [Semiring G] (p : Polynomial G) (A : Matrix G ℝ ℝ) (B : Matrix ℝ G ℝ) : Matrix.det A = Matrix.det B := by sorry", "A: application type mismatch: `A` has type `Matrix G ℝ ℝ`, but `Matrix.det` expects `Matrix n n R`, and `n` would be both `G` and `ℝ` | B: application type mismatch: `B` has type `Matrix ℝ G ℝ`, but `Matrix.det` expects `Matrix n n R`, and `n` would be both `ℝ` and `G`"},
		{"theorem a (p : Polynomial (Set ℕ)) (x : ℝ) (h : p.IsRoot x) : True := by sorry", ""},
		// the first argument of unknown type may fix the variable: the later may coerce to it
		{"theorem a (n : ℕ) (x : ℝ) (y : ℝ) : max (y + x) n = x ∧ max (foo y) n = x := by sorry", ""},
	} {
		if got := findings(t, tc.stub, unifyEnv()); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.stub, got, tc.want)
		}
	}
}

// TestNeedsFact: a type variable fixed inside an argument's type to a
// library type applied to a stub's variable, whose instance the library
// gives only through instances taking a `[Fact P]` (ZMod's IsDomain), with
// no Fact binder in the stub.
func TestNeedsFact(t *testing.T) {
	env := unifyEnv()
	env.NeedsFact = func(full, class string, pos int) bool {
		return full == "ZMod" && (class == "IsDomain" || class == "Fintype")
	}
	for _, tc := range []struct{ stub, want string }{
		{"theorem a (q : ℕ) (hq : q.Prime) (f : Polynomial (ZMod q)) : 0 < Multiset.card f.roots := by sorry",
			"f: failed to synthesize `IsDomain (ZMod q)`: `Polynomial.roots` needs an instance `[IsDomain R]`, and `f` makes R `ZMod q`, to which the library gives `IsDomain` only through instances that take a `[Fact …]` or `[NeZero …]`, and the statement has no such binder (a hypothesis is no instance)"},
		{"theorem a (q : ℕ) [Fact q.Prime] (f : Polynomial (ZMod q)) : 0 < Multiset.card f.roots := by sorry", ""},
		// a numeral's Fact may be an instance of the library (Fact (Nat.Prime 2))
		{"theorem a (f : Polynomial (ZMod 2)) : f.roots = f.roots := by sorry", ""},
		{"theorem a (f : Polynomial ℤ) : f.roots = f.roots := by sorry", ""},
		// an explicit type argument: Fintype.card (ZMod n)
		{"theorem a (n : ℕ) : Fintype.card (ZMod n) = n := by sorry",
			"(ZMod n): failed to synthesize `Fintype (ZMod n)`: `Fintype.card` needs an instance `[Fintype …]`, and the library gives `(ZMod n)` one only through instances that take a `[Fact …]` or `[NeZero …]`, and the statement has no such binder (a hypothesis is no instance)"},
		{"theorem a (n : ℕ) [NeZero n] : Fintype.card (ZMod n) = n := by sorry", ""},
	} {
		if got := findings(t, tc.stub, env); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.stub, got, tc.want)
		}
	}
}

// TestTopVariableOpens: under an open, the value of an application whose
// result type is fixed by an argument of that type is not judged (another
// version of the library may read the name as the opened namespace's).
func TestTopVariableOpens(t *testing.T) {
	const stub = "theorem a (x : ℝ) (h : Nat.Prime (Star.star x)) : True := by sorry"
	for _, opens := range []bool{false, true} {
		env := unifyEnv()
		env.Opens = opens
		if got := findings(t, stub, env); (got == "") != opens {
			t.Errorf("opens %v: got %q", opens, got)
		}
	}
}

// TestPostfixInForce: the stub's own `ℚ[X]` is Polynomial ℚ only where
// the header puts the notation in force (else Lean reads ℚ applied to the
// list [X]); the library's signatures always are (Polynomial.IsRoot's
// `R[X]`).
func TestPostfixInForce(t *testing.T) {
	const stub = "theorem a (p : ℚ[X]) (x : ℝ) (h : Polynomial.IsRoot p x) : True := by sorry"
	const polynomial = "theorem a (p : Polynomial ℚ) (x : ℝ) (h : Polynomial.IsRoot p x) : True := by sorry"
	const mismatch = "x: application type mismatch: `x` has type `ℝ`, but `Polynomial.IsRoot` expects `R` here, which `p` fixed to `ℚ` (no coercion ℝ → ℚ)"
	for _, tc := range []struct {
		stub    string
		inForce bool
		want    string
	}{{stub, true, mismatch}, {stub, false, "X: unknown identifier `X`: no binder of the statement binds it (autoImplicit is off)"}, {polynomial, false, mismatch}} {
		env := unifyEnv()
		env.PostfixInForce = func(string) bool { return tc.inForce }
		if got := findings(t, tc.stub, env); got != tc.want {
			t.Errorf("%s (in force %v):\n got %q\nwant %q", tc.stub, tc.inForce, got, tc.want)
		}
	}
}
