/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
-/
import Minimath.Basic
import DriftExample.Primes

/-!
# Modular arithmetic

Congruences `a ≡ b [MOD n]` (the scoped notation from `Mm`), residues, and Fermat-style
statements about primes.
-/

set_option autoImplicit false

open Minimath
open Mm (ModEq Prime Coprime)
open scoped Mm

namespace DriftExample.ModArith

/-- The factorial `n !`, defined locally for Wilson's theorem. -/
def factorial : Nat → Nat
  | 0 => 1
  | n + 1 => (n + 1) * factorial n

local notation:10000 n "!" => factorial n

/-- Congruence modulo `n` is preserved by addition. -/
theorem ModEq.add {n a b c d : Nat} (h₁ : a ≡ b [MOD n]) (h₂ : c ≡ d [MOD n]) :
    a + c ≡ b + d [MOD n] := by
  unfold Mm.ModEq at *
  rw [Nat.add_mod, h₁, h₂, ← Nat.add_mod]

/-- Congruence modulo `n` is preserved by multiplication. -/
theorem ModEq.mul {n a b c d : Nat} (h₁ : a ≡ b [MOD n]) (h₂ : c ≡ d [MOD n]) :
    a * c ≡ b * d [MOD n] := by
  unfold Mm.ModEq at *
  rw [Nat.mul_mod, h₁, h₂, ← Nat.mul_mod]

/-- Every number is congruent to its remainder. -/
theorem mod_modEq (a n : Nat) : a % n ≡ a [MOD n] := Nat.mod_mod a n

/-- `a ≡ 0 [MOD n]` exactly when `n` divides `a`. -/
theorem modEq_zero_iff_divides {n a : Nat} : a ≡ 0 [MOD n] ↔ n ∣ₘ a := by
  sorry

/-- An odd number is congruent to `1` modulo `2`. -/
theorem odd_iff_modEq_one {n : Nat} : Mm.Odd n ↔ n ≡ 1 [MOD 2] := by
  sorry

/-- Fermat's little theorem: for a prime `p` and `a` coprime to `p`,
`a ^ (p - 1) ≡ 1 [MOD p]`. -/
theorem fermat_little {p a : Nat} (hp : Prime p) (ha : Coprime a p) :
    a ^ (p - 1) ≡ 1 [MOD p] := by
  sorry

/-- Wilson's theorem: `(p - 1)! ≡ p - 1 [MOD p]` for a prime `p`. -/
theorem wilson {p : Nat} (hp : Prime p) : (p - 1)! ≡ p - 1 [MOD p] := by
  sorry

/-- The square of an odd number is `1` modulo `8`. -/
theorem odd_sq_modEq_one {n : Nat} (h : Mm.Odd n) : n * n ≡ 1 [MOD 8] := by
  sorry

/-- A residue class modulo `n`, as a structure with a proof field. -/
structure Residue (n : Nat) where
  /-- The representative, in `[0, n)`. -/
  val : Nat
  /-- The representative is reduced. -/
  isLt : val < n
  deriving DecidableEq

namespace Residue

variable {n : Nat}

/-- Addition of residues. -/
def add (x y : Residue (n + 1)) : Residue (n + 1) :=
  ⟨(x.val + y.val) % (n + 1), Nat.mod_lt _ (Nat.succ_pos n)⟩

instance : Add (Residue (n + 1)) := ⟨add⟩

/-- The residue of `0`. -/
def zero : Residue (n + 1) := ⟨0, Nat.succ_pos n⟩

/-- Residues modulo `n + 1` form an additive monoid. -/
instance instAddMonoid : Mm.AddMonoid (Residue (n + 1)) where
  add := add
  zero := zero
  add_assoc := by sorry
  zero_add := by sorry
  add_zero := by sorry

end Residue

end DriftExample.ModArith
