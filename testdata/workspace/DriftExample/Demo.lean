/-
Copyright (c) 2026 The drift-lsp authors. All rights reserved.
Released under Apache 2.0 license as described in the file LICENSE.
-/
import Minimath.Basic
import Minimath.Order
import DriftExample.Primes

/-!
# Demo file

The file that the drift-lsp demo and the editor tests open. It holds informal statements in
several comment styles, waiting to be formalised, and one complete theorem to check.
-/

set_option autoImplicit false

open Minimath Mm

namespace DriftExample.Demo

/-- Every prime number greater than 2 is odd. -/


/-
The greatest common divisor of two distinct prime numbers is 1.
-/

-- If a prime number divides the product of two natural numbers,
-- then it divides one of the two factors.

/-- In a monoid, the product of the concatenation of two lists is the product of their
products. -/
theorem prod_append_demo : sorry := by
  sorry

/-- In a lattice, the infimum of two elements is below their supremum. -/
theorem inf_le_sup {α : Type} [Lattice α] (a b : α) : a ⊓ b ≤ a ⊔ b := by
  sorry

end DriftExample.Demo
