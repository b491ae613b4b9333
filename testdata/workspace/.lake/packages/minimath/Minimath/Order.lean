/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
-/
import Minimath.Basic

/-!
# Minimath: orders and lattices

Preorders, partial orders, lattices, monotone maps and closed intervals.
-/

set_option autoImplicit false

universe u v w

namespace Mm

/-- A preorder: a reflexive, transitive relation `≤`. -/
class Preorder (α : Type u) extends LE α, LT α where
  /-- `≤` is reflexive. -/
  le_refl : ∀ a : α, a ≤ a
  /-- `≤` is transitive. -/
  le_trans : ∀ a b c : α, a ≤ b → b ≤ c → a ≤ c
  lt := fun a b => a ≤ b ∧ ¬b ≤ a

/-- A partial order: an antisymmetric preorder. -/
class PartialOrder (α : Type u) extends Preorder α where
  /-- `≤` is antisymmetric. -/
  le_antisymm : ∀ a b : α, a ≤ b → b ≤ a → a = b

/-- A lattice: a partial order with binary suprema (`⊔`) and infima (`⊓`). -/
class Lattice (α : Type u) extends PartialOrder α where
  /-- The supremum (join) of two elements. -/
  sup : α → α → α
  /-- The infimum (meet) of two elements. -/
  inf : α → α → α
  le_sup_left : ∀ a b : α, a ≤ sup a b
  le_sup_right : ∀ a b : α, b ≤ sup a b
  sup_le : ∀ a b c : α, a ≤ c → b ≤ c → sup a b ≤ c
  inf_le_left : ∀ a b : α, inf a b ≤ a
  inf_le_right : ∀ a b : α, inf a b ≤ b
  le_inf : ∀ a b c : α, a ≤ b → a ≤ c → a ≤ inf b c

/-- `a ⊔ b` is the supremum of `a` and `b`. -/
infixl:68 " ⊔ " => Lattice.sup

/-- `a ⊓ b` is the infimum of `a` and `b`. -/
infixl:69 " ⊓ " => Lattice.inf

/-- A bounded lattice has a least element `⊥` and a greatest element `⊤`. -/
class BoundedLattice (α : Type u) extends Lattice α where
  /-- The least element. -/
  bot : α
  /-- The greatest element. -/
  top : α
  bot_le : ∀ a : α, bot ≤ a
  le_top : ∀ a : α, a ≤ top

@[inherit_doc] notation "⊥" => BoundedLattice.bot
@[inherit_doc] notation "⊤" => BoundedLattice.top

/-- A `Nonempty'` type: a `class inductive` with one constructor. -/
class inductive Nonempty' (α : Sort u) : Prop
  | intro (val : α) : Nonempty' α

section Preorder

variable {α : Type u} {β : Type v} {γ : Type w} [Preorder α] [Preorder β] [Preorder γ]

/-- A function between preorders is monotone if it preserves `≤`. -/
def Monotone (f : α → β) : Prop := ∀ ⦃a b⦄, a ≤ b → f a ≤ f b

/-- A function between preorders is antitone if it reverses `≤`. -/
def Antitone (f : α → β) : Prop := ∀ ⦃a b⦄, a ≤ b → f b ≤ f a

/-- An element is an upper bound of a predicate `s` if it is above every element of `s`. -/
def IsUpperBound (s : α → Prop) (b : α) : Prop := ∀ a, s a → a ≤ b

/-- An element is a least upper bound of `s`. -/
def IsLUB (s : α → Prop) (b : α) : Prop := IsUpperBound s b ∧ ∀ c, IsUpperBound s c → b ≤ c

/-- `≤` is reflexive. -/
@[simp, refl]
theorem le_refl (a : α) : a ≤ a := Preorder.le_refl a

/-- `≤` is transitive. -/
theorem le_trans {a b c : α} (h₁ : a ≤ b) (h₂ : b ≤ c) : a ≤ c := Preorder.le_trans a b c h₁ h₂

/-- The identity function is monotone. -/
protected theorem Monotone.id : Monotone (id : α → α) := fun _ _ h => h

/-- A composition of monotone functions is monotone. -/
protected theorem Monotone.comp {g : β → γ} {f : α → β} (hg : Monotone g) (hf : Monotone f) :
    Monotone (g ∘ f) :=
  fun _ _ h => hg (hf h)

/-- Composing a monotone function with an antitone one gives an antitone function. -/
theorem Monotone.comp_antitone {g : β → γ} {f : α → β} (hg : Monotone g) (hf : Antitone f) :
    Antitone (g ∘ f) :=
  fun _ _ h => hg (hf h)

alias monotone_id := Monotone.id

/-- A constant function is monotone. -/
theorem monotone_const {c : β} : Monotone (fun _ : α => c) := fun _ _ _ => le_refl c

