/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
Authors: drift-lsp test fixtures
-/

/-!
# Minimath: basic arithmetic and algebra

A tiny stand-in for Mathlib used by the drift-lsp test workspace. It defines

* `Minimath.Divides` with the notation `a ∣ₘ b`,
* `Mm.Prime`, `Mm.Odd`, `Mm.Even`, `Mm.gcd`, `Mm.Coprime`, `Mm.ModEq`,
* the algebraic hierarchy `Mm.Monoid` / `Mm.AddMonoid` and `Mm.Group`,
  with `@[to_additive]` twins such as `Mm.prod` ↦ `Mm.sum`.

/- A nested block comment inside the module docstring; `def notADecl : Nat := 0`
   must not be indexed. /- Doubly nested. -/ Still nested. -/

The module docstring ends here.
-/

set_option autoImplicit false

universe u v w

/-! ## Divisibility -/

namespace Minimath

/-- `Divides a b` means that `a` divides `b`: there is some `c` with `b = a * c`. -/
def Divides (a b : Nat) : Prop := ∃ c, b = a * c

/-- `a ∣ₘ b` is notation for `Minimath.Divides a b`. -/
infix:50 " ∣ₘ " => Divides

namespace Divides

/-- Every natural number divides itself. -/
@[simp, refl]
theorem refl (a : Nat) : a ∣ₘ a := ⟨1, (Nat.mul_one a).symm⟩

/-- Divisibility is transitive. -/
theorem trans {a b c : Nat} (h₁ : a ∣ₘ b) (h₂ : b ∣ₘ c) : a ∣ₘ c := by
  obtain ⟨d, rfl⟩ := h₁
  obtain ⟨e, rfl⟩ := h₂
  exact ⟨d * e, Nat.mul_assoc a d e⟩

/-- Every number divides zero. -/
@[simp]
theorem zero_right (a : Nat) : a ∣ₘ 0 := ⟨0, (Nat.mul_zero a).symm⟩

/-- One divides every number. -/
@[simp]
theorem one_left (a : Nat) : 1 ∣ₘ a := ⟨a, (Nat.one_mul a).symm⟩

/-- If `a ∣ₘ b` then `a ∣ₘ b * c`. -/
theorem mul_right {a b : Nat} (h : a ∣ₘ b) (c : Nat) : a ∣ₘ b * c := by
  obtain ⟨d, rfl⟩ := h
  exact ⟨d * c, Nat.mul_assoc a d c⟩

/-- Divisibility is antisymmetric on the natural numbers. -/
protected theorem antisymm {a b : Nat} (h₁ : a ∣ₘ b) (h₂ : b ∣ₘ a) : a = b := by
  obtain ⟨c, rfl⟩ := h₁
  obtain ⟨d, hd⟩ := h₂
  rcases Nat.eq_zero_or_pos a with rfl | ha
  · simp
  · have hcd : c * d = 1 := by
      apply Nat.eq_of_mul_eq_mul_left ha
      rw [← Nat.mul_assoc, ← hd, Nat.mul_one]
    simp [Nat.eq_one_of_mul_eq_one_right hcd]

/-- Divisibility of a sum. -/
theorem add {a b c : Nat} (h₁ : a ∣ₘ b) (h₂ : a ∣ₘ c) : a ∣ₘ b + c := by
  obtain ⟨d, rfl⟩ := h₁
  obtain ⟨e, rfl⟩ := h₂
  exact ⟨d + e, (Nat.mul_add a d e).symm⟩

end Divides

/-- A positive divisor is at most the number it divides. -/
theorem le_of_divides {a b : Nat} (hb : 0 < b) (h : a ∣ₘ b) : a ≤ b := by
  obtain ⟨c, rfl⟩ := h
  cases c with
  | zero => simp at hb
  | succ k => exact Nat.le_mul_of_pos_right a (Nat.succ_pos k)

alias divides_refl := Divides.refl
alias divides_trans := Divides.trans

/-- Decide divisibility by computing a remainder. -/
instance decidableDivides (a b : Nat) : Decidable (a ∣ₘ b) :=
  decidable_of_iff (b % a = 0) (by sorry)

end Minimath

export Minimath (Divides divides_refl)

/-! ## Primes, parity, gcd -/

namespace Mm

open Minimath

/-- A natural number `p` is prime if it is at least `2` and its only divisors
are `1` and `p` itself. -/
def Prime (p : Nat) : Prop := 2 ≤ p ∧ ∀ m, m ∣ₘ p → m = 1 ∨ m = p

/-- A natural number is even if it is the sum of a number with itself. -/
def Even (n : Nat) : Prop := ∃ k, n = k + k

/-- A natural number is odd if it has the form `2 * k + 1`. -/
def Odd (n : Nat) : Prop := ∃ k, n = 2 * k + 1

/-- The greatest common divisor of two natural numbers, by Euclid's algorithm. -/
def gcd : Nat → Nat → Nat
  | 0, b => b
  | a + 1, b => gcd (b % (a + 1)) (a + 1)
termination_by a _ => a
decreasing_by exact Nat.mod_lt _ (Nat.succ_pos _)

/-- The least common multiple of two natural numbers. -/
def lcm (a b : Nat) : Nat := a * b / gcd a b

/-- `a ⊗ₘ b` is the least common multiple. -/
infixl:70 " ⊗ₘ " => lcm

/-- Two natural numbers are coprime if their greatest common divisor is `1`. -/
def Coprime (a b : Nat) : Prop := gcd a b = 1

/-- Congruence modulo `n`: `a ≡ b [MOD n]` when `a` and `b` leave the same remainder. -/
def ModEq (n a b : Nat) : Prop := a % n = b % n

@[inherit_doc] scoped notation:50 a " ≡ " b " [MOD " n "]" => ModEq n a b

/-- Boolean primality test by trial division. -/
def isPrimeB (n : Nat) : Bool :=
  2 ≤ n && go 2
where
  /-- Auxiliary loop: no divisor in `[d, n)`. -/
  go (d : Nat) : Bool :=
    if h : d < n then n % d != 0 && go (d + 1) else true
  termination_by n - d

/-- The list of primes below `n`, in increasing order. -/
def primesBelow (n : Nat) : List Nat := loop n []
where
  loop : Nat → List Nat → List Nat
    | 0, acc => acc
    | k + 1, acc => loop k (if isPrimeB k then k :: acc else acc)

/-- Euler's totient `φ n`: how many `k < n` are coprime to `n`. -/
def φ (n : Nat) : Nat := ((List.range n).filter fun k => gcd k n == 1).length

/-- The sum of the divisors of `n`, `σ₁ n`. -/
def σ₁ (n : Nat) : Nat := ((List.range (n + 1)).filter fun d => d != 0 && n % d == 0).foldl (· + ·) 0

/-- Integer square root, rounding down. -/
def isqrt (n : Nat) : Nat := (List.range (n + 1)).foldl (fun r k => if k * k ≤ n then k else r) 0

/-- `√ₘ n` is the integer square root of `n`. -/
prefix:max "√ₘ" => isqrt

/-- Every prime is at least two. -/
theorem Prime.two_le {p : Nat} (hp : Prime p) : 2 ≤ p := hp.1

/-- A prime is positive. -/
theorem Prime.pos {p : Nat} (hp : Prime p) : 0 < p := Nat.lt_of_lt_of_le (by decide) hp.1

/-- The only divisors of a prime are one and itself. -/
theorem Prime.eq_one_or_self_of_divides {p m : Nat} (hp : Prime p) (h : m ∣ₘ p) :
    m = 1 ∨ m = p :=
  hp.2 m h

/-- Two is prime. -/
theorem «two is prime» : Prime 2 := by
  refine ⟨Nat.le_refl 2, fun m hm => ?_⟩
  have h := Minimath.le_of_divides (by decide) hm
  obtain ⟨c, hc⟩ := hm
  rcases m with _ | _ | _ | m
  · simp at hc
  · exact Or.inl rfl
  · exact Or.inr rfl
  · omega

alias prime_two := «two is prime»

/-- A number is either even or odd. -/
theorem even_or_odd (n : Nat) : Even n ∨ Odd n := by
  induction n with
  | zero => exact Or.inl ⟨0, rfl⟩
  | succ n ih =>
    rcases ih with ⟨k, rfl⟩ | ⟨k, rfl⟩
    · exact Or.inr ⟨k, by omega⟩
    · exact Or.inl ⟨k + 1, by omega⟩

/-- `gcd a b` divides `a`. -/
theorem gcd_divides_left (a b : Nat) : gcd a b ∣ₘ a := by
  sorry

/-- `gcd a b` divides `b`. -/
theorem gcd_divides_right (a b : Nat) : gcd a b ∣ₘ b := by
  sorry

/-- The gcd is commutative. -/
theorem gcd_comm (a b : Nat) : gcd a b = gcd b a := by
  sorry

/-- Congruence modulo `n` is reflexive. -/
@[refl]
protected theorem ModEq.refl (n a : Nat) : a ≡ a [MOD n] := rfl

/-- Congruence modulo `n` is symmetric. -/
protected theorem ModEq.symm {n a b : Nat} (h : a ≡ b [MOD n]) : b ≡ a [MOD n] := h.symm

/-- Congruence modulo `n` is transitive. -/
protected theorem ModEq.trans {n a b c : Nat} (h₁ : a ≡ b [MOD n]) (h₂ : b ≡ c [MOD n]) :
    a ≡ c [MOD n] :=
  h₁.trans h₂

/-- `n ∣ₘ b - a` characterises congruence (for `a ≤ b`). -/
theorem modEq_iff_divides {n a b : Nat} (hab : a ≤ b) : a ≡ b [MOD n] ↔ n ∣ₘ b - a := by
  sorry

/-- There are primes above every bound.  (An axiom here, to exercise `axiom`.) -/
axiom exists_prime_above (n : Nat) : ∃ p, n < p ∧ Prime p

/-- A seed whose value is deliberately hidden. -/
opaque secretSeed : Nat

/-- Pairs of naturals, used for ordered factorisations. -/
abbrev NatPair := Nat × Nat

private def helperBound (n : Nat) : Nat := n * n + 1

private theorem helperBound_pos (n : Nat) : 0 < helperBound n := Nat.succ_pos _

/-- The parity of a natural number, as data. -/
inductive Parity
  | even
  | odd
  deriving DecidableEq, Repr, Inhabited

/-- Compute the parity of `n`. -/
def parity (n : Nat) : Parity := if n % 2 = 0 then .even else .odd

/-- Binary trees with labelled nodes. -/
inductive Tree (α : Type u) where
  | leaf : Tree α
  | node (left : Tree α) (val : α) (right : Tree α) : Tree α
  deriving Repr

/-- The number of labels in a tree. -/
def Tree.size {α : Type u} : Tree α → Nat
  | .leaf => 0
  | .node l _ r => l.size + 1 + r.size

mutual
  /-- Even-ness, by mutual recursion. -/
  def isEven : Nat → Bool
    | 0 => true
    | n + 1 => isOdd n
  /-- Odd-ness, by mutual recursion. -/
  def isOdd : Nat → Bool
    | 0 => false
    | n + 1 => isEven n
end

mutual
  /-- Inductive evenness predicate. -/
  inductive EvenN : Nat → Prop
    | zero : EvenN 0
    | succ {n : Nat} : OddN n → EvenN (n + 1)
  /-- Inductive oddness predicate. -/
  inductive OddN : Nat → Prop
    | succ {n : Nat} : EvenN n → OddN (n + 1)
end

/-- Strings and characters that contain comment markers must not confuse a scanner. -/
def banner : String := "minimath -- not a comment /- not a block -/ and -/ stray \"quote\""

/-- A character literal holding a dash. -/
def dashChar : Char := '-'

/-- A character literal holding a quote. -/
def quoteChar : Char := '\''

/- An ordinary block comment /- with a nested comment -/ and a fake declaration:
theorem fake_theorem : False := sorry
-/

-- A line comment: def alsoFake : Nat := 1

set_option maxRecDepth 2000 in
/-- The first primes, checked by computation. -/
theorem primesBelow_twenty : primesBelow 20 = [2, 3, 5, 7, 11, 13, 17, 19] := by
  native_decide

open Nat in
/-- Subscripted variables and `open … in`. -/
theorem divides_trans₃ {a₁ a₂ a₃ a₄ : Nat} (h₁ : a₁ ∣ₘ a₂) (h₂ : a₂ ∣ₘ a₃) (h₃ : a₃ ∣ₘ a₄) :
    a₁ ∣ₘ a₄ :=
  (h₁.trans h₂).trans h₃

end Mm

/-- Declared at the root with a dotted name: its full name is `Nat.two_le_of_mmPrime`. -/
theorem Nat.two_le_of_mmPrime {p : Nat} (hp : Mm.Prime p) : 2 ≤ p := hp.1

namespace Mm.Digits

/-- The list of decimal digits of `n`, least significant first. -/
def digits (n : Nat) : List Nat :=
  if h : n < 10 then [n] else n % 10 :: digits (n / 10)
termination_by n
decreasing_by omega

/-- The digit sum of `n`. -/
def digitSum (n : Nat) : Nat := (digits n).foldl (· + ·) 0

/-- `_root_` escapes both namespaces. -/
theorem _root_.Nat.digitSum_le_self (n : Nat) : digitSum n ≤ n := by
  sorry

end Mm.Digits

/-! ## Monoids and groups -/

namespace Mm

/-- An additive monoid: an associative addition with a neutral element `0`. -/
class AddMonoid (M : Type u) extends Add M, Zero M where
  /-- Addition is associative. -/
  add_assoc : ∀ a b c : M, a + b + c = a + (b + c)
  /-- `0` is a left identity. -/
  zero_add : ∀ a : M, 0 + a = a
  /-- `0` is a right identity. -/
  add_zero : ∀ a : M, a + 0 = a

