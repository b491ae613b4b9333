package elab

import (
	"slices"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// notationDecls are Mathlib declarations the rules on notation tokens,
// floors, sets and fields read, as the indexer reads them.
var notationDecls = []*library.Decl{
	{Name: "Int.floor", Kind: library.KindDef, Signature: "def Int.floor {α : Type*} [LinearOrderedRing α] [FloorRing α] : α → ℤ", Value: "FloorRing.floor"},
	{Name: "Int.ceil", Kind: library.KindDef, Signature: "def Int.ceil {α : Type*} [LinearOrderedRing α] [FloorRing α] : α → ℤ", Value: "FloorRing.ceil"},
	{Name: "Top", Kind: library.KindClass, Signature: "class Top (α : Type u)"},
	{Name: "Top.top", Kind: library.KindField, Parent: "Top", Signature: "field Top.top : α"},
	{Name: "Bot", Kind: library.KindClass, Signature: "class Bot (α : Type u)"},
	{Name: "Bot.bot", Kind: library.KindField, Parent: "Bot", Signature: "field Bot.bot : α"},
	{Name: "Cauchy", Kind: library.KindDef, Signature: "def Cauchy {α : Type*} [LinearOrderedField α] {β : Type*} [Ring β] (abv : β → α) [IsAbsoluteValue abv] : Type _"},
	{Name: "Cauchy.ofRat", Kind: library.KindDef, Signature: "def Cauchy.ofRat {α : Type*} [LinearOrderedField α] {β : Type*} [Ring β] {abv : β → α} [IsAbsoluteValue abv] (x : β) : Cauchy abv"},
	{Name: "Nat.floor", Kind: library.KindDef, Signature: "def Nat.floor {α : Type*} [OrderedSemiring α] [FloorSemiring α] : α → ℕ"},
	{Name: "ENNReal", Kind: library.KindDef, Signature: "def ENNReal", Value: "WithTop ℝ≥0"},
	{Name: "ENNReal.toReal", Kind: library.KindDef, Signature: "def ENNReal.toReal (a : ℝ≥0∞) : Real", Value: "a.toNNReal"},
	{Name: "NNReal.toReal", Kind: library.KindDef, Signature: "def NNReal.toReal : ℝ≥0 → ℝ"},
	{Name: "Set.Icc", Kind: library.KindDef, Signature: "def Set.Icc {α : Type*} [Preorder α] (a b : α)", Value: "{ x | a ≤ x ∧ x ≤ b }"},
	{Name: "Set.range", Kind: library.KindDef, Signature: "def Set.range {α : Type u} {ι : Sort*} (f : ι → α) : Set α", Value: "{x | ∃ y, f y = x}"},
	{Name: "Fintype.card", Kind: library.KindDef, Signature: "def Fintype.card (α) [Fintype α] : ℕ"}, // as Mathlib writes it
	{Name: "Finset.range", Kind: library.KindDef, Signature: "def Finset.range (n : ℕ) : Finset ℕ", Value: "⟨_, nodup_range n⟩"},
	{Name: "Set.ncard", Kind: library.KindDef, Signature: "def Set.ncard {α : Type*} (s : Set α) : ℕ"},
	{Name: "Set.Finite", Kind: library.KindDef, Signature: "def Set.Finite {α : Type u} (s : Set α) : Prop"},
	{Name: "Finset.Icc", Kind: library.KindDef, Signature: "def Finset.Icc {α : Type*} [Preorder α] [LocallyFiniteOrder α] (a b : α) : Finset α"},
	{Name: "Odd", Kind: library.KindDef, Signature: "def Odd {α : Type*} [Semiring α] (a : α) : Prop"},
	{Name: "Filter", Kind: library.KindStructure, Signature: "structure Filter (α : Type*)"},
	{Name: "Filter.Tendsto", Kind: library.KindDef, Signature: "def Filter.Tendsto {α β : Type*} (f : α → β) (l₁ : Filter α) (l₂ : Filter β) : Prop"},
	{Name: "Filter.atTop", Kind: library.KindDef, Signature: "def Filter.atTop {α : Type*} [Preorder α] : Filter α"},
	{Name: "nhds", Kind: library.KindDef, Signature: "def nhds {X : Type*} [TopologicalSpace X] (x : X) : Filter X"},
	{Name: "AddMonoidHom", Kind: library.KindStructure, Signature: "structure AddMonoidHom (M : Type*) (N : Type*) [AddZeroClass M] [AddZeroClass N] extends ZeroHom M N, AddHom M N"},
	{Name: "IsLeast", Kind: library.KindDef, Signature: "def IsLeast {α : Type*} [LE α] (s : Set α) (a : α) : Prop", Value: "a ∈ s ∧ a ∈ lowerBounds s"},
	{Name: "Monotone", Kind: library.KindDef, Signature: "def Monotone {α : Type u} {β : Type v} [Preorder α] [Preorder β] (f : α → β) : Prop", Value: "∀ ⦃a b⦄, a ≤ b → f a ≤ f b"},
	{Name: "Submodule", Kind: library.KindStructure, Signature: "structure Submodule (R : Type u) (M : Type v) [Semiring R] [AddCommMonoid M] [Module R M]"},
	{Name: "Ideal", Kind: library.KindAbbrev, Signature: "abbrev Ideal (R : Type u) [Semiring R]", Value: "Submodule R R"},
	{Name: "Finset.filter", Kind: library.KindDef, Signature: "def Finset.filter {α : Type*} (p : α → Prop) [DecidablePred p] (s : Finset α) : Finset α"},
	{Name: "Ideal.IsMaximal", Kind: library.KindClass, Signature: "class Ideal.IsMaximal {α : Type u} [Semiring α] (I : Ideal α) : Prop"},
	{Name: "Module.finrank", Kind: library.KindDef, Signature: "def Module.finrank (R M : Type*) [Semiring R] [AddCommMonoid M] [Module R M] : ℕ"},
	{Name: "Multiset", Kind: library.KindDef, Signature: "def Multiset (α : Type u) : Type u", Value: "Quotient (List.isSetoid α)"},
	{Name: "Multiset.prod", Kind: library.KindDef, Signature: "def Multiset.prod {α : Type*} [CommMonoid α] : Multiset α → α", Value: "foldr (· * ·) 1"},
	{Name: "Finset.image", Kind: library.KindDef, Signature: "def Finset.image {α β : Type*} [DecidableEq β] (f : α → β) (s : Finset α) : Finset β"},
	{Name: "Padic", Kind: library.KindDef, Signature: "def Padic (p : ℕ) [Fact p.Prime]", Value: "CauSeq.Completion.Cauchy (padicNorm p)"},
	{Name: "EuclideanSpace", Kind: library.KindAbbrev, Signature: "abbrev EuclideanSpace (𝕜 : Type*) (n : Type*) : Type _", Value: "PiLp 2 fun _ : n => 𝕜"},
	{Name: "Nat.digits", Kind: library.KindDef, Signature: "def Nat.digits : ℕ → ℕ → List ℕ"},
	{Name: "NNReal.sqrt", Kind: library.KindDef, Signature: "def NNReal.sqrt : ℝ≥0 ≃o ℝ≥0", Value: "OrderIso.symm <| powOrderIso 2 two_ne_zero"},
}

// notationEnv is testEnv with notationDecls, core's Nat.succ and Fin,
// Mathlib's scoped tokens ℝ≥0 and ℝ≥0∞, its arrows →+*, ≃o and →., and
// coercions of numbers to anything but a Filter or a function; a Group gives * and /, a
// Field everything; ℂ has no order (LE, Preorder) and no lattice, no number type is a Fintype; π and φ are notation;
// no universe is a Semiring; `nat` is Lean 3's `Nat`; `on` is a notation's word.
func notationEnv() Env {
	env := withDecls(testEnv(), notationDecls, "Nat.succ", "Fin")
	env.Token = func(tok string) (string, bool) {
		c, ok := map[string]string{"ℝ≥0": "NNReal", "ℝ≥0∞": "ENNReal", "⊤": "Top.top", "⊥": "Bot.bot"}[tok]
		return c, ok
	}
	env.CoercesTo = func(n, full string) bool { return full != "Filter" }
	env.NumberBeside = func(full, n string) bool { return full != "Filter" }
	env.NumberTo = env.NumberBeside
	env.NotationSymbol = func(name string) bool { return name == "π" || name == "φ" }
	env.NumberHas = func(n, class string) bool {
		return n != "ℂ" && class != "Fintype" || class != "LE" && class != "Preorder" && class != "Lattice" && class != "Fintype"
	}
	env.VariableHas = func(classes []string, class string) bool {
		for _, c := range classes {
			if c == class || c == "Field" || c == "LinearOrderedCommRing" || c == "Group" && (class == "Mul" || class == "Div" || class == "Inv" || class == "Monoid") || c == "AddCommGroup" && class == "Add" ||
				c == "CommRing" && (class == "Add" || class == "Mul" || class == "Sub" || class == "Monoid") {
				return true
			}
		}
		return false
	}
	env.OneAtom = func(tok string) bool { return tok == "→+*" || tok == "≃o" || tok == "→." || tok == "→+" }
	env.Infix = func(tok string) (string, bool) { return "AddMonoidHom", tok == "→+" }
	env.FunctionFrom = func(full string) bool { return full != "Filter" }
	env.CoercesToFunction = func(n string) bool { return false }
	env.UniverseHas = func(class string) bool { return class != "Semiring" }
	env.Lean3Namespace = func(root string) (string, bool) { return "Nat", root == "nat" }
	env.NotationWord = func(w string) bool { return w == "on" }
	env.SetLike = func(full string) bool { return full == "Submodule" }
	env.ReceiverInstance = func(class, typeHead, field string) (string, string, bool) {
		return "", "", class == "Fintype" && field == "" && (typeHead == "Set" || typeHead == "Submodule")
	}
	return env
}

// withDecls returns env that also resolves and looks up decls, and
// resolves the core names core to themselves.
func withDecls(env Env, decls []*library.Decl, core ...string) Env {
	byName := map[string]*library.Decl{}
	for _, d := range decls {
		byName[d.Name] = d
	}
	resolve, lookup := env.Resolve, env.Lookup
	env.Resolve = func(name string) []string {
		if _, ok := byName[name]; ok || slices.Contains(core, name) {
			return []string{name}
		}
		return resolve(name)
	}
	env.Lookup = func(full string) (*library.Decl, bool) {
		if d, ok := byName[full]; ok {
			return d, true
		}
		return lookup(full)
	}
	return env
}

// TestLibraryNotation: the nonnegative reals' coercions (up only), floors
// and ceilings of types with no such instance, a core type as a theorem's
// statement, fields Lean does not find, and a Set where a Finset is
// expected; each with well-typed near misses.
func TestLibraryNotation(t *testing.T) {
	for _, tc := range []struct{ stub, want string }{
		// ℝ≥0 and ℝ≥0∞: ℕ → ℝ≥0 → ℝ → ℂ and ℝ≥0 → ℝ≥0∞, never down
		{"theorem a (x : ℝ≥0∞) (h : x ≠ ⊤) : Real.sqrt x ≤ 1 := by sorry", "x: `Real.sqrt` expects a ℝ, but `x` is ℝ≥0∞ (no coercion ℝ≥0∞ → ℝ)"},
		{"theorem a (r : ℝ≥0) : Nat.Prime r := by sorry", "r: `Nat.Prime` expects a ℕ, but `r` is ℝ≥0 (no coercion ℝ≥0 → ℕ)"},
		{"theorem a (x : ℤ) (r : ℝ≥0) : (x : ℝ≥0) = r := by sorry", "x: the ascription expects a ℝ≥0, but `x` is ℤ (no coercion ℤ → ℝ≥0)"},
		{"theorem a (x : ℝ) (r : ℝ≥0) : Nat.Prime (x + r) := by sorry", "(x + r): `Nat.Prime` expects a ℕ, but `(x + r)` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (r : ℝ≥0) (x : ℝ) : Real.sqrt r + x = x + r := by sorry", ""},
		{"theorem a (r : ℝ≥0) (n : ℕ) : ((n : ℝ≥0) : ℝ≥0∞) ≠ ⊤ ∧ (r : ℝ≥0∞) ≠ ⊤ := by sorry", ""},
		{"theorem a (x : ℝ≥0∞) (h : x ≠ ⊤) : Real.sqrt x.toReal ≤ x.toReal + 1 := by sorry", ""},
		// a function, its base left out, where a List is expected
		{"theorem a (n : ℕ) : List.sum (Nat.digits n) % 9 = n % 9 := by sorry", "(Nat.digits n): type mismatch: `List.sum` expects a value of type `List α`, but `(Nat.digits n)` is a function (`Nat.digits`: it takes 2 explicit arguments, given 1)"},
		{"theorem a (n : ℕ) : List.sum (Nat.digits 10 n) % 9 = n % 9 := by sorry", ""},
		// a field of a number's namespace on a parenthesised number
		{"theorem a (x y r : ℝ≥0∞) : r = (x + y).toReal := by sorry", "r = (x + y).toReal: type mismatch: `r` is ℝ≥0∞ and `(x + y).toReal` is ℝ; no coercion takes either to the other's type"},
		{"theorem a (x y r : ℝ≥0∞) : r.toReal = (x + y).toReal := by sorry", ""},
		// bundled maps apply as functions from their left operand's type
		{"theorem a (f : ℝ →+* ℝ) (z : ℂ) : f z = z := by sorry", "z: `f` expects a ℝ, but `z` is ℂ (no coercion ℂ → ℝ)"},
		{"theorem a (f : ℝ →+* ℝ) (x y : ℝ) : f x y = 0 := by sorry", "f x y: function expected: `f` takes 1 explicit argument, given 2, and its value is a number of type ℝ"},
		// a bundled map given its type parameters: its domain and its
		// values are those types
		{"theorem a (q : ℚ) : Nat.Prime (algebraMap ℚ ℝ q) := by sorry", "(algebraMap ℚ ℝ q): `Nat.Prime` expects a ℕ, but `(algebraMap ℚ ℝ q)` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (q : ℚ) : algebraMap ℤ ℝ q = 0 := by sorry", "q: `algebraMap` expects a ℤ, but `q` is ℚ (no coercion ℚ → ℤ)"},
		{"theorem a (n : ℕ) (q : ℚ) : algebraMap ℚ ℝ q = algebraMap ℚ ℝ n := by sorry", ""},
		// Mathlib's starRingEnd (R : Type u) … : R →+* R (this tree's altered one has {R})
		{"theorem a (z : ℂ) (hz : z ≠ 0) : z * (starRingEnd ℂ) z > 0 := by sorry", "z * (starRingEnd ℂ) z > 0: failed to synthesize `LT ℂ`: ℂ has no order here (Mathlib's is scoped: open ComplexOrder), and a comparison of moduli is written ‖z‖ < ‖w‖"},
		{"theorem a (x : ℝ) (h : 0 ≤ x) : NNReal.sqrt x ^ 2 = x := by sorry", "x: `NNReal.sqrt` expects a ℝ≥0, but `x` is ℝ (no coercion ℝ → ℝ≥0)"},
		{"theorem a (e : ℝ ≃ ℝ) (z : ℂ) : e z = z := by sorry", "z: `e` expects a ℝ, but `z` is ℂ (no coercion ℂ → ℝ)"},
		{"theorem a (f : ℝ →+* ℂ) (x : ℝ) (n : ℕ) (r : ℝ≥0) : f x = x ∧ f n = n ∧ NNReal.sqrt r ^ 2 = r := by sorry", ""},
		{"theorem a (f : ℕ →. ℕ) (n : ℕ) : n ∈ f n := by sorry", ""}, // a partial function's values are Part ℕ
		// a number where a structure no coercion reaches is expected
		{"theorem a (u : ℕ → ℝ) (L : ℝ) (h : Filter.Tendsto u Filter.atTop L) : True := by sorry", "L: type mismatch: `Filter.Tendsto` expects a value of type `Filter β`, but `L` is a number of type ℝ (no coercion ℝ → Filter)"},
		{"theorem a (u : ℕ → ℝ) (L : ℝ) (h : Filter.Tendsto u Filter.atTop (nhds L)) : True := by sorry", ""},
		// a filter whose type variable another argument fixes to ℂ
		{"theorem a (f : ℂ → ℂ) (h : Filter.Tendsto f Filter.atTop (nhds 0)) : True := by sorry", "Filter.atTop: failed to synthesize `Preorder ℂ`: `Filter.atTop` needs an instance `[Preorder α]`, and `f` makes it ℂ (through `Filter.Tendsto`), to which the library gives no `Preorder` here"},
		{"theorem a (f : ℝ → ℂ) (h : Filter.Tendsto f Filter.atTop (nhds 0)) : True := by sorry", ""},
		// a natural number, a type, where a Filter is expected
		{"theorem a (u : ℕ → ℝ) (L : ℕ) (h : Filter.Tendsto u Filter.atTop L) : True := by sorry", "L: type mismatch: `Filter.Tendsto` expects a value of type `Filter β`, but `L` is a number of type ℕ (no cast or coercion ℕ → Filter)"},
		// beside a set, a function into sets is no set
		{"theorem a (x : ℝ) : Set.Icc x x ⊆ Set.Icc x := by sorry", "Set.Icc x: type mismatch: `Set.Icc x` is a function (`Set.Icc`: it takes 2 explicit arguments, given 1), not a set like `Set.Icc x x`"},
		{"theorem a (x : ℝ) : Set.Icc x x ⊆ Set.Icc x x := by sorry", ""},
		{"theorem a (u : ℕ → ℝ) (h : Filter.Tendsto u Filter.atTop 0) : True := by sorry", "0: failed to synthesize `OfNat (Filter …) 0`: `Filter.Tendsto` expects a value of type `Filter β`, and no instance makes the numeral `0` a Filter"},
		{"theorem a (u : ℕ → ℝ) (h : Filter.Tendsto u ℕ Filter.atTop) : True := by sorry", "ℕ: type mismatch: `Filter.Tendsto` expects a value of type `Filter α`, but `ℕ` is a type"},
		// a lowercase Greek letter bound nowhere, unless the library spells notation with it
		{"theorem a (f : ℝ → ℝ) : f θ = f (θ + 2 * π) := by sorry", "θ: unknown identifier `θ`: no binder of the statement binds it (autoImplicit is off)"},
		{"theorem a (n : ℕ) (ε : ℝ) (h : 0 < ε) : φ n ≤ n ∧ π > 3 ∧ ∀ δ > 0, δ + ε > 0 := by sorry", ""},
		// ℂ has no order (Mathlib's is scoped) and no lattice for |z|
		{"theorem a (z : ℂ) (h : |z| = 1) : z ≠ 0 := by sorry", "|z|: failed to synthesize `Lattice ℂ`: |x| is x ⊔ -x, and ℂ has no lattice order (its modulus is ‖z‖)"},
		{"theorem a (z w : ℂ) (h : z < w) : True := by sorry", "z < w: failed to synthesize `LT ℂ`: ℂ has no order here (Mathlib's is scoped: open ComplexOrder), and a comparison of moduli is written ‖z‖ < ‖w‖"},
		{"theorem a (z : ℂ) (x : ℝ) (n : ℕ) : z.re ≤ |x| ∧ -n ≤ (0 : ℤ) ∧ (z = x ∨ z ≠ n) := by sorry", ""},
		// an operation a type variable's local instances do not provide
		// a pair's fields are fst and snd (1 and 2); a pair is no type
		{"theorem a (A B : ℝ × ℝ) : A.x = B.fst := by sorry", "A.x: invalid field `x`: the environment does not contain `Prod.x` (`A` is a pair, of type `ℝ × ℝ`; its components are `A.1` and `A.2`)"},
		{"theorem a (A B : ℝ × ℝ) (h : Finset A) : A.1 = B.snd := by sorry", "A: type mismatch: `Finset` expects a type (`Type*`) here, but `A` is a value of type `ℝ × ℝ`"},
		// a Filter where a number is expected; a number's members
		{"theorem a (F : Filter ℕ) : Nat.Prime F := by sorry", "F: `Nat.Prime` expects a ℕ, but `F` is a value of type `Filter …` (no coercion Filter → ℕ)"},
		{"theorem a (n : ℕ) (x : ℕ → ℝ) : ∑ i ∈ n, x i = 0 := by sorry", "n: failed to synthesize `Membership`: `n` is a number of type ℕ, not a set (the numbers below it are `Finset.range n`)"},
		{"theorem a (s : Finset ℕ) (x : ℕ → ℝ) : Nat.Prime s.card ∧ ∑ i ∈ s, x i = 0 := by sorry", ""},
		// a function's ⁻¹ is Pi's, pointwise: its codomain needs an Inv; a
		// set's binder inside the statement is no instance
		{"theorem a (f : ℕ → ℕ) : f⁻¹ = f := by sorry", "f⁻¹: failed to synthesize `Inv (ℕ → ℕ)`: a function's ⁻¹ is pointwise, and ℕ has no inverse (the inverse function is `Function.invFun f`; the preimage of a set is `f ⁻¹' s`)"},
		{"theorem a (X Y : Type*) [AddGroup Y] (f : X → Y) : ∀ U : Set Y, f ⁻¹ U = U := by sorry", "f ⁻¹: failed to synthesize `Inv (X → Y)`: a function's ⁻¹ is pointwise, and Y has no inverse (the inverse function is `Function.invFun f`; the preimage of a set is `f ⁻¹' s`)"},
		{"theorem a (X Y : Type*) [Group Y] (f : X → Y) (g : ℝ → ℝ) : f⁻¹ = f ∧ g⁻¹ = g := by sorry", ""},
		// core's max on a type variable whose instances give no Max
		{"theorem a (α : Type*) [Group α] (a b : α) : a ≤ max a b := by sorry", "a: failed to synthesize `Max α`: `max` needs an instance `[Max α]`, and `α` has only `[Group α]`, from which the library derives no `Max` instance"},
		{"theorem a (α : Type*) [Field α] (a b : α) : max a b = a := by sorry", ""},
		// a type of linear maps over ℝ between types with no structure
		// over ℝ; a linear map's values are its codomain's
		{"theorem a (V : Type*) [AddCommGroup V] (T : V →ₗ[ℝ] V) : T = T := by sorry", "V: failed to synthesize `Module ℝ V`: `V →ₗ[ℝ] V` needs an instance `[Module ℝ V]`, and `V` has only `[AddCommGroup V]`, which gives it no structure over ℝ (add `[Module ℝ V]`)"},
		{"theorem a (V W : Type*) [AddCommGroup V] [Module ℝ V] [AddCommGroup W] [Module ℝ W] (f : V →ₗ[ℝ] W) (w : W) : f w = w := by sorry", "w: application type mismatch: `w` is a value of type W, but `f` expects a value of type V (no coercion between two type variables of the statement)"},
		{"theorem a (K V : Type*) [Field K] [AddCommGroup V] [Module K V] (f : V →ₗ[K] V) (v : V) : f v = v := by sorry", ""},
		{"theorem a (V : Type*) [AddCommGroup V] (T : V →ₗ[ℤ] V) : T = T := by sorry", ""},
		// two type variables: nothing coerces one's values to the other's,
		// unless an instance relates them
		{"theorem a (G H : Type*) [Group G] [Group H] (f : G →+* H) (g : G) : f g = g := by sorry", "f g = g: type mismatch: `f g` is a value of type H and `g` a value of type G, two type variables of the statement; no coercion takes either to the other"},
		{"theorem a (X Y : Type*) (f : X → Y) (y : Y) : f y = y := by sorry", "y: application type mismatch: `y` is a value of type Y, but `f` expects a value of type X (no coercion between two type variables of the statement)"},
		{"theorem a (X Y : Type*) [Coe X Y] (f : X → Y) (x : X) (y : Y) : f y = x := by sorry", ""},
		{"theorem a (R M : Type*) [Field R] [Module R M] (r : R) (m : M) : r = m := by sorry", ""},
		{"theorem a (X Y : Type*) (f : X → Y) (x : X) (y : Y) : f x = y := by sorry", ""},
		{"theorem a (G : Type*) [Group G] (a b : G) : a + b = b + a := by sorry", "a + b: failed to synthesize `Add G`: `G` has the local instances [Group G], and none provides `+` (through its parents or the library's instances) | b + a: failed to synthesize `Add G`: `G` has the local instances [Group G], and none provides `+` (through its parents or the library's instances)"},
		{"theorem a (R : Type*) [CommRing R] (a b : R) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry", "2 * a * b ≤ a ^ 2 + b ^ 2: failed to synthesize `LE R`: `R` has the local instances [CommRing R], and none provides `≤` (through its parents or the library's instances)"},
		{"theorem a (R : Type*) [LinearOrderedCommRing R] (a b : R) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by sorry", ""},
		{"theorem a (G : Type*) [Fintype G] (g : G) (n : ℕ) : g ^ n = g := by sorry", "g ^ n: failed to synthesize `HPow G ℕ`: `G` has the local instances [Fintype G], and none provides `^` with a natural exponent (a monoid's power; through its parents or the library's instances)"},
		{"theorem a (G : Type*) [Group G] [Fintype G] (g : G) (n : ℕ) : g ^ n = g ∧ g ^ (2 : ℤ) = g := by sorry", ""},
		{"theorem a (G : Type) (h : Group G) (a : G) : a ≤ a * a := by sorry", "a ≤ a * a: failed to synthesize `LE G`: `G` has the local instances [Group G], and none provides `≤` (through its parents or the library's instances)"},
		{"theorem a (G : Type*) [Group G] (a b : G) : ∀ x : G, a * b / x = x * b := by sorry", ""},
		{"theorem a (K : Type*) [Field K] (a b : K) : a + b * a - b / a ≤ 1 := by sorry", ""},
		{"theorem a (R M : Type*) [Ring R] [AddCommGroup M] [Module R M] (a b : M) : a + b = b + a := by sorry", ""},
		// an instance where the variable stands beside others (Module's M) counts too
		{"theorem a (R M : Type*) [Ring R] [AddCommGroup M] [Module R M] (a b : M) : a * b = b * a := by sorry", "a * b: failed to synthesize `Mul M`: `M` has the local instances [AddCommGroup M] [Module R M], and none provides `*` (through its parents or the library's instances) | b * a: failed to synthesize `Mul M`: `M` has the local instances [AddCommGroup M] [Module R M], and none provides `*` (through its parents or the library's instances)"},
		// an inverse a type variable's local instances do not provide
		{"theorem a (G : Type*) [Group G] (K : Type*) [Field K] (R : Type*) [CommRing R] (g : G) (k : K) (r : R) : g⁻¹ = g ∧ k⁻¹ = k ∧ r⁻¹ = r := by sorry", "r⁻¹: failed to synthesize `Inv R`: `R` has the local instances [CommRing R], and none provides ⁻¹ (through its parents or the library's instances)"},
		// an instance a type argument needs and the stub's type variable lacks
		{"theorem a (G : Type*) (x : G) : Fintype.card G = 2 := by sorry", "G: failed to synthesize `Fintype G`: `Fintype.card` needs an instance `[Fintype G]`, and `G` has no local instance (nor does the library give every type one)"},
		{"theorem a (G : Type*) [Group G] (g : G) : Fintype.card G = 2 := by sorry", "G: failed to synthesize `Fintype G`: `Fintype.card` needs an instance `[Fintype G]`, and `G` has only `[Group G]`, from which the library derives no `Fintype` instance"},
		{"theorem a (G : Type*) [Group G] [Fintype G] (g : G) : Fintype.card G = 2 := by sorry", ""},
		{"theorem a (K : Type*) [Field K] [Fintype K] (R M : Type*) [Ring R] [AddCommGroup M] [Module R M] [Fintype M] : Fintype.card K = 2 ∧ Fintype.card M = 1 := by sorry", ""},
		// an infix notation is its constant applied to both operands
		{"theorem a (G H : Type*) [Group G] [AddZeroClass H] (f : G →+ H) : True := by sorry", "G: failed to synthesize `AddZeroClass G`: `AddMonoidHom` needs an instance `[AddZeroClass G]`, and `G` has only `[Group G]`, from which the library derives no `AddZeroClass` instance"},
		{"theorem a (G H : Type*) [AddZeroClass G] [AddZeroClass H] (f : G →+ H) (g : G) : f g = f g := by sorry", ""},
		// a Set's elements form a Fintype only with an instance the stub gives
		{"theorem a (s : Set ℕ) (hs : ∀ x ∈ s, x < 3) : Fintype.card s ≤ 3 := by sorry", "s: failed to synthesize `Fintype ↥s`: `s` is a Set, and its elements form a Fintype only with an instance the statement does not give (`[Fintype s]`), or count them as `Nat.card s`"},
		{"theorem a (K V : Type*) [Field K] [AddCommMonoid V] [Module K V] [Fintype V] (N : Submodule K V) : Fintype.card N ≤ Fintype.card V := by sorry", "N: failed to synthesize `Fintype ↥N`: `N` is a Submodule, and its elements form a Fintype only with an instance the statement does not give (`[Fintype N]`), or count them as `Nat.card N`"},
		{"theorem a (K V : Type*) [Field K] [AddCommMonoid V] [Module K V] [Fintype V] (N : Submodule K V) [DecidablePred (· ∈ N)] : Fintype.card N ≤ Fintype.card V := by sorry", ""},
		{"theorem a (s : Set ℕ) [Fintype s] : Fintype.card s ≤ 3 := by sorry", ""},
		// an instance the library has on no number type
		{"theorem a : Fintype.card ℝ ≥ 1 := by sorry", "ℝ: failed to synthesize `Fintype ℝ`: `Fintype.card` needs an instance `[Fintype ℝ]`, and the library has none for ℝ"},
		// ⌊x⌋ is ℤ, ⌊x⌋₊ is ℕ; no floor on ℕ (no ring) nor on ℂ (no order)
		{"theorem a (x : ℝ) (h : 2 ≤ x) : Nat.Prime ⌊x⌋ := by sorry", "⌊x⌋: `Nat.Prime` expects a ℕ, but `⌊x⌋` is ℤ (no coercion ℤ → ℕ)"},
		// an implicit argument the result mentions fixes the type variable
		// of its type (`{abv : β → α} (x : β) : Cauchy abv`): the expected
		// type may fix β first
		{"theorem a (abv : ℚ → ℚ) [IsAbsoluteValue abv] (n : ℕ) : (Cauchy.ofRat n : Cauchy abv) = (Cauchy.ofRat n : Cauchy abv) := by sorry", ""},
		{"theorem a (n : ℕ) : 0 < ⌈n / 3⌉ := by sorry", "n / 3: failed to synthesize `LinearOrderedRing ℕ`: `Int.ceil` expects a value of a type with `LinearOrderedRing`, but `n / 3` is ℕ, which has no negation (it is no ring and no additive group)"},
		{"theorem a (z : ℂ) : ⌊z⌋ = 0 := by sorry", "z: failed to synthesize `LinearOrderedRing ℂ`: `Int.floor` expects a value of a type with `LinearOrderedRing`, but `z` is ℂ, which has no linear order"},
		{"theorem a (x : ℝ) (h : 2 ≤ x) : Nat.Prime ⌊x⌋₊ ∨ (⌊x⌋ : ℝ) ≤ x := by sorry", ""},
		// a function that is no predicate where a Set is expected
		{"theorem a (f : ℝ → ℝ) : Set.Finite (Set.Icc 0) := by sorry", "(Set.Icc 0): type mismatch: `Set.Finite` expects a value of type `Set α`, but `(Set.Icc 0)` is a function (`Set.Icc`: it takes 2 explicit arguments, given 1) that is no predicate, so no set"},
		{"theorem a (f : ℕ → ℝ) : Set.Finite f := by sorry", "f: type mismatch: `Set.Finite` expects a value of type `Set α`, but `f` is a function (`f`: a local function between numbers) that is no predicate, so no set"},
		{"theorem a (p : ℕ → Prop) : Set.Finite p ∧ Set.Finite (Set.Icc 0 1) ∧ Set.Finite (Odd) := by sorry", ""},
		// a negation or an inverse at a type with none
		{"theorem a (n : ℕ) (h : n ≥ -5) : True := by sorry", "n ≥ -5: failed to synthesize `Neg ℕ`: `n ≥ -5` negates a number of type ℕ, which has no negation (write the numbers at ℤ or ℝ: `(n : ℤ)`)"},
		{"theorem a (r : ℝ≥0) : Nat.Prime (-1 : ℕ) ∧ r ≠ -1 := by sorry", "-1: failed to synthesize `Neg ℕ`: `-1` negates a number of type ℕ, which has no negation (write the numbers at ℤ or ℝ: `(n : ℤ)`) | r ≠ -1: failed to synthesize `Neg ℝ≥0`: `r ≠ -1` negates a number of type ℝ≥0, which has no negation (write the numbers at ℤ or ℝ: `(n : ℤ)`)"},
		{"theorem a (n : ℕ) (x : ℝ) (z : ℤ) : x ≥ -n ∧ (n : ℤ) ≥ -5 ∧ Int.natAbs (-n) = n ∧ z = -n ∧ x ^ (-x) = 1 := by sorry", ""},
		{"theorem a (n : ℕ) (x : ℝ) : x * n⁻¹ = 1 := by sorry", "n⁻¹: failed to synthesize `Inv ℕ`: `n⁻¹` inverts a number of type ℕ, which has no inverse (write `(n : ℝ)⁻¹` or `1 / n`)"},
		{"theorem a (n : ℕ) : Nat.Prime n⁻¹ := by sorry", "n⁻¹: failed to synthesize `Inv ℕ`: `n⁻¹` inverts a number of type ℕ, which has no inverse (write `(n : ℝ)⁻¹` or `1 / n`)"},
		{"theorem a (n : ℕ) (x : ℝ) : x * (n : ℝ)⁻¹ = 1 ∧ x⁻¹ = 2⁻¹ ∧ (n⁻¹ : ℝ) = x ∧ Real.sqrt n⁻¹ = x := by sorry", ""},
		// a point where a Set is expected; a predicate where a type is
		{"theorem a (x : ℝ) : Set.Finite x := by sorry", "x: type mismatch: `Set.Finite` expects a value of type `Set α`, but `x` is a number of type ℝ, not a set (a singleton is `{x}`)"},
		{"theorem a (s : Finset Odd) : True := by sorry", "Odd: type mismatch: `Finset` expects a type (`Type*`) here, but `Odd` is a function (`Odd`: it takes 1 explicit argument, given 0)"},
		{"theorem a (x : ℝ) (s : Finset (Fin 3)) : Set.Finite {x} := by sorry", ""},
		// a Set where a structure no coercion reaches is expected
		{"theorem a (u : ℕ → ℝ) (h : Filter.Tendsto u Filter.atTop (Set.Icc 0 1)) : True := by sorry", "(Set.Icc 0 1): type mismatch: `Filter.Tendsto` expects a value of type `Filter β`, but `(Set.Icc 0 1)` is a Set (no coercion Set → Filter)"},
		{"theorem a (n : ℤ) (m : ℕ) : ⌊n⌋ = n ∧ ⌊m⌋₊ = m ∧ ⌈(m : ℝ) / 3⌉ ≥ 0 := by sorry", ""},
		// a core type is no proposition; Fin takes one argument
		{"theorem a (n : ℕ) (h : 0 < n) : Fin n := by sorry", "Fin n: type of theorem is not a proposition: `Fin n` is a type"},
		{"theorem a (n : ℕ) : Fin n n := by sorry", "Fin n n: too many arguments: `Fin` takes 1 explicit argument, given 2"},
		{"theorem a (n : ℕ) (k : Fin n) : (k : ℕ) < n := by sorry", ""},
		// fields: ℕ and ℤ have none of the library's root predicates; a Set
		// unfolds to a function
		{"theorem a (n : ℕ) (h : n.Even) : Even (n ^ 2) := by sorry", "n.Even: invalid field `Even`: the environment does not contain `Nat.Even` (`n` is a `Nat`)"},
		{"theorem a (n : ℤ) (h : n.Odd) : True := by sorry", "n.Odd: invalid field `Odd`: the environment does not contain `Int.Odd` (`n` is a `Int`)"},
		// Lean 3's lowercase spelling of a field the namespace has capitalised
		{"theorem a (p : ℕ) (hp : p.prime) : p ≥ 2 := by sorry", "p.prime: invalid field `prime`: the environment does not contain `Nat.prime` (`p` is a `Nat`)"},
		{"theorem a (n : ℕ) : n.succ = n + 1 ∧ n.digits = n.digits := by sorry", ""},
		{"theorem a (x : ℤ) : (x.nat_abs : ℤ) = x := by sorry", "x.nat_abs: invalid field `nat_abs`: the environment does not contain `Int.nat_abs` (`x` is a `Int`)"},
		{"theorem a (x : ℤ) : (x.natAbs : ℤ) = x := by sorry", ""},
		// a proposition composed: application binds tighter than ∘
		{"theorem a (f g : ℕ → ℕ) (n : ℕ) (h : Odd n ∘ f = g) : True := by sorry", "Odd n: type mismatch: `∘` composes functions, but `Odd n` is a proposition (application binds tighter than ∘: parenthesise the composition, `P (f ∘ g)`)"},
		{"theorem a (f g : ℕ → ℕ) (n : ℕ) (h : Odd ((f ∘ g) n)) : True := by sorry", ""},
		{"theorem a (s : Set ℕ) (h : s.Finite) : s.card ≤ 10 := by sorry", "s.card: invalid field `card`: the environment does not contain `Set.card` (`s` is a `Set`)"},
		// DecidableEq of a bare type variable, not under open Classical nor with any instance
		{"theorem a (α β : Type) (f : α → β) (s : Finset α) (t : Finset β) (h : Finset.image f s = t) : True := by sorry", "f: failed to synthesize `DecidableEq β`: `Finset.image` needs an instance `[DecidableEq β]`, and `β` has no local instance (nor does the library give every type one)"},
		{"theorem a (α β : Type) [Group β] (f : α → β) (s : Finset α) (t : Finset β) (h : Finset.image f s = t) : True := by sorry", ""},
		// a quotient type's field: Multiset, then core's Quotient and Quot; a to_additive twin counts
		{"theorem a (s : Multiset ℕ) (h : s.length = 3) : True := by sorry", "s.length: invalid field `length`: the environment does not contain `Multiset.length` (`s` is a `Multiset`)"},
		{"theorem a (s : Multiset ℕ) (h : s.sum = 3 ∧ s.lift = s.lift) : True := by sorry", ""},
		// a predicate the statement binds, given where a decidable one is needed
		{"theorem a (P : ℕ → Prop) (s : Finset ℕ) (h : Finset.filter P s = s) : True := by sorry", "P: failed to synthesize `DecidablePred P`: `Finset.filter` needs an instance `[DecidablePred P]`, and nothing decides the propositions of the statement's variable `P` (add [DecidablePred P], or open Classical)"},
		{"theorem a (P : ℕ → Prop) [DecidablePred P] (s : Finset ℕ) (h : Finset.filter P s = s) : True := by sorry", ""},
		// a type as an operand of arithmetic
		{"theorem a (G : Type*) [Group G] (s : Set G) (h : Fintype.card (G / s) = 1) : True := by sorry", "G: failed to synthesize `HDiv`: `G` is a type, and types have no arithmetic (a quotient is written with ⧸, `G ⧸ H`)"},
		// a norm is read: what it applies to is judged
		{"theorem a (x : ℝ) : ‖Real.sqrt x x‖ = 1 := by sorry", "Real.sqrt x x: too many arguments: `Real.sqrt` takes 1 explicit argument, given 2"},
		// a module over another type variable that no instance relates
		{"theorem a (K L : Type*) [Field K] [Field L] (h : Module.finrank K L = 2) : True := by sorry", "L: failed to synthesize `Module K L`: `Module.finrank` needs an instance `[Module K L]`, and `L` has only `[Field L]`, which gives it no structure over K (add `[Module K L]`)"},
		{"theorem a (K L : Type*) [Field K] [Field L] [Algebra K L] (h : Module.finrank K L = 2) : True := by sorry", ""},
		// core's max: its value has its first argument's type
		{"theorem a (x y z : ℝ) : max x y z ≤ 1 := by sorry", "max x y z: too many arguments: `max` takes 2 explicit arguments, given 3 (its value here is a number of type ℝ, no function)"},
		// an element where a subobject is expected
		{"theorem a (R : Type*) [Field R] (x : R) (h : Ideal.IsMaximal x) : True := by sorry", "x: type mismatch: `Ideal.IsMaximal` expects a value of type `Ideal α`, but `x` is a value of type R, a type variable of the statement; no element coerces to a subobject (the one it generates is `span` or `closure` of `{x}`)"},
		{"theorem a (R : Type*) [Field R] (I : Ideal R) (h : Ideal.IsMaximal I) : True := by sorry", ""},
		// a dotted name whose root is bound nowhere: after a quantifier's comma the body starts
		{"theorem a (hp : p.Prime) : ∃ b : ℕ, p = b := by sorry", "p.Prime: unknown identifier `p.Prime`: no binder of the statement binds `p`, and Lean binds no dotted name automatically | p: unknown identifier `p`: no binder of the statement binds it (autoImplicit is off)"},
		{"theorem a (h : ∀ q : ℕ, ∃ b, q = b ∧ p.Prime ∧ ⟨b, p⟩ = ⟨b, p⟩) : True := by sorry", ""},
		// ⊤ beside a real: ℝ has no Top
		{"theorem a (x y : ℝ) : x < ⊤ ∧ y + 1 ≠ ⊥ := by sorry", "⊤: failed to synthesize `Top ℝ`: `⊤` is beside `x`, a number of type ℝ, which has no ⊤ (an order without that end; the extended reals are EReal, ℝ≥0∞) | ⊥: failed to synthesize `Bot ℝ`: `⊥` is beside `y + 1`, a number of type ℝ, which has no ⊥ (an order without that end; the extended reals are EReal, ℝ≥0∞)"},
		{"theorem a (n : ℕ) : ⊥ ≤ n := by sorry", ""},
		// a name glued to `(` is a notation's token (Lean 4 has no `f(x)`)
		{"theorem a (f : C(ℝ, ℝ)) : True := by sorry", ""},
		// a name another binder's quantifier binds is out of scope in the statement
		{"theorem a (x : ℕ → ℝ) (h : ∀ n, x (n + 1) = 2 * x n) : x n.succ = 2 := by sorry", "n.succ: unknown identifier `n.succ`: no binder of the statement binds `n`, and Lean binds no dotted name automatically"},
		{"theorem a (x : ℕ → ℝ) (h : ∀ n, x (n + 1) = 2 * x n) : ∀ n : ℕ, x n.succ = 2 := by sorry", ""},
		// a field of a type
		{"theorem a (n : ℕ) : (Fin n).card = n := by sorry", "(Fin n).card: invalid field notation: `(Fin n)` is a type (its type is a universe), not a value of a type of the form (C …) where C is a constant"},
		// a point beside a set
		{"theorem a (X : Type*) (x : X) (U : Set X) : x ⊆ U := by sorry", "x: type mismatch: `x` is a value of type X, a point, but `U` is a Set (membership is `∈`; the singleton is `{x}`)"},
		{"theorem a (X : Type*) (x : X) (U : Set X) : {x} ⊆ U := by sorry", ""},
		// a numeral beside a proposition: no OfNat Prop
		{"theorem a (n : ℕ) : (n < 3) = 1 := by sorry", "1: failed to synthesize `OfNat Prop 1`: `(n < 3)` is a proposition, so `1` is elaborated as one, and no proposition is a numeral"},
		{"theorem a (n : ℕ) : (n < 3) = True := by sorry", ""},
		// a set-builder is a Set, unless a Finset is expected
		{"theorem a : {n : ℕ | n < 3}.card = 3 := by sorry", "{n : ℕ | n < 3}.card: invalid field `card`: the environment does not contain `Set.card` (`{n : ℕ | n < 3}` is a `Set`)"},
		{"theorem a : Finset.card {n : Fin 3 | n ≠ 0} = 2 := by sorry", ""},
		{"theorem a (n : ℕ) (h : n.Prime) : 0 < n.succ ∧ 0 < n.pred + 1 := by sorry", ""},
		{"theorem a (n : ℕ) (h : n.Unknown) : True := by sorry", ""},
		{"theorem a (s : Set ℕ) (h : s.Finite) : s.ncard ≤ 10 := by sorry", ""},
		// Membership's element type is an outParam: x ∈ s elaborates x as an element, up to coercion
		{"theorem a (x : ℝ) (n : ℕ) (h : x ∈ Finset.range n) : True := by sorry", "x: type mismatch: `x` is ℝ, but the elements of `Finset.range n` (a Finset ℕ) are ℕ (no coercion ℝ → ℕ)"},
		{"theorem a (x : ℤ) (s : Set ℕ) (h : x ∉ s) : True := by sorry", "x: type mismatch: `x` is ℤ, but the elements of `s` (a Set ℕ) are ℕ (no coercion ℤ → ℕ)"},
		{"theorem a (n : ℕ) (s : Set ℝ) (x : ℝ) (h : n ∈ s ∧ 3 ∈ Finset.range n ∧ x ∈ Set.Icc 0 1 ∧ (x : ℝ) ∈ s) : True := by sorry", ""},
		// a structure with no coercion to a function, applied; a pair where a Set or a Finset is expected
		{"theorem a (F : Filter ℕ) (h : F 1) : True := by sorry", "F 1: function expected: `F` is a value of type `Filter ℕ`, which has no coercion to a function"},
		{"theorem a (f : ℕ → ℕ) (x : ℝ) (h : Filter.Tendsto f Filter.atTop (nhds (f 0))) : Set.Finite (Set.Icc x 1) := by sorry", ""},
		// a list literal is no set; Mathlib's [[a, b]] is notation
		{"theorem a (a b : ℝ) : Set.Finite [a, b] ∧ Set.Finite [[a, b]] := by sorry", "[a, b]: type mismatch: `[a, b]` is a List, but `Set.Finite` expects a value of type `Set α` (a closed interval is `Set.Icc a b`; a set of points `{a, b}`)"},
		// nothing is a member of a pair
		{"theorem a (x a b : ℝ) (h : x ∈ (a, b)) : ∃ c ∈ (a, b), c = x := by sorry", "(a, b): failed to synthesize `Membership`: `(a, b)` is a pair (a `Prod`), not a set (an open interval is `Set.Ioo a b`, a closed one `Set.Icc a b`) | (a, b): failed to synthesize `Membership`: `(a, b)` is a pair (a `Prod`), not a set (an open interval is `Set.Ioo a b`, a closed one `Set.Icc a b`)"},
		{"theorem a (f : ℝ → ℝ) : Set.Finite (0, 1) := by sorry", "(0, 1): type mismatch: `(0, 1)` is a pair (a `Prod`), but `Set.Finite` expects a value of type `Set α` (an interval is `Set.Ioo a b`, `Set.Icc a b`, …)"},
		{"theorem a (f : ℕ × ℕ → ℕ) (h : f (1, 2) = 3) : True := by sorry", ""},
		// ∑ x ∈ s runs over finset% s: a Set's toFinset, which needs a Fintype
		{"theorem a (n : ℕ) : ∑ k ∈ Set.Icc 1 n, k = n := by sorry", ""}, // finset% makes it Set.toFinset, and an interval has a Fintype
		{"theorem a (s : Set ℕ) : ∏ k ∈ s, k = 1 := by sorry", "s: failed to synthesize `Fintype ↑s`: `∏ x ∈ s, …` over a Set sums over `s.toFinset`, which needs `[Fintype s]`, and no instance binder of the statement gives one (sum over a Finset, or use ∑ᶠ)"},
		{"theorem a (s : Set ℕ) [Fintype s] : ∏ k ∈ s, k = 1 := by sorry", ""},
		{"theorem a (f : ℕ → ℕ) : Finset.card (Set.range f) = 1 := by sorry", "(Set.range f): type mismatch: `Finset.card` expects a value of type `Finset α`, but `(Set.range f)` is a Set (there is no coercion from Set to Finset)"},
		{"theorem a (n : ℕ) (s : Finset ℕ) : ∑ k ∈ Finset.Icc 1 n, k = ∑ k ∈ s, k ∧ ∀ k ∈ Set.Icc 1 n, 0 < k := by sorry", ""},
		// a value with no coercion to a function, given one more argument
		{"theorem a (h : Filter.Tendsto (fun n : ℕ => n) (Filter.atTop 1) Filter.atTop) : True := by sorry", "(Filter.atTop 1): too many arguments: `Filter.atTop` takes 0 explicit arguments, given 1 (its value is a `Filter`, which has no coercion to a function)"},
		{"theorem a (h : Filter.Tendsto (fun n : ℕ => n) Filter.atTop Filter.atTop) : True := by sorry", ""},
		// no numeral is a type
		{"theorem a (u : EuclideanSpace ℝ 3) : u = u := by sorry", "3: type mismatch: `EuclideanSpace` expects a type (`Type*`) here, but `3` is a numeral, and no type is a number (`Fin n` is the type of n elements)"},
		{"theorem a (u : EuclideanSpace ℝ (Fin 3)) : u = u := by sorry", ""},
		// a type where a value of a constrained type variable is expected
		{"theorem a (G : Type*) (h : Odd G) : True := by sorry", "G: failed to synthesize `Semiring (Type …)`: `Odd` expects a value of a type with `[Semiring α]`, but `G` is a type, whose type is a universe, and no universe has a `Semiring` instance"},
		{"theorem a (G : Type*) [Semiring G] (g : G) (h : Odd g) : True := by sorry", ""},
		// a Set given to a function on a type variable
		{"theorem a {X Y : Type*} (f : X → Y) (s : Set X) (y : Y) (h : f s = y) : True := by sorry", "s: application type mismatch: `s` is a Set, but `f` expects a value of type `X` (the image of a set is `f '' s`)"},
		{"theorem a {X Y : Type*} (f : X → Y) (g : Set X → Y) (s : Set X) (x : X) (h : f x = g s) : True := by sorry", ""},
		// a number type, fixed inside an argument's type, that lacks a class
		{"theorem a (x : ℂ) (s : Set ℂ) (h : IsLeast s x) : True := by sorry", "s: failed to synthesize `LE ℂ`: `IsLeast` needs an instance `[LE α]`, and `s` makes α ℂ, to which the library gives no `LE` here"},
		{"theorem a (f : ℕ → ℂ) (hf : Monotone f) : True := by sorry", "f: failed to synthesize `Preorder ℂ`: `Monotone` needs an instance `[Preorder β]`, and `f` makes β ℂ, to which the library gives no `Preorder` here"},
		{"theorem a (x : ℝ) (s : Set ℝ) (f : ℕ → ℝ) (h : IsLeast s x) (hf : Monotone f) : True := by sorry", ""},
		// a binder of an abbreviation of a structure is no local instance
		{"theorem a (R : Type*) [Group R] (I : Ideal R) : True := by sorry", "R: failed to synthesize `Semiring R`: `Ideal` needs an instance `[Semiring R]`, and `R` has only `[Group R]`, from which the library derives no `Semiring` instance"},
		{"theorem a (R : Type*) [Semiring R] (I : Ideal R) : True := by sorry", ""},
		// a Fact instance about a stub's variable, which only a Fact binder gives
		{"theorem a (q : ℕ) (hq : q.Prime) (x : Padic q) : x = x := by sorry", "Padic q: failed to synthesize `Fact (q.Prime)`: `Padic` needs an instance `[Fact (q.Prime)]`, and the statement has no `Fact` binder (a hypothesis is no instance: write `[Fact (q.Prime)]`)"},
		{"theorem a (q : ℕ) [Fact q.Prime] (x : Padic q) (y : Padic 2) : x = x := by sorry", ""},
		// a local function where a structure is expected
		{"theorem a (f : ℕ → ℝ) (h : Filter.Tendsto f f Filter.atTop) : True := by sorry", "f: type mismatch: `Filter.Tendsto` expects a value of type `Filter α`, but `f` is a function (of type `ℕ → ℝ`), not a Filter"},
		{"theorem a (f : ℕ → ℝ) (h : Filter.Tendsto f Filter.atTop Filter.atTop) : True := by sorry", ""},
		// a decimal at ℕ or ℤ
		{"theorem a (n : ℤ) (h : n = 2.5) : True := by sorry", "n = 2.5: failed to synthesize `OfScientific ℤ`: `n = 2.5` has a decimal, and ℤ has no decimals (write the numbers at ℚ or ℝ, or use a fraction of integers)"},
		{"theorem a (n : ℕ) (x : ℝ) (h : n * x = 2.5) (h' : x * 1.5 ≤ 3.75) : True := by sorry", ""},
		// a value of a type variable where a Set is expected
		{"theorem a (X : Type*) (x : X) (h : Set.Finite x) : True := by sorry", "x: type mismatch: `Set.Finite` expects a value of type `Set α`, but `x` is a value of type X, a type variable of the statement, not a set (a singleton is `{x}`)"},
		{"theorem a (X : Type*) (x : X) (h : Set.Finite {x}) : True := by sorry", ""},
		// a numeral where a proposition is expected; a plain word no notation is spelled with
		{"theorem a (x : ℝ) (h : x ^ 2 = 4) : x = 2 ∨ -2 := by sorry", "-2: type expected: `-2` is a number, not a type or a proposition (each side of ∧, ∨ and → is a proposition: `… = -2`)"},
		{"theorem a (x : ℝ) (h : x ^ 2 = 4) : x = 2 ∨ x = -2 := by sorry", ""},
		{"theorem a (n : ℕ) (h : n choose 2 = 45) : True := by sorry", "n choose 2: function expected: `n` is a number of type ℕ, it cannot be applied to an argument"},
		{"theorem a (n : ℕ) (h : n on 2 = 45) : True := by sorry", ""},
		// field notation puts the receiver at the first parameter its type heads
		{"theorem a (n : ℕ) (h : (Finset.range 100).filter (n ∣ 12) = (Finset.range 100).filter (fun k => k ∣ 12)) : True := by sorry", "(n ∣ 12): type mismatch: `Finset.filter` expects a function of type `α → Prop`, but `(n ∣ 12)` is a proposition (a predicate is written `fun x => …`)"},
		// a sum has its body's type, a member of Finset.range n is a ℕ
		{"theorem a (n : ℕ) : ∑ i ∈ Finset.range n, (i + 1) = 2.5 := by sorry", "∑ i ∈ Finset.range n, (i + 1) = 2.5: failed to synthesize `OfScientific ℕ`: `∑ i ∈ Finset.range n, (i + 1) = 2.5` has a decimal, and ℕ has no decimals (write the numbers at ℚ or ℝ, or use a fraction of integers)"},
		{"theorem a (n : ℕ) : ∑ i ∈ Finset.range n, ((i : ℝ) + 1) = 2.5 := by sorry", ""},
		// a namespace's name with a notation symbol
		{"theorem a (x : ℝ) (h : x = Real.π) : True := by sorry", "Real.π: unknown identifier `Real.π`: `π` is the library's notation, not a declaration of `Real` (open the namespace that puts it in force, or write the constant)"},
		{"theorem a (x : ℝ) (h : x = Real.pi) : True := by sorry", ""},
		// Lean 3's spelling of a namespace
		{"theorem a (n : ℕ) (h : nat.succ n = 2) : True := by sorry", "nat.succ: unknown identifier `nat.succ`: nothing is named `nat`; Lean 4 spells the namespace `Nat`"},
		// a Lean 3 class in an instance binder: no class, whatever autoImplicit binds
		{"theorem a (n : ℕ) [nat n] : True := by sorry", "nat: invalid binder annotation: `nat` names nothing, so it is no class (Lean 3's spelling of a name)"},
		{"theorem a (n : ℕ) (nat : ℕ → Prop) [nat n] : True := by sorry", ""},
		{"theorem a [nat G] : True := by sorry", "nat: invalid binder annotation: `nat` names nothing, so it is no class (Lean 3's spelling of a name)"}, // the first binder
		{"theorem a (nat : ℕ) (h : nat.succ = 2) : ∀ real : ℕ, real.succ = 1 := by sorry", ""},
	} {
		if got := findings(t, tc.stub, notationEnv()); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.stub, got, tc.want)
		}
	}
}

// TestReplace: a Set function where a Finset is expected becomes the
// library's Finset function of the same name, a floor where a ℕ is
// expected the natural floor; a Set with no Finset namesake, and findings
// with no replacement, leave the stub alone.
func TestReplace(t *testing.T) {
	for _, tc := range []struct{ stub, want string }{
		{"theorem a (n : ℕ) : Finset.card (Set.Icc 1 n) = n := by sorry", "theorem a (n : ℕ) : Finset.card (Finset.Icc 1 n) = n := by sorry"},
		{"theorem a (x : ℝ) (h : 2 ≤ x) : Nat.Prime ⌊x⌋ ∨ Nat.Prime ⌈x⌉ := by sorry", "theorem a (x : ℝ) (h : 2 ≤ x) : Nat.Prime ⌊x⌋₊ ∨ Nat.Prime ⌈x⌉₊ := by sorry"},
		{"theorem a (f : ℕ → ℕ) : Finset.card (Set.range f) = 0 := by sorry", ""},
		{"theorem a (x : ℤ) : Nat.Prime x := by sorry", ""},
	} {
		s, err := leansrc.ParseStub(tc.stub, nil)
		if err != nil {
			t.Fatal(err)
		}
		fs := Check(s, notationEnv())
		if len(fs) == 0 {
			t.Fatalf("%s: no finding", tc.stub)
		}
		got, ok := Replace(s.Text, fs)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.stub, got, tc.want)
		}
	}
}

