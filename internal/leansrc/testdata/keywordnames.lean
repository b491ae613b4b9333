/-- Discrimination tree key. -/
inductive Key where
  /-- A metavariable. -/
  | star : Nat → Key
  /-- An opaque variable. -/
  | opaque : Key
  | const : Nat → Nat → Key
  | lemma | theorem

/-- `lemma` means the same as `theorem`. -/
syntax (name := lemma) (priority := default + 1) declModifiers
  group("lemma " declId ppIndent(declSig) declVal) : command

@[macro «lemma»] def expandLemma : Macro := fun stx => stx

theorem after : True := trivial
