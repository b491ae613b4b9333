import Lib.Defs

namespace Nat

/-- Inside `namespace Nat`, `add_twice` resolves (a dot-suffix) and `add_twise` does not. -/
theorem uses1 (m : ℕ) : m = m := add_twice m

end Nat

/-- At the root, `add_twice` does not resolve but `Nat.add_twice` and `_root_.Nat.add_twice` do. -/
theorem uses2 : True := trivial

open Lib in
/-- With `open Lib in`, `Widget.double` resolves; `Widget.tripel` does not. -/
theorem uses3 : True := trivial

/-- Without the open, `Widget.double` does not resolve here. -/
theorem uses4 : True := trivial

section
variable (x : Nat) (hx : x = x)
/-- Variables and binders are not references: `x`, `hx`, `k`, `hk`. The expression
`Lib.Widget.double w = w` uses a name that resolves, `Lib.Widget.dubble w` one that does not,
and `(Lib.Widget.double_size w).symm` a projection of a theorem. Not Lean: LaTeX `\frac{a}{b}`,
a path `Mathlib/Data/Nat.lean`, a URL `https://x.org/a`, a command `#check Nat.nope`. -/
theorem uses5 (k : Nat) (hk : k = k) : True := trivial
end

/-- Deprecated: `Lib.old_name`. The to_additive twin `Lib.sum_zero` of `Lib.prod_one` resolves; `Lib.prod_zero` does not.
A typo: `Lib.new_nam`. Inside a fence nothing is checked:
```
example := Lib.not_checked
```
-/
theorem uses6 : True := trivial

-- A keyword component needs no guillemets in prose: `Lib.exists`.
-- An ordinary comment: `Nat.succ_pos'` resolves; `Lib.Widget.doubel` is a typo.
def code := "`Nat.not_checked_in_strings`"

-- TODO: a future `Lib.not_yet_written` is not flagged in a TODO.

/-- A worked example names what it makes up: three classes `Top`, `Middle` and `Bottom`, the
instance `Bottom.toMiddle`, and `Gadget.spin` of the block below; `Lib.Widget.tripel` is still a
typo, and so is `Lib.Gadjet`.
```
class Gadget where
  spin : Nat
```
This would work if there was such a thing as `Lib.Gizmo`. -/
theorem uses7 : True := trivial
