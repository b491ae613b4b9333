def Dvd' (a b : Nat) : Prop := ∃ c, b = a * c

infixl:50 " ∣' " => Dvd'
notation:50 a " ≡ " b " [MOD' " n "]" => Nat.ModEq n a b
prefix:max "√'" => Nat.sqrt
postfix:max "⁻¹'" => Inv.inv
notation "ℕ'" => Nat
local notation (name := myNot) "⟪" x "⟫" => id x
scoped[Foo] notation "𝔽" => Nat

macro "mytac" : tactic => `(tactic| (theorem fake := by simp))

syntax (name := foo) "foo" term : term

theorem afterMacro : True := trivial