// TestVariableOpUnderNotation: notation the header declares may give an
// operator a meaning on a type variable, so the rule is silent then.
func TestVariableOpUnderNotation(t *testing.T) {
	env := notationEnv()
	const stub = "theorem a (G : Type*) [Group G] (a b : G) : a + b = b + a := by sorry"
	if got := findings(t, stub, env); got == "" {
		t.Fatalf("no finding without notation")
	}
	env.Notation = true
	if got := findings(t, stub, env); got != "" {
		t.Errorf("with the header's notation: %s", got)
	}
}

// bundledDecls are Mathlib's linear maps and equivalences written in
// their bracketed arrows, a basis (a structure of one such field) and a
// class of data, as the indexer reads them.
var bundledDecls = []*library.Decl{
	{Name: "Function.Injective", Kind: library.KindDef, Signature: "def Function.Injective {α : Sort u₁} {β : Sort u₂} (f : α → β) : Prop"},
	{Name: "IntermediateField", Kind: library.KindStructure, Signature: "structure IntermediateField (K L : Type*) [Field K] [Field L] [Algebra K L]"},
	{Name: "IntermediateField.lift", Kind: library.KindDef, Signature: "def IntermediateField.lift {K : Type*} {L : Type*} [Field K] [Field L] [Algebra K L] {F : IntermediateField K L} (E : IntermediateField K F) : IntermediateField K L"},
	{Name: "LinearMap", Kind: library.KindStructure, Signature: "structure LinearMap {R S : Type*} [Semiring R] [Semiring S] (σ : R →+* S) (M : Type*) (M₂ : Type*) [AddCommMonoid M] [AddCommMonoid M₂] [Module R M] [Module S M₂]"},
	{Name: "LinearEquiv", Kind: library.KindStructure, Signature: "structure LinearEquiv {R S : Type*} [Semiring R] [Semiring S] (σ : R →+* S) (M : Type*) (M₂ : Type*) [AddCommMonoid M] [AddCommMonoid M₂] [Module R M] [Module S M₂] extends LinearMap σ M M₂"},
	{Name: "Basis", Kind: library.KindStructure, Signature: "structure Basis (ι : Type*) (R : Type*) (M : Type*) [Semiring R] [AddCommMonoid M] [Module R M]"},
	{Name: "LinearMap.trace", Kind: library.KindDef, Signature: "def LinearMap.trace (R : Type u) [CommSemiring R] (M : Type v) [AddCommMonoid M] [Module R M] : (M →ₗ[R] M) →ₗ[R] R"},
	{Name: "LinearMap.det", Kind: library.KindDef, Signature: "def LinearMap.det {R : Type*} [CommRing R] {M : Type*} [AddCommGroup M] [Module R M] : (M →ₗ[R] M) →* R"},
	{Name: "LinearMap.ker", Kind: library.KindDef, Signature: "def LinearMap.ker {R M M₂ : Type*} [Semiring R] [AddCommMonoid M] [AddCommMonoid M₂] [Module R M] [Module R M₂] {F : Type*} [FunLike F M M₂] (f : F) : Submodule R M"},
	{Name: "LinearMap.range", Kind: library.KindDef, Signature: "def LinearMap.range {R M₂ : Type*} [Semiring R] [AddCommMonoid M₂] [Module R M₂] {F : Type*} (f : F) : Submodule R M₂"},
	{Name: "LinearMap.rank", Kind: library.KindAbbrev, Signature: "abbrev LinearMap.rank {R M : Type*} [Ring R] [AddCommGroup M] [Module R M] (R' : Type*) : Module.End R M → ℕ"},
	{Name: "LinearMap.Alias", Kind: library.KindDef, Signature: "def LinearMap.Alias (M : Type*) : Type*", Value: "M", Attrs: []string{"reducible"}},
	{Name: "LinearMap.rankOf", Kind: library.KindDef, Signature: "def LinearMap.rankOf (R : Type*) (f : LinearMap.Alias R) : ℕ"},
	{Name: "Module.End", Kind: library.KindAbbrev, Signature: "abbrev Module.End (R : Type u) (M : Type v) [Semiring R] [AddCommMonoid M] [Module R M]", Value: "M →ₗ[R] M"},
	{Name: "DivisionRing", Kind: library.KindClass, Signature: "class DivisionRing (K : Type*)"},
	{Name: "ZMod", Kind: library.KindDef, Signature: "def ZMod : ℕ → Type"},
	{Name: "Finset.sup", Kind: library.KindDef, Signature: "def Finset.sup {α β : Type*} [SemilatticeSup α] [OrderBot α] (s : Finset β) (f : β → α) : α"},
	{Name: "Finset.Nonempty", Kind: library.KindDef, Signature: "def Finset.Nonempty {α : Type*} (s : Finset α) : Prop"},
	{Name: "Finset.max'", Kind: library.KindDef, Signature: "def Finset.max' {α : Type*} [LinearOrder α] (s : Finset α) (H : s.Nonempty) : α"},
	{Name: "mul_pos", Kind: library.KindAlias, Signature: "alias mul_pos := Left.mul_pos", Parent: "Left.mul_pos"},
	{Name: "Left.mul_pos", Kind: library.KindTheorem, Signature: "theorem Left.mul_pos {α : Type*} [Mul α] [Zero α] [Preorder α] {a b : α} (ha : 0 < a) (hb : 0 < b) : 0 < a * b"},
	{Name: "Irreducible", Kind: library.KindStructure, Signature: "structure Irreducible {M : Type*} [Monoid M] (p : M) : Prop"},
	{Name: "Nat.Prime", Kind: library.KindDef, Signature: "def Nat.Prime (p : ℕ) : Prop", Value: "Irreducible p"},
	{Name: "Normal", Kind: library.KindStructure, Signature: "structure Normal {G : Type*} [Group G] (H : Set G) : Prop", Attrs: []string{"class"}},
	{Name: "Matrix", Kind: library.KindDef, Signature: "def Matrix (m : Type u) (n : Type u') (α : Type v) : Type max u u' v", Value: "m → n → α"},
	{Name: "Module.End.HasEigenvalue", Kind: library.KindAbbrev, Signature: "abbrev Module.End.HasEigenvalue {R M : Type*} [CommRing R] [AddCommGroup M] [Module R M] (f : Module.End R M) (a : R) : Prop"},
	{Name: "CommSemiring", Kind: library.KindClass, Signature: "class CommSemiring (R : Type u)"},
	{Name: "AddCommMonoid", Kind: library.KindClass, Signature: "class AddCommMonoid (M : Type u)"},
	{Name: "Module", Kind: library.KindClass, Signature: "class Module (R : Type u) (M : Type v) [Semiring R] [AddCommMonoid M]"},
}