end Preorder

/-- Bundled monotone maps between preorders. -/
structure OrderHom (α : Type u) (β : Type v) [Preorder α] [Preorder β] where
  /-- The underlying function. -/
  toFun : α → β
  /-- The underlying function is monotone. -/
  monotone' : Monotone toFun

/-- `α →o β` is the type of monotone maps from `α` to `β`. -/
infixr:25 " →o " => OrderHom

namespace OrderHom

variable {α : Type u} {β : Type v} [Preorder α] [Preorder β]

instance : CoeFun (α →o β) (fun _ => α → β) := ⟨OrderHom.toFun⟩

/-- The identity monotone map. -/
protected def id : α →o α := ⟨id, Monotone.id⟩

/-- A bundled monotone map is monotone. -/
theorem monotone (f : α →o β) : Monotone f := f.monotone'

end OrderHom

/-- A closed interval `[lo, hi]` in a preorder, with a custom constructor name. -/
structure Interval (α : Type u) [Preorder α] where
  mkI ::
  /-- Lower end point. -/
  lo : α
  /-- Upper end point. -/
  hi : α
  lo_le_hi : lo ≤ hi

/-- Membership in an interval. -/
def Interval.Mem {α : Type u} [Preorder α] (I : Interval α) (a : α) : Prop := I.lo ≤ a ∧ a ≤ I.hi

section Lattice

variable {α : Type u} [Lattice α]

/-- The supremum is an upper bound of its left argument. -/
theorem le_sup_left (a b : α) : a ≤ a ⊔ b := Lattice.le_sup_left a b

/-- The supremum is an upper bound of its right argument. -/
theorem le_sup_right (a b : α) : b ≤ a ⊔ b := Lattice.le_sup_right a b

/-- The supremum is the least upper bound. -/
theorem sup_le {a b c : α} (ha : a ≤ c) (hb : b ≤ c) : a ⊔ b ≤ c := Lattice.sup_le a b c ha hb

/-- The infimum is below its left argument. -/
theorem inf_le_left (a b : α) : a ⊓ b ≤ a := Lattice.inf_le_left a b

/-- The infimum is below its right argument. -/
theorem inf_le_right (a b : α) : a ⊓ b ≤ b := Lattice.inf_le_right a b

/-- Supremum is commutative. -/
theorem sup_comm (a b : α) : a ⊔ b = b ⊔ a :=
  PartialOrder.le_antisymm _ _ (sup_le (le_sup_right b a) (le_sup_left b a))
    (sup_le (le_sup_right a b) (le_sup_left a b))

/-- Supremum is idempotent. -/
@[simp]
theorem sup_idem (a : α) : a ⊔ a = a :=
  PartialOrder.le_antisymm _ _ (sup_le (le_refl a) (le_refl a)) (le_sup_left a a)

/-- `a ⊔ b = b` exactly when `a ≤ b`. -/
theorem sup_eq_right_iff {a b : α} : a ⊔ b = b ↔ a ≤ b :=
  ⟨fun h => h ▸ le_sup_left a b, fun h => PartialOrder.le_antisymm _ _ (sup_le h (le_refl b))
    (le_sup_right a b)⟩

alias ⟨le_of_sup_eq, sup_eq_of_le⟩ := sup_eq_right_iff

/-- Supremum is the least upper bound in the sense of `IsLUB`. -/
theorem isLUB_sup (a b : α) : IsLUB (fun x => x = a ∨ x = b) (a ⊔ b) := by
  refine ⟨?_, fun c hc => sup_le (hc a (Or.inl rfl)) (hc b (Or.inr rfl))⟩
  rintro x (rfl | rfl)
  · exact le_sup_left _ _
  · exact le_sup_right _ _

end Lattice

/-- The natural numbers with `max` and `min` form a lattice. -/
instance instLatticeNat : Lattice Nat where
  le := (· ≤ ·)
  le_refl := Nat.le_refl
  le_trans _ _ _ := Nat.le_trans
  le_antisymm _ _ := Nat.le_antisymm
  sup := max
  inf := min
  le_sup_left := Nat.le_max_left
  le_sup_right := Nat.le_max_right
  sup_le _ _ _ := Nat.max_le_of_le_of_le
  inf_le_left := Nat.min_le_left
  inf_le_right := Nat.min_le_right
  le_inf _ _ _ h₁ h₂ := Nat.le_min.mpr ⟨h₁, h₂⟩

/-- Divisibility as a preorder on the natural numbers (not an instance: it would clash with `≤`). -/
@[reducible] def divPreorder : Preorder Nat where
  le a b := Minimath.Divides a b
  le_refl := Minimath.Divides.refl
  le_trans _ _ _ := Minimath.Divides.trans

end Mm
