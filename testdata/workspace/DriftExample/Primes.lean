/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
-/
import Minimath.Basic
import DriftExample.Divisibility

/-!
# Prime numbers

Parity of primes, prime divisors and the infinitude of primes, stated with `Mm.Prime`,
`Mm.Odd`, `Mm.Even` and `Minimath.Divides`.
-/

set_option autoImplicit false

open Minimath Mm

namespace DriftExample.Primes

/-- A prime number has exactly the divisors `1` and itself. -/
theorem prime_divisors {p d : Nat} (hp : Prime p) (hd : d ∣ₘ p) : d = 1 ∨ d = p :=
  hp.eq_one_or_self_of_divides hd

/-- Every prime number other than `2` is odd. -/
theorem Prime.odd_of_ne_two {p : Nat} (hp : Prime p) (h2 : p ≠ 2) : Odd p := by
  rcases even_or_odd p with ⟨k, rfl⟩ | hodd
  · have : 2 ∣ₘ k + k := ⟨k, by omega⟩
    rcases hp.eq_one_or_self_of_divides this with h | h
    · omega
    · exact absurd h.symm h2
  · exact hodd

/-- An even prime number equals `2`. -/
theorem Prime.eq_two_of_even {p : Nat} (hp : Prime p) (he : Even p) : p = 2 := by
  by_contra h
  obtain ⟨k, hk⟩ := Prime.odd_of_ne_two hp h
  obtain ⟨j, hj⟩ := he
  omega

/-- A prime that divides a product of two primes equals one of them. -/
theorem prime_divides_prime {p q : Nat} (hp : Prime p) (hq : Prime q) (h : p ∣ₘ q) : p = q := by
  rcases hq.eq_one_or_self_of_divides h with h1 | h1
  · exact absurd h1 (by have := hp.two_le; omega)
  · exact h1

/-- Two distinct primes are coprime. -/
theorem coprime_of_prime_ne {p q : Nat} (hp : Prime p) (hq : Prime q) (hne : p ≠ q) :
    Coprime p q := by
  sorry

/-- Every natural number at least `2` has a prime divisor. -/
theorem exists_prime_divides {n : Nat} (hn : 2 ≤ n) : ∃ p, Prime p ∧ p ∣ₘ n := by
  sorry

/-- There are infinitely many primes: above every `n` there is a prime. -/
theorem infinitely_many_primes (n : Nat) : ∃ p, n < p ∧ Prime p :=
  exists_prime_above n

/-- If a prime divides a product, it divides one of the factors (Euclid's lemma). -/
theorem Prime.divides_mul {p a b : Nat} (hp : Prime p) (h : p ∣ₘ a * b) : p ∣ₘ a ∨ p ∣ₘ b := by
  sorry

/-- The square of an odd number is odd. -/
theorem odd_mul_self {n : Nat} (h : Odd n) : Odd (n * n) := by
  obtain ⟨k, rfl⟩ := h
  exact ⟨2 * k * k + 2 * k, by simp only [Nat.mul_add, Nat.add_mul, Nat.mul_one, Nat.one_mul, Nat.mul_assoc, Nat.mul_left_comm]; omega⟩

/-- The sum of two odd numbers is even. -/
theorem even_add_of_odd {a b : Nat} (ha : Odd a) (hb : Odd b) : Even (a + b) := by
  obtain ⟨j, rfl⟩ := ha
  obtain ⟨k, rfl⟩ := hb
  exact ⟨j + k + 1, by omega⟩

/-- Euler's totient of a prime `p` is `p - 1`. -/
theorem totient_prime {p : Nat} (hp : Prime p) : φ p = p - 1 := by
  sorry

/-- The sum of divisors of a prime `p` is `p + 1`. -/
theorem sigma_one_prime {p : Nat} (hp : Prime p) : σ₁ p = p + 1 := by
  sorry

end DriftExample.Primes
