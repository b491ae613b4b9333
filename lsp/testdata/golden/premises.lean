import Mathlib.Data.Nat.Prime.Basic

open Nat

/-- A prime p of the form 4t+3 is not a sum of two squares. -/
/- DRIFT premises and examples
Premises:
  Nat.Prime : def Nat.Prime (p : ℕ) : Prop  (.lake/packages/mathlib/Mathlib/Data/Nat/Prime/Defs.lean:41)
  Nat.ModEq : def Nat.ModEq (n a b : ℕ) := a % n = b % n  (Mathlib/Data/Nat/ModEq.lean:10)
Examples (coverage 50%):
  Nat.Prime.eq_one_or_self_of_dvd : theorem Nat.Prime.eq_one_or_self_of_dvd {p : ℕ} (pp : p.Prime) (a : ℕ) (h : a ∣ p) : a = 1 ∨ a = p  (Mathlib/Data/Nat/Prime/Defs.lean:100)
-/

-- If n is even then n squared is even.
-- (name: even_sq)

/- The sum of the first n odd numbers is n^2. -/
theorem odd_sum : sorry := by sorry

theorem existing (n : ℕ) : n + 0 = n := by simp

example : FooBar 1 = 2 := by sorry