// TestBundledMaps: a field a function of the map's namespace cannot take
// (its receiver comes after explicit parameters Lean must be given
// first), a structure whose one field is a bundled map and a class of
// data as a theorem's statement; each with near misses.
func TestBundledMaps(t *testing.T) {
	env := withDecls(notationEnv(), bundledDecls)
	env.FunctionFrom = func(full string) bool { return full != "IntermediateField" }
	env.BracketArrow = func(tok string) (string, bool) {
		c, ok := map[string]string{"→ₗ": "LinearMap", "≃ₗ": "LinearEquiv"}[tok]
		return c, ok
	}
	env.SectionBinders = func(d *library.Decl) ([]SectionBinder, bool) {
		if d.Name == "LinearMap.range" {
			// variable {F : Type*} [FunLike F M M₂]
			return []SectionBinder{{Names: []string{"F"}, Type: "Type*"}, {Type: "FunLike F M M₂"}}, true
		}
		return nil, true
	}
	variableHas := env.VariableHas
	env.VariableHas = func(classes []string, class string) bool {
		if class == "Lattice" {
			return slices.Contains(classes, "LinearOrderedField") || slices.Contains(classes, "Lattice")
		}
		return class == "AddCommMonoid" && slices.Contains(classes, "AddCommGroup") || variableHas(classes, class)
	}
	env.Fields = func(d *library.Decl) []string {
		return map[string][]string{"Basis": {"M ≃ₗ[R] (ι → R)"}, "LinearEquiv": {"LinearMap"},
			"LinearMap": {"M → M₂"}, "DivisionRing": {"K → K"}}[d.Name]
	}
	env.CoercesTo = func(n, full string) bool { return full != "Filter" && full != "LinearMap" }
	numberHas := env.NumberHas
	env.NumberHas = func(n, class string) bool {
		return class != "LocallyFiniteOrder" && (n != "ℝ" || class != "OrderBot") && numberHas(n, class)
	}
	checkFindings(t, env, []findingCase{
		// an interval of reals as a Finset where no expected type fixes
		// its type (a big operator's set, a field's receiver); with one,
		// the expected type may come first
		{"theorem a (n : ℕ) : ∑ k ∈ Finset.Icc (1 : ℝ) n, k = n := by sorry", "(1 : ℝ): failed to synthesize `LocallyFiniteOrder ℝ`: `Finset.Icc` expects a value of a type with `LocallyFiniteOrder`, but `(1 : ℝ)` is ℝ, and the library gives ℝ no `LocallyFiniteOrder` here"},
		{"theorem a (x : ℝ) : (Finset.Icc x x).card = 1 := by sorry", "x: failed to synthesize `LocallyFiniteOrder ℝ`: `Finset.Icc` expects a value of a type with `LocallyFiniteOrder`, but `x` is ℝ, and the library gives ℝ no `LocallyFiniteOrder` here"},
		{"theorem a (x : ℝ) (p : ℝ → Prop) [DecidablePred p] : ((Finset.Icc x x).filter p).card = 1 := by sorry", "x: failed to synthesize `LocallyFiniteOrder ℝ`: `Finset.Icc` expects a value of a type with `LocallyFiniteOrder`, but `x` is ℝ, and the library gives ℝ no `LocallyFiniteOrder` here"},
		{"theorem a (n : ℕ) : ∑ k ∈ Finset.Icc 1 n, (k : ℝ) = n := by sorry", ""},
		// a function into ℝ where its codomain needs a bottom (this tree's
		// Finset.sup is altered: the real signature)
		{"theorem a {ι : Type*} (s : Finset ι) (f : ι → ℝ) (i : ι) (hi : i ∈ s) : f i ≤ s.sup f := by sorry", "f: failed to synthesize `OrderBot ℝ`: `Finset.sup` needs an instance `[OrderBot α]`, and `f` makes α ℝ, to which the library gives no `OrderBot` here"},
		{"theorem a {ι : Type*} (s : Finset ι) (f : ι → ℕ) (i : ι) (hi : i ∈ s) : f i ≤ s.sup f := by sorry", ""},
		{"theorem a (x : ℕ) (s : Finset ℤ) (h : s = Finset.Icc x x) : True := by sorry", ""},
		// a function whose next argument is a proof, beside a number
		{"theorem a (s : Finset ℕ) (hs : s.Nonempty) : ∀ x ∈ s, x ≤ s.max' := by sorry", "s.max': failed to synthesize `≤`: `s.max'` is a function (`Finset.max'`: it takes 2 explicit arguments, given 1; the next is a proof of `s.Nonempty`), not a number"},
		{"theorem a (s : Finset ℕ) (hs : s.Nonempty) : ∀ x ∈ s, x ≤ s.max' hs := by sorry", ""},
		// an alias of a theorem used as a hypothesis's type
		{"theorem a (a b : ℝ) (ha : 0 < a) (hb : 0 < b) (hab : mul_pos ha hb) : 0 < a := by sorry", "mul_pos ha hb: type expected: `mul_pos` is a theorem, a proof and not a proposition"},
		// a proposition given to a local function of numbers
		{"theorem a (f : ℝ → ℝ) : ∃ x, f (x ∈ Set.Icc 0 1) = 0 := by sorry", "(x ∈ Set.Icc 0 1): type mismatch: `f` expects a value of type `ℝ`, but `(x ∈ Set.Icc 0 1)` is a proposition"},
		{"theorem a (f : ℝ → ℝ) : ∃ x ∈ Set.Icc (0 : ℝ) 1, f x = 0 := by sorry", ""},
		// |x| of a type variable with no lattice order
		{"theorem a (K : Type*) [Field K] (x : K) : |x| = x := by sorry", "|x|: failed to synthesize `Lattice K`: |x| is x ⊔ -x, and `K` has only `[Field K]`, from which the library derives no lattice order (an ordered field is `[LinearOrderedField K]`; a norm is ‖x‖)"},
		{"theorem a (K : Type*) [LinearOrderedField K] (x : K) : |x| = x := by sorry", ""},
		// an instance binder of no class
		{"theorem a (p : ℕ) [Nat.Prime p] : p ≠ 1 := by sorry", "Nat.Prime p: invalid binder annotation, type is not a class instance: `Nat.Prime p` is a proposition or a type (`Irreducible` is a structure, no class); bind a proof `(h : Nat.Prime p)`, or an instance `[Fact (Nat.Prime p)]`"},
		{"theorem a (p : ℕ) [hp : p.Prime] : p ≠ 1 := by sorry", "p.Prime: invalid binder annotation, type is not a class instance: `p.Prime` is a proposition or a type (`Irreducible` is a structure, no class); bind a proof `(h : p.Prime)`, or an instance `[Fact (p.Prime)]`"},
		{"theorem a (p : ℕ) (hp : Nat.Prime p) (G : Type*) [Group G] (H : Set G) [Normal H] : p ≠ 1 := by sorry", ""},
		// a field of a function is one of Function
		{"theorem a (n : ℕ) (A : Fin n → Fin n → ℝ) : A.det = 0 := by sorry", "A.det: invalid field `det`: the environment does not contain `Function.det` (`A` is a function)"},
		// a matrix where a linear map is expected
		{"theorem a (A : Matrix (Fin 2) (Fin 2) ℝ) (μ : ℝ) (h : Module.End.HasEigenvalue A μ) : μ = μ := by sorry",
			"A: type mismatch: `Module.End.HasEigenvalue` expects a value of type `Module.End R M`, but `A` is a matrix (of type `Matrix (Fin 2) (Fin 2) ℝ`, a function of its entries' indices; its linear map is `Matrix.toLin' A`), not a LinearMap"},
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] (f : V →ₗ[ℝ] V) (μ : ℝ) (h : Module.End.HasEigenvalue f μ) : μ = μ := by sorry", ""},
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] (f : V →ₗ[ℝ] V) : f.trace = 0 := by sorry",
			"f.trace: invalid field notation, function `LinearMap.trace` does not have argument with type (LinearMap ...) that can be used, it must be explicit or implicit with a unique name (it takes 2 explicit arguments before one, given 0)"},
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] (f : V →ₗ[ℝ] V) : LinearMap.trace ℝ V f = 0 := by sorry", ""},
		// through a coercion of its value to a function (Lean ≥ 4.13)
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] (f : V →ₗ[ℝ] V) : f.det = 0 := by sorry", ""},
		{"theorem a (V W : Type*) [AddCommGroup V] [Module ℝ V] [AddCommGroup W] [Module ℝ W] (f : V →ₗ[ℝ] W) : Module.finrank ℝ f.ker = 0 := by sorry", ""},
		// a plain function where a type of bundled maps is expected
		{"theorem a (V W : Type*) [AddCommGroup V] [Module ℝ V] [AddCommGroup W] [Module ℝ W] (f : V → W) : Module.finrank ℝ (LinearMap.ker f) = 0 := by sorry",
			"f: failed to synthesize `FunLike (V → W) …`: `LinearMap.ker` expects a bundled map (`F`, a type with a FunLike instance, such as `V →ₗ[R] W` or `G →* H`), but `f` is a plain function, and no instance makes a function type FunLike"},
		{"theorem a (V W : Type*) [AddCommGroup V] [Module ℝ V] [AddCommGroup W] [Module ℝ W] (f : V → W) : Module.finrank ℝ (LinearMap.range f) = 0 := by sorry",
			"f: failed to synthesize `FunLike (V → W) …`: `LinearMap.range` expects a bundled map (`F`, a type with a FunLike instance, such as `V →ₗ[R] W` or `G →* H`), but `f` is a plain function, and no instance makes a function type FunLike"},
		{"theorem a (V W : Type*) [AddCommGroup V] [Module ℝ V] [AddCommGroup W] [Module ℝ W] (f : V →ₗ[ℝ] W) : Module.finrank ℝ (LinearMap.ker f) = Module.finrank ℝ (LinearMap.range f) := by sorry", ""},
		// the first binder of the receiver's type is implicit: Lean passes
		// the receiver by name, and the value is a function still
		{"theorem a (K L : Type*) [Field K] [Field L] [Algebra K L] (F : IntermediateField K L) : Function.Injective F.lift := by sorry", ""},
		// a reducible definition may unfold to the map: not certain
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] (f : V →ₗ[ℝ] V) : f.rankOf = 0 := by sorry", ""},
		// an abbrev may unfold to the map: not certain
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] (f : V →ₗ[ℝ] V) : f.rank = 0 := by sorry", ""},
		// a structure of data as the statement
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] : Basis (Fin 3) ℝ V := by sorry", "Basis (Fin 3) ℝ V: type of theorem is not a proposition: `Basis (Fin 3) ℝ V` is a type"},
		{"theorem a (V : Type*) [AddCommGroup V] [Module ℝ V] : Nonempty (Basis (Fin 3) ℝ V) := by sorry", ""},
		// a class of data of a type that is no variable of the stub; of
		// its own variables, the references' "G is abelian"
		{"theorem a (p : ℕ) : DivisionRing (ZMod p) := by sorry", "DivisionRing (ZMod p): type of theorem is not a proposition: `DivisionRing (ZMod p)` is a type (a class of data, whose instances are structures); state `Nonempty (DivisionRing (ZMod p))`"},
		{"theorem a (K : Type*) [Ring K] (h : ∀ x : K, x ≠ 0 → IsUnit x) : DivisionRing K := by sorry", ""},
	})
}

// findingCase is a stub and the findings it must get ("" for none).
type findingCase struct{ stub, want string }

// checkFindings checks each case's findings under env.
func checkFindings(t *testing.T, env Env, cases []findingCase) {
	t.Helper()
	for _, tc := range cases {
		if got := findings(t, tc.stub, env); got != tc.want {
			t.Errorf("%s\n got: %s\nwant: %s", tc.stub, got, tc.want)
		}
	}
}

// TestLibraryInfix: an infix command of the library (`f ” s`, Set.image)
// is read at its precedence and elaborated as its constant applied to the
// operands, so `BddAbove f ” K` is `(BddAbove f) ” K`.
func TestLibraryInfix(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "Set.image", Kind: library.KindDef, Signature: "def Set.image {α β : Type*} (f : α → β) (s : Set α) : Set β"},
		{Name: "BddAbove", Kind: library.KindDef, Signature: "def BddAbove {α : Type*} [Preorder α] (s : Set α) : Prop"},
	})
	env.InfixOperator = func(atom string) (string, leansrc.Operator, bool) {
		return "Set.image", leansrc.Operator{Fixity: leansrc.Infixl, Prec: 80}, atom == "''"
	}
	checkFindings(t, env, []findingCase{
		{"theorem a (f : ℝ → ℝ) (K : Set ℝ) : BddAbove f '' K := by sorry",
			"BddAbove f: type mismatch: `Set.image` expects a function of type `α → β`, but `BddAbove f` is a proposition (a predicate is written `fun x => …`) | " +
				"f: type mismatch: `BddAbove` expects a value of type `Set α`, but `f` is a function (`f`: a local function between numbers) that is no predicate, so no set"},
		{"theorem a (f : ℝ → ℝ) (K : Set ℝ) : BddAbove (f '' K) := by sorry", ""},
		{"theorem a (f : ℝ → ℝ) (K : Set ℝ) : BddAbove (f '' K ∪ K) := by sorry", ""},
	})
}

