/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
-/
import Minimath.Basic

/-!
# Monoid and group lemmas

Lemmas about `Mm.Monoid`, `Mm.Group` and list products `Mm.prod`, most of them with
`@[to_additive]` twins about `Mm.AddMonoid`, `Mm.AddGroup` and `Mm.sum`.
-/

set_option autoImplicit false

universe u

namespace DriftExample.Algebra

open Mm

section Monoid

variable {M : Type u} [Monoid M]

/-- The identity is unique: an element that is a left identity for everything is `1`. -/
@[to_additive "The zero is unique: a left zero for everything is `0`."]
theorem one_unique {e : M} (h : ∀ a : M, e * a = a) : e = 1 := by
  have := h 1
  rwa [mul_one] at this

/-- Powers add: `a ^ (m + n) = a ^ m * a ^ n`, written with `npow`. -/
@[to_additive add_nsmul "Multiples add: `(m + n) • a = m • a + n • a`."]
theorem npow_add (m n : Nat) (a : M) : npow (m + n) a = npow m a * npow n a := by
  induction n with
  | zero => simp [npow]
  | succ n ih => rw [← Nat.add_assoc, npow, npow, ih, mul_assoc]

/-- The product of a list of ones is one. -/
@[to_additive (attr := simp) "The sum of a list of zeros is zero."]
theorem prod_replicate_one (n : Nat) : prod (List.replicate n (1 : M)) = 1 := by
  induction n with
  | zero => rfl
  | succ n ih => simp [List.replicate, ih]

end Monoid

section CommMonoid

variable {M : Type u} [CommMonoid M]

/-- In a commutative monoid, the product of a reversed list is the product of the list. -/
@[to_additive "In a commutative additive monoid, the sum of a reversed list is the sum."]
theorem prod_reverse (l : List M) : prod l.reverse = prod l := by
  sorry

/-- Powers of a product in a commutative monoid. -/
@[to_additive nsmul_add]
theorem mul_npow (a b : M) (n : Nat) : npow n (a * b) = npow n a * npow n b := by
  sorry

end CommMonoid

section Group

variable {G : Type u} [Group G]

/-- In a group, the inverse of the inverse is the element itself. -/
@[to_additive (attr := simp) "In an additive group, `- -a = a`."]
theorem inv_inv (a : G) : a⁻¹ᵐ⁻¹ᵐ = a := by
  sorry

/-- In a group, right multiplication is injective. -/
@[to_additive]
theorem mul_right_cancel {a b c : G} (h : b * a = c * a) : b = c := by
  sorry

/-- A group element equal to its square is the identity. -/
@[to_additive]
theorem eq_one_of_mul_self {a : G} (h : a * a = a) : a = 1 :=
  mul_left_cancel (a := a) (by rw [h, mul_one])

end Group

/-- The trivial monoid on `Unit`. -/
instance : Monoid Unit where
  mul _ _ := ()
  one := ()
  mul_assoc _ _ _ := rfl
  one_mul _ := rfl
  mul_one _ := rfl

/-- The product of a list of natural numbers under multiplication. -/
example : prod [2, 3, 7] = (42 : Nat) := rfl

end DriftExample.Algebra
