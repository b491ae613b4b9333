import DriftExample

-- blueprint: def:twin (definition)
/-- Twin primes are a pair of prime numbers $p and p + 2$ (and likewise $q and q + 2$). -/
def Blue.TwinPrimes : True := sorry

-- blueprint: thm:odd-prime (theorem)
/-- Every prime number greater than 2 is odd. -/
theorem Blue.odd_of_prime : True := by sorry

-- blueprint: lem:square-odd (lemma)
/-- The square of an odd number is odd. -/
theorem Blue.odd_mul_self : True := by sorry

-- blueprint: prop:euclid (proposition)
/-- If a prime $p$ divides the product $a b$, then $p divides a$ or $p divides b$. -/
theorem Blue.euclid : True := by sorry

-- blueprint: prop:euclid (proposition)
/-- If a prime $p$ divides the product $a b$, then $p divides a$ or $p divides b$. -/
theorem Blue.euclid' : True := by sorry

-- blueprint: cor:twin-odd (corollary)
-- FAILED the checks: ok
/-- Both twin primes greater than 2 are odd. -/
theorem Blue.twin_odd : True := by sorry