// TestDefaultArguments: an explicit parameter with a default or an
// automatic value may be left out: the application is whole without it.
func TestDefaultArguments(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "Measure", Kind: library.KindStructure, Signature: "structure Measure (α : Type*) [MeasurableSpace α]"},
		{Name: "variance", Kind: library.KindDef, Signature: "def variance {Ω : Type*} {m : MeasurableSpace Ω} (X : Ω → ℝ) (μ : Measure Ω := by volume_tac) : ℝ"},
	})
	checkFindings(t, env, []findingCase{
		{"theorem a (Ω : Type*) [MeasurableSpace Ω] (X : Ω → ℝ) : 0 ≤ variance X := by sorry", ""},
		{"theorem a (Ω : Type*) [MeasurableSpace Ω] (μ : Measure Ω) (X : Ω → ℝ) : 0 ≤ variance X μ := by sorry", ""},
		{"theorem a (Ω : Type*) [MeasurableSpace Ω] (X : Ω → ℝ) : Nat.Prime (variance X) := by sorry",
			"(variance X): `Nat.Prime` expects a ℕ, but `(variance X)` is ℝ (no coercion ℝ → ℕ)"},
		{"theorem a (Ω : Type*) [MeasurableSpace Ω] (μ : Measure Ω) (X : Ω → ℝ) : variance X μ μ = 0 := by sorry",
			"variance X μ μ: too many arguments: `variance` takes 2 explicit arguments, given 3"},
	})
}

