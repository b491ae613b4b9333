/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
-/
import Minimath.Order

/-!
# Lattices and monotone functions

Lemmas about `Mm.Lattice`, `Mm.Monotone`, `Mm.OrderHom` and `Mm.Interval`, and a
Knaster–Tarski style fixed-point statement.
-/

set_option autoImplicit false

universe u v

open Mm

namespace DriftExample.Order

section Lattice

variable {α : Type u} [Lattice α]

/-- Supremum is associative. -/
theorem sup_assoc (a b c : α) : a ⊔ b ⊔ c = a ⊔ (b ⊔ c) := by
  sorry

/-- Infimum is commutative. -/
theorem inf_comm (a b : α) : a ⊓ b = b ⊓ a := by
  sorry

/-- Absorption: `a ⊔ (a ⊓ b) = a`. -/
theorem sup_inf_self (a b : α) : a ⊔ a ⊓ b = a :=
  PartialOrder.le_antisymm _ _ (sup_le (le_refl a) (inf_le_left a b)) (le_sup_left _ _)

/-- `a ≤ b` iff `a ⊔ b = b`. -/
theorem le_iff_sup_eq {a b : α} : a ≤ b ↔ a ⊔ b = b := sup_eq_right_iff.symm

/-- Taking the supremum with a fixed element is monotone. -/
theorem monotone_sup_left (c : α) : Monotone (fun a : α => a ⊔ c) := fun a b h =>
  sup_le (le_trans h (le_sup_left b c)) (le_sup_right b c)

/-- Taking the infimum with a fixed element is monotone. -/
theorem monotone_inf_left (c : α) : Monotone (fun a : α => a ⊓ c) := by
  sorry

end Lattice

section Monotone

variable {α : Type u} {β : Type v} [Lattice α] [Lattice β]

/-- A monotone map sends a supremum above the supremum of the images. -/
theorem Monotone.le_map_sup {f : α → β} (hf : Monotone f) (a b : α) :
    f a ⊔ f b ≤ f (a ⊔ b) :=
  sup_le (hf (le_sup_left a b)) (hf (le_sup_right a b))

/-- A monotone map sends an infimum below the infimum of the images. -/
theorem Monotone.map_inf_le {f : α → β} (hf : Monotone f) (a b : α) :
    f (a ⊓ b) ≤ f a ⊓ f b := by
  sorry

/-- A monotone self-map of a bounded lattice: the supremum of post-fixed points is a fixed
point (Knaster–Tarski, stated for a given least upper bound). -/
theorem knaster_tarski {γ : Type u} [BoundedLattice γ] {f : γ → γ} (hf : Monotone f) {x : γ}
    (hx : IsLUB (fun y => y ≤ f y) x) : f x = x := by
  sorry

/-- The composition of two order homomorphisms. -/
def OrderHom.comp' {γ : Type u} [Preorder γ] (g : β →o γ) (f : α →o β) : α →o γ :=
  ⟨g ∘ f, g.monotone.comp f.monotone⟩

end Monotone

/-- The interval `[a, a ⊔ b]` in a lattice. -/
def supInterval {α : Type u} [Lattice α] (a b : α) : Interval α :=
  Interval.mkI a (a ⊔ b) (le_sup_left a b)

/-- The left end point lies in `supInterval a b`. -/
theorem mem_supInterval_left {α : Type u} [Lattice α] (a b : α) :
    (supInterval a b).Mem a :=
  ⟨le_refl a, le_sup_left a b⟩

/-- `max` is the supremum in `Nat`. -/
example (a b : Nat) : a ⊔ b = max a b := rfl

end DriftExample.Order
