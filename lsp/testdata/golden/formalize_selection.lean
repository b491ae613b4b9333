import Mathlib.Data.Nat.Prime.Basic

open Nat

/-- A prime p of the form 4t+3 is not a sum of two squares. -/

-- If n is even then n squared is even.
-- (name: even_sq)

/- The sum of the first n odd numbers is n^2. -/
theorem odd_sum : sorry := by sorry

theorem existing (n : ℕ) : n + 0 = n := by simp
theorem model_name (p : ℕ) (hp : Nat.Prime p) (h : p % 4 = 3) : ¬ ∃ a b : ℕ, a ^ 2 + b ^ 2 = p := by sorry

example : FooBar 1 = 2 := by sorry