// TestValueSet: a definition with no result type whose value applies a
// function into sets, with a trailing lambda (`Set.range fun m => m • a`),
// is a Set.
func TestValueSet(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "Set.range", Kind: library.KindDef, Signature: "def Set.range {α : Type u} {ι : Sort*} (f : ι → α) : Set α", Value: "{x | ∃ y, f y = x}"},
		{Name: "Act.orbit", Kind: library.KindDef, Signature: "def Act.orbit {α : Type*} (a : α)", Value: "Set.range fun n : ℕ => a"},
	})
	checkFindings(t, env, []findingCase{
		{"theorem a (X : Type*) (x : X) : (Act.orbit x).card = 1 := by sorry",
			"(Act.orbit x).card: invalid field `card`: the environment does not contain `Set.card` (`(Act.orbit x)` is a `Set`)"},
		{"theorem a (X : Type*) (x : X) : x ∈ Act.orbit x := by sorry", ""},
	})
}

// TestQuotientBySet: a quotient by a Set, which no instance of the
// library takes (they quotient by subobjects), and by a subgroup.
func TestQuotientBySet(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "HasQuotient.Quotient", Kind: library.KindAbbrev, Signature: "abbrev HasQuotient.Quotient (A : outParam <| Type u) {B : Type v} [HasQuotient A B] (b : B) : Type max u v"},
		{Name: "HasQuotient", Kind: library.KindClass, Signature: "class HasQuotient (A : outParam <| Type u) (B : Type v)"},
		{Name: "Subgroup", Kind: library.KindStructure, Signature: "structure Subgroup (G : Type*) [Group G]"},
		{Name: "Subgroup.Normal", Kind: library.KindStructure, Signature: "structure Subgroup.Normal {G : Type*} [Group G] (H : Subgroup G) : Prop", Attrs: []string{"class"}},
		{Name: "IsCyclic", Kind: library.KindClass, Signature: "class IsCyclic (α : Type u) [Group α] : Prop"},
	})
	env.TypeHas = func(full, class string, pos int) bool { return full != "Set" || class != "HasQuotient" }
	checkFindings(t, env, []findingCase{
		{"theorem a {G : Type*} [Group G] (N : Set G) : Nonempty (G ⧸ N) := by sorry",
			"N: failed to synthesize `HasQuotient G (Set …)`: `N` is a Set, and the library quotients only by subobjects (a subgroup `(N : Subgroup G)`, a submodule, an ideal; the subgroup a set generates is `Subgroup.closure N`)"},
		{"theorem a {G : Type*} [Group G] (N : Subgroup G) : Nonempty (G ⧸ N) := by sorry", ""},
		// a quotient's product, with no normality
		{"theorem a {G : Type*} [Group G] (H : Subgroup G) (x y : G ⧸ H) : x * y = y := by sorry",
			"x: failed to synthesize `Mul (G ⧸ H)`: `G ⧸ H` is a group only when `H` is normal, and no binder of the statement gives `[H.Normal]` (nor is `G` commutative)"},
		{"theorem a {G : Type*} [Group G] (H : Subgroup G) [H.Normal] (x y : G ⧸ H) : x * y = y := by sorry", ""},
		{"theorem a {G : Type*} [Group G] (H : Subgroup G) (hH : H.Normal) (x y : G ⧸ H) : x * y = y := by sorry", ""},
		// a class of groups of a quotient with no normality
		{"theorem a (G : Type*) [Group G] (N : Subgroup G) (h : Nat.card (G ⧸ N) = 7) : IsCyclic (G ⧸ N) := by sorry",
			"(G ⧸ N): failed to synthesize `Group (G ⧸ N)`: `IsCyclic` needs an instance `[Group …]`, and `G ⧸ N` is a group only when `N` is normal, and no binder of the statement gives `[N.Normal]` (nor is `G` commutative)"},
		{"theorem a (G : Type*) [Group G] (N : Subgroup G) [N.Normal] (h : Nat.card (G ⧸ N) = 7) : IsCyclic (G ⧸ N) := by sorry", ""},
		// a hypothesis of membership is no instance of normality
		{"theorem a {G : Type*} [Group G] (H : Subgroup G) (h : ∀ x y : G, x * y * x⁻¹ * y⁻¹ ∈ H) : ∀ a b : G ⧸ H, a * b = b * a := by sorry",
			"a: failed to synthesize `Mul (G ⧸ H)`: `G ⧸ H` is a group only when `H` is normal, and no binder of the statement gives `[H.Normal]` (nor is `G` commutative) | " +
				"b: failed to synthesize `Mul (G ⧸ H)`: `G ⧸ H` is a group only when `H` is normal, and no binder of the statement gives `[H.Normal]` (nor is `G` commutative)"},
		{"theorem a {G : Type*} [Group G] (H : Subgroup G) (h : ∀ x y : G, x * y * x⁻¹ * y⁻¹ ∈ H) (hH : Subgroup.Normal H) : ∀ a b : G ⧸ H, a * b = b * a := by sorry", ""},
	})
}

