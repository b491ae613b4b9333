prelude
import DriftPrelude

/-- Addition of natural numbers is commutative. -/
theorem add_comm' (m n : Nat) : Eq (Nat.add m n) (Nat.add n m) := sorry

/-- Every number is even (a wrong statement with an invented name). -/
theorem every_even (αβ : Nat) : Nat.Evn αβ := sorry

/-- Zero equals the type of numbers (a type mismatch). -/
theorem zero_eq_nat : Eq Nat.zero Nat := sorry