/-- A monoid: an associative multiplication with a neutral element `1`. -/
@[to_additive]
class Monoid (M : Type u) extends Mul M, One M where
  /-- Multiplication is associative. -/
  mul_assoc : ∀ a b c : M, a * b * c = a * (b * c)
  /-- `1` is a left identity. -/
  one_mul : ∀ a : M, 1 * a = a
  /-- `1` is a right identity. -/
  mul_one : ∀ a : M, a * 1 = a

/-- Types with an inverse operation `a⁻¹ᵐ`. -/
@[to_additive "Types with a negation operation."]
class HasInv (α : Type u) where
  /-- The inverse. -/
  inv : α → α

@[inherit_doc] postfix:max "⁻¹ᵐ" => HasInv.inv

/-- A group: a monoid in which every element has a left inverse. -/
@[to_additive "An additive group: an additive monoid with negation."]
class Group (G : Type u) extends Monoid G, HasInv G where
  /-- `a⁻¹ᵐ * a = 1`. -/
  inv_mul_cancel : ∀ a : G, a⁻¹ᵐ * a = 1

/-- A commutative monoid. -/
@[to_additive]
class CommMonoid (M : Type u) extends Monoid M where
  /-- Multiplication is commutative. -/
  mul_comm : ∀ a b : M, a * b = b * a

section Monoid

variable {M : Type u} [Monoid M]

@[to_additive (attr := simp)]
theorem mul_one (a : M) : a * 1 = a := Monoid.mul_one a

@[to_additive (attr := simp)]
theorem one_mul (a : M) : 1 * a = a := Monoid.one_mul a

@[to_additive]
theorem mul_assoc (a b c : M) : a * b * c = a * (b * c) := Monoid.mul_assoc a b c

/-- The product of a list of elements of a monoid. -/
@[to_additive "The sum of a list of elements of an additive monoid."]
def prod : List M → M
  | [] => 1
  | a :: l => a * prod l

/-- Natural-number powers in a monoid. -/
@[to_additive nsmul "Natural-number multiples in an additive monoid."]
def npow : Nat → M → M
  | 0, _ => 1
  | n + 1, a => npow n a * a

@[to_additive (attr := simp)]
theorem prod_nil : prod ([] : List M) = 1 := rfl

@[to_additive (attr := simp)]
theorem prod_cons (a : M) (l : List M) : prod (a :: l) = a * prod l := rfl

/-- The product of a concatenation is the product of the products. -/
@[to_additive "The sum of a concatenation is the sum of the sums."]
theorem prod_append (l₁ l₂ : List M) : prod (l₁ ++ l₂) = prod l₁ * prod l₂ := by
  induction l₁ with
  | nil => simp
  | cons a l ih => simp [ih, mul_assoc]

@[to_additive sum_singleton_eq]
theorem prod_singleton (a : M) : prod [a] = a := by simp

@[to_additive (attr := simp) zero_nsmul]
theorem npow_zero (a : M) : npow 0 a = 1 := rfl

end Monoid

section Group

variable {G : Type u} [Group G]

@[to_additive (attr := simp)]
theorem inv_mul_cancel (a : G) : a⁻¹ᵐ * a = 1 := Group.inv_mul_cancel a

/-- In a group, left multiplication is injective. -/
@[to_additive "In an additive group, left addition is injective."]
theorem mul_left_cancel {a b c : G} (h : a * b = a * c) : b = c := by
  calc b = a⁻¹ᵐ * a * b := by simp
    _ = a⁻¹ᵐ * (a * c) := by rw [mul_assoc, h]
    _ = c := by rw [← mul_assoc]; simp

end Group

/-- The natural numbers form a monoid under multiplication. -/
instance : Monoid Nat where
  mul := (· * ·)
  one := 1
  mul_assoc := Nat.mul_assoc
  one_mul := Nat.one_mul
  mul_one := Nat.mul_one

/-- The natural numbers form an additive monoid. -/
instance natAddMonoid : AddMonoid Nat where
  add := (· + ·)
  zero := 0
  add_assoc := Nat.add_assoc
  zero_add := Nat.zero_add
  add_zero := Nat.add_zero

instance (priority := low) instMonoidProd {M N : Type u} [Monoid M] [Monoid N] :
    Monoid (M × N) where
  mul p q := (p.1 * q.1, p.2 * q.2)
  one := (1, 1)
  mul_assoc := by sorry
  one_mul := by sorry
  mul_one := by sorry

attribute [simp] Prime.two_le

noncomputable section

/-- Some divisor of `n` other than `1`, chosen classically. -/
def someDivisor (n : Nat) (h : ∃ d, d ≠ 1 ∧ d ∣ₘ n) : Nat := Classical.choose h

/-- The chosen divisor is a divisor. -/
theorem someDivisor_divides (n : Nat) (h : ∃ d, d ≠ 1 ∧ d ∣ₘ n) : someDivisor n h ∣ₘ n :=
  (Classical.choose_spec h).2

end

end Mm