// TestReceiverInstance: a `[Fintype T]` of a signature whose T is built
// from a variable of the statement (a graph's neighbour set, a set) that
// no instance binder mentions, where the library's instances give it only
// from an instance about that variable.
func TestReceiverInstance(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "SimpleGraph", Kind: library.KindStructure, Signature: "structure SimpleGraph (V : Type u)"},
		{Name: "SimpleGraph.Adj", Kind: library.KindField, Parent: "SimpleGraph", Signature: "field SimpleGraph.Adj : V → V → Prop"},
		{Name: "SimpleGraph.neighborSet", Kind: library.KindDef, Signature: "def SimpleGraph.neighborSet {V : Type*} (G : SimpleGraph V) (v : V) : Set V", Value: "{w | G.Adj v w}"},
		{Name: "SimpleGraph.LocallyFinite", Kind: library.KindAbbrev, Signature: "abbrev SimpleGraph.LocallyFinite {V : Type*} (G : SimpleGraph V)", Value: "∀ v : V, Fintype (G.neighborSet v)"},
		{Name: "SimpleGraph.degree", Kind: library.KindDef, Signature: "def SimpleGraph.degree {V : Type*} (G : SimpleGraph V) (v : V) [Fintype (G.neighborSet v)] : ℕ"},
		{Name: "Set.toFinset", Kind: library.KindDef, Signature: "def Set.toFinset {α : Type*} (s : Set α) [Fintype ↑s] : Finset α"},
	})
	env.ReceiverInstance = func(class, typeHead, field string) (string, string, bool) {
		switch {
		case class == "Fintype" && typeHead == "SimpleGraph" && field == "neighborSet":
			return "DecidableRel H.Adj", "H", true
		case class == "Fintype" && typeHead == "Set" && field == "":
			return "", "", true
		}
		return "", "", false
	}
	checkFindings(t, env, []findingCase{
		{"theorem a (V : Type*) [Fintype V] (G : SimpleGraph V) (w : V) : G.degree w ≤ 3 := by sorry",
			"G: failed to synthesize `Fintype (G.neighborSet w)`: `SimpleGraph.degree` needs an instance `[Fintype (G.neighborSet w)]`, which the library gives only from an instance about `G`, and no instance binder of the statement mentions `G` (add [DecidableRel G.Adj], or open Classical)"},
		{"theorem a (V : Type*) [Fintype V] (G : SimpleGraph V) [DecidableRel G.Adj] (w : V) : G.degree w ≤ 3 := by sorry", ""},
		{"theorem a (V : Type*) (G : SimpleGraph V) [G.LocallyFinite] (w : V) : G.degree w ≤ 3 := by sorry", ""},
		{"theorem a (V : Type*) (G : SimpleGraph V) (w : V) [Fintype (G.neighborSet w)] : G.degree w ≤ 3 := by sorry", ""},
		{"theorem a (s : Set ℕ) (hs : s.Finite) : s.toFinset.card ≤ 3 := by sorry",
			"s: failed to synthesize `Fintype ↑s`: `Set.toFinset` needs an instance `[Fintype ↑s]`, which the library gives only from an instance about `s`, and no instance binder of the statement mentions `s` (add [Fintype ↑s], or open Classical)"},
		{"theorem a (s : Set ℕ) [Fintype s] : s.toFinset.card ≤ 3 := by sorry", ""},
		{"theorem a (s : Set ℕ) [DecidablePred (· ∈ s)] : s.toFinset.card ≤ 3 := by sorry", ""},
	})
	env.Classical = true
	checkFindings(t, env, []findingCase{
		{"theorem a (V : Type*) [Fintype V] (G : SimpleGraph V) (w : V) : G.degree w ≤ 3 := by sorry", ""},
	})
}

// TestFunctionGivenForNumber: an argument of a function type where another
// argument fixed the parameter's type variable to a number.
func TestFunctionGivenForNumber(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "HasDerivAt", Kind: library.KindDef, Signature: "def HasDerivAt {𝕜 : Type u} [NontriviallyNormedField 𝕜] {F : Type v} [AddCommGroup F] (f : 𝕜 → F) (f' : F) (x : 𝕜) : Prop"},
	})
	checkFindings(t, env, []findingCase{
		{"theorem a (f f' : ℝ → ℝ) (x : ℝ) (h : HasDerivAt f f' x) : True := by sorry",
			"f': application type mismatch: `f'` has type `ℝ → ℝ`, but `HasDerivAt` expects `F` here, which `f` fixed to `ℝ` (no coercion (ℝ → ℝ) → ℝ)"},
		{"theorem a (f f' : ℝ → ℝ) (x : ℝ) (h : HasDerivAt f (f' x) x) : True := by sorry", ""},
		{"theorem a (f : ℝ → ℝ) (d x : ℝ) (h : HasDerivAt f d x) : True := by sorry", ""},
	})
}

// TestCoreTheorem: a snake_case name of a core namespace that the library
// does not declare, where a proposition is expected, is a theorem of Lean
// core or unknown: rejected either way.
func TestCoreTheorem(t *testing.T) {
	env := notationEnv()
	env.CoreNamespace = func(ns string) bool { return ns == "Nat" }
	checkFindings(t, env, []findingCase{
		{"theorem a (a b : ℕ) : Nat.gcd_comm a b := by sorry",
			"Nat.gcd_comm a b: type expected: `Nat.gcd_comm` is, by Lean's naming convention (snake_case), a theorem of Lean core, which the library does not declare: a proof, not a proposition (and if Lean core has no such theorem, an unknown identifier)"},
		{"theorem a (a b : ℕ) (hb : 0 < b) (h : a ∣ b) : Nat.le_of_dvd hb h ∧ 0 < a := by sorry",
			"Nat.le_of_dvd hb h: type expected: `Nat.le_of_dvd` is, by Lean's naming convention (snake_case), a theorem of Lean core, which the library does not declare: a proof, not a proposition (and if Lean core has no such theorem, an unknown identifier)"},
		{"theorem a (a b : ℕ) : Nat.gcd a b = Nat.gcd b a := by sorry", ""},
		// a camelCase name may be a definition of a proposition
		{"theorem a (a b : ℕ) : Nat.Coprime a b := by sorry", ""},
		{"theorem a (a b : ℕ) : Nat.isCoprime a b := by sorry", ""},
		// another namespace may be a library's the index lacks
		{"theorem a (a b : ℕ) : Foo.gcd_comm a b := by sorry", ""},
	})
}

// TestPointwiseInverse: f⁻¹ of a local function into a field is Pi's
// pointwise inverse, a function of f's type, not the preimage.
func TestPointwiseInverse(t *testing.T) {
	checkFindings(t, notationEnv(), []findingCase{
		{"theorem a (f : ℝ → ℝ) (U : Set ℝ) : Set.ncard (f⁻¹ U) = 0 := by sorry",
			"(f⁻¹ U): type mismatch: `Set.ncard` expects a value of type `Set α`, but `(f⁻¹ U)` is a number of type ℝ, not a set (a singleton is `{(f⁻¹ U)}`)"},
		{"theorem a (f : ℝ → ℝ) (U : Set ℝ) : Set.ncard (f ⁻¹' U) = 0 := by sorry", ""},
		{"theorem a (f : ℝ → ℝ) (x : ℝ) : f⁻¹ x = (f x)⁻¹ := by sorry", ""},
	})
}

// TestTypeForFunctionType: a type given where a value of a definition
// whose value is a function type (a matrix) is expected.
func TestTypeForFunctionType(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "Matrix", Kind: library.KindDef, Signature: "def Matrix (m : Type u) (n : Type u') (α : Type v) : Type max u u' v", Value: "m → n → α"},
		{Name: "Matrix.trace", Kind: library.KindDef, Signature: "def Matrix.trace {n : Type*} {R : Type*} [Fintype n] [AddCommMonoid R] (A : Matrix n n R) : R"},
	})
	checkFindings(t, env, []findingCase{
		{"theorem a (A : Matrix (Fin 3) (Fin 3) ℝ) : Matrix.trace (Fin 3) = 0 := by sorry",
			"(Fin 3): type mismatch: `Matrix.trace` expects a value of type `Matrix n n R`, but `(Fin 3)` is a type"},
		{"theorem a (A : Matrix (Fin 3) (Fin 3) ℝ) : Matrix.trace A = 0 := by sorry", ""},
		// a vector where a row index goes
		{"theorem a (A : Matrix (Fin 2) (Fin 2) ℝ) (v : Fin 2 → ℝ) (h : A v = 0) : True := by sorry",
			"v: application type mismatch: `v` is a function (of type `Fin 2 → ℝ`), but `A` is a matrix whose rows are indexed by `Fin 2` (a matrix times a vector is `A *ᵥ v`)"},
		{"theorem a (A : Matrix (Fin 2) (Fin 2) ℝ) (i : Fin 2) : A i = A i := by sorry", ""},
	})
}

// TestClassSecondArgument: a class field whose class takes the type
// unification fixes as its second argument (`Inner 𝕜 E` of `inner x y`).
func TestClassSecondArgument(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "Inner", Kind: library.KindClass, Signature: "class Inner (𝕜 E : Type*)"},
		{Name: "Inner.inner", Kind: library.KindField, Parent: "Inner", Signature: "field Inner.inner : E → E → 𝕜"},
	})
	env.VariableHas = func(classes []string, class string) bool {
		return class != "Inner@1" || slices.Contains(classes, "InnerProductSpace@1")
	}
	checkFindings(t, env, []findingCase{
		{"theorem a (V : Type*) [NormedAddCommGroup V] (x y : V) : Inner.inner x y = (0 : ℝ) := by sorry",
			"x: failed to synthesize `Inner … V`: `Inner.inner` needs an instance `[Inner … V]`, and `V` has only `[NormedAddCommGroup V]`, from which the library derives no `Inner` instance"},
		{"theorem a (V : Type*) [NormedAddCommGroup V] [InnerProductSpace ℝ V] (x y : V) : Inner.inner x y = (0 : ℝ) := by sorry", ""},
	})
}

// TestSeries: ∑' is a value of its body's type over the whole binder type,
// no Fintype needed; a series is no function, nor a sum of propositions.
func TestSeries(t *testing.T) {
	env := withDecls(notationEnv(), []*library.Decl{
		{Name: "Summable", Kind: library.KindDef, Signature: "def Summable {α β : Type*} [AddCommMonoid α] [TopologicalSpace α] (f : β → α) : Prop"},
	})
	env.PropInstance = func(class string, pos int) bool { return false }
	checkFindings(t, env, []findingCase{
		{"theorem a (a : ℕ → ℝ) (h : Summable a) : Summable (∑' n, a n ^ 2) := by sorry",
			"(∑' n, a n ^ 2): type mismatch: `Summable` expects a function of type `β → α`, but `(∑' n, a n ^ 2)` is a number of type ℝ"},
		{"theorem a (a : ℕ → ℝ) (h : Summable a) : Summable (fun n => a n ^ 2) := by sorry", ""},
		{"theorem a : ∑' n : ℕ, (1 : ℝ) / 2 ^ n = 2 := by sorry", ""},
		{"theorem a : ∑' n : ℕ, Nat.Prime n = 2 := by sorry",
			"Nat.Prime n: failed to synthesize `AddCommMonoid Prop`: `Nat.Prime n` is a proposition, and ∑' combines values of a type with `AddCommMonoid` (the library has no such instance for Prop)"},
	})
}
