import Minimath.Basic

-- blueprint: def:twin (definition)
-- drift's reading of the definition as a statement: Mm.Prime n
/-- Twin primes are a pair of prime numbers $p and p + 2$ (and likewise $q and q + 2$). -/
def Blue.TwinPrimes {n : Nat} : Prop := sorry

-- blueprint: thm:odd-prime (theorem)
/-- Every prime number greater than 2 is odd. -/
theorem Blue.odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry

-- blueprint: lem:square-odd (lemma)
/-- The square of an odd number is odd. -/
theorem Blue.odd_mul_self {n : Nat} (h : Mm.Odd n) : Mm.Odd (n * n) := by sorry

-- blueprint: prop:euclid (proposition)
/-- If a prime $p$ divides the product $a b$, then $p divides a$ or $p divides b$. -/
theorem Blue.euclid {p a b : Nat} (hp : Mm.Prime p) (h : p ∣ₘ a * b) : p ∣ₘ a ∨ p ∣ₘ b := by sorry

-- blueprint: prop:euclid (proposition)
/-- If a prime $p$ divides the product $a b$, then $p divides a$ or $p divides b$. -/
theorem Blue.euclid' {p a b : Nat} (hp : Mm.Prime p) (h : p ∣ₘ a * b) : p ∣ₘ a ∨ p ∣ₘ b := by sorry

-- blueprint: cor:twin-odd (corollary)
/-- Both twin primes greater than 2 are odd. -/
theorem Blue.twin_odd {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry
