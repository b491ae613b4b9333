@[simp, norm_cast] theorem a1 : True := trivial

@[to_additive "Docstring for the additive version, with ] bracket."]
theorem mul_one_eq (x : Nat) : x * 1 = x := Nat.mul_one x

@[to_additive (attr := simp) add_zero_custom]
theorem mul_one_custom (x : Nat) : x * 1 = x := Nat.mul_one x

@[to_additive existing]
theorem prod_thing : True := trivial

attribute [simp] a1 mul_one_eq

attribute [local instance] a1 in
theorem afterAttr : True := trivial

set_option linter.unusedVariables false in
theorem afterSetOption : True := trivial

@[deprecated (since := "2024-01-01")] alias a1_old := a1

alias ⟨mp_alias, mpr_alias⟩ := Iff.rfl

instance (priority := 100) namedInst : Inhabited Nat := ⟨0⟩

instance : Inhabited Bool := ⟨true⟩
