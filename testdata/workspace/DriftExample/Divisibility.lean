/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
-/
import Minimath.Basic

/-!
# Divisibility and the greatest common divisor

Elementary facts about `Minimath.Divides` and `Mm.gcd`, stated with the `∣ₘ` notation.
-/

set_option autoImplicit false

open Minimath

namespace DriftExample

/-- A number that divides two numbers divides their sum. -/
theorem divides_add_of_divides {d a b : Nat} (ha : d ∣ₘ a) (hb : d ∣ₘ b) : d ∣ₘ a + b :=
  Divides.add ha hb

/-- If `d` divides `a`, it divides every multiple of `a`. -/
theorem divides_mul_of_divides {d a : Nat} (h : d ∣ₘ a) (k : Nat) : d ∣ₘ a * k :=
  h.mul_right k

/-- A divisor of a positive number is positive-bounded: `d ∣ₘ n → 0 < n → d ≤ n`. -/
theorem divisor_le {d n : Nat} (hn : 0 < n) (h : d ∣ₘ n) : d ≤ n :=
  le_of_divides hn h

/-- Divisibility by a number and by a multiple of it: `a ∣ₘ b` and `b ∣ₘ c` give `a ∣ₘ c`. -/
theorem divides_of_divides_of_divides {a b c : Nat} (h₁ : a ∣ₘ b) (h₂ : b ∣ₘ c) : a ∣ₘ c :=
  divides_trans h₁ h₂

/-- The greatest common divisor divides both arguments. -/
theorem gcd_divides_both (a b : Nat) : Mm.gcd a b ∣ₘ a ∧ Mm.gcd a b ∣ₘ b :=
  ⟨Mm.gcd_divides_left a b, Mm.gcd_divides_right a b⟩

/-- Every common divisor of `a` and `b` divides `gcd a b`. -/
theorem divides_gcd {d a b : Nat} (ha : d ∣ₘ a) (hb : d ∣ₘ b) : d ∣ₘ Mm.gcd a b := by
  sorry

/-- The gcd of `a` with itself is `a`. -/
@[simp]
theorem gcd_self (a : Nat) : Mm.gcd a a = a := by
  cases a with
  | zero => rfl
  | succ n => simp [Mm.gcd, Nat.mod_self]

/-- The gcd of `0` and `b` is `b`. -/
@[simp]
theorem gcd_zero_left (b : Nat) : Mm.gcd 0 b = b := by simp [Mm.gcd]

/-- `1` is coprime to every number. -/
theorem coprime_one_left (n : Nat) : Mm.Coprime 1 n := by
  simp [Mm.Coprime, Mm.gcd, Nat.mod_one]

/-- Coprimality is symmetric. -/
theorem Coprime.symm {a b : Nat} (h : Mm.Coprime a b) : Mm.Coprime b a := by
  unfold Mm.Coprime at *
  rwa [Mm.gcd_comm]

/-- If `a` and `b` are coprime and `a` divides `b * c`, then `a` divides `c` (Euclid's lemma). -/
theorem Coprime.divides_of_divides_mul {a b c : Nat} (hab : Mm.Coprime a b)
    (h : a ∣ₘ b * c) : a ∣ₘ c := by
  sorry

/-- The least common multiple is a multiple of its left argument. -/
theorem divides_lcm_left (a b : Nat) : a ∣ₘ a ⊗ₘ b := by
  sorry

section

variable {a b c : Nat}

/-- Transitivity with three subscripted hypotheses, using section variables. -/
theorem divides_chain (h₁ : a ∣ₘ b) (h₂ : b ∣ₘ c) (h₃ : c ∣ₘ a) : a = b :=
  Divides.antisymm h₁ (h₂.trans h₃)

end

end DriftExample
