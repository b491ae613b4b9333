namespace Act

variable (M : Type u) [Monoid M] (α β : Type v) [MulAction M α]

section Orbit

variable {α}

/-- The orbit: `α` is implicit here, `M` explicit. -/
def orbit (a : α) : Set α := Set.range fun m : M => m • a

variable {M} in
def stab (a : α) : Set M := {m | m • a = a}

def stab2 (a : α) : Set M := {m | m • a = a}

end Orbit

/-- Out of the section `α` is explicit again. -/
def fixed (a : α) : Prop := ∀ m : M, m • a = a

def both (a : α) (b : β) : Prop := True

end Act

section Glued

variable (C : Type) {A B : Type}

/-- `C(A, B)` is a notation's token (Lean 4 reads no application glued
to `(`), no use of the variable `C`; `C (A)` is one. -/
def isHom (f : C(A, B)) : Prop := True

def usesC (x : C (A)) : Prop := True

end Glued
