prelude
/-!
# DriftPrelude: a small library that needs no `Init`

drift-lsp's integration tests run a real Lean 4.35.0 that has no library at
all (no `Init`, `Std`, `Lean` or Mathlib .olean files; see scripts/setup-lean.sh).
So this file starts with `prelude` and declares everything it uses.

Most of it is what Lean's elaborator needs to elaborate a term-mode `sorry`,
found in Lean's sources and checked with the binary (docs/leanrepl.md):

* `elabSorry` (Lean.Elab.BuiltinNotation) calls `mkLabeledSorry type
  (synthetic := false) (unique := true)` (Lean.Meta.Sorry), which throws
  `abortCommand` unless `Lean.Name` exists, and `mkSorry`, which throws it
  unless `sorryAx` exists; uncaught, it is reported as "internal exception #3".
* The labeled sorry is `sorryAx (Lean.Name → P) false tag`, where the tag is
  a `Lean.Name` built by `toExpr` from `Lean.Name.anonymous/str/num`, string
  literals (type `String`) and number literals (`OfNat.ofNat Nat n
  (instOfNatNat n)`); the kernel needs every one of these constants.
* A synthetic sorry (error recovery after an error) is `sorryAx (Unit → P)
  true (Function.const Unit Lean.Name Unit.unit tag)`.
* The `bool` argument of `sorryAx` is `Bool.false`/`Bool.true`.

The coercion classes at the end make Lean's messages for a term that is not
a type or not a function those of a full toolchain.

Tactic blocks (`by sorry`) cannot work here: the `sorry` tactic is syntax
declared in `Init.Tactics`, not built in.
-/

-- `T.ctorIdx` needs `T.casesOn`, which Lean makes only once `PUnit` exists.
set_option genCtorIdx false

universe u v

/-! ## What the code generator needs for inductive types and definitions -/

unsafe axiom lcErased : Type
unsafe axiom lcAny : Type

/-! ## What term-mode `sorry` needs -/

inductive Bool : Type
  | false
  | true

axiom sorryAx (α : Sort u) (synthetic : Bool) : α

inductive Nat : Type
  | zero
  | succ (n : Nat)

axiom String : Type

axiom OfNat (α : Type u) (n : Nat) : Type u
axiom OfNat.ofNat {α : Type u} (n : Nat) (self : OfNat α n) : α
axiom instOfNatNat (n : Nat) : OfNat Nat n

axiom Lean.Name : Type
axiom Lean.Name.anonymous : Lean.Name
axiom Lean.Name.str (pre : Lean.Name) (s : String) : Lean.Name
axiom Lean.Name.num (pre : Lean.Name) (i : Nat) : Lean.Name

inductive Unit : Type
  | unit

def Function.const {α : Sort u} (β : Sort v) (a : α) : β → α := fun _ => a

/-! ## A little mathematics -/

inductive True : Prop
  | intro

inductive False : Prop

def Not (a : Prop) : Prop := a → False

inductive Eq {α : Sort u} : α → α → Prop
  | refl (a : α) : Eq a a

theorem Eq.symm {α : Sort u} {a b : α} (h : Eq a b) : Eq b a :=
  Eq.rec (motive := fun x _ => Eq x a) (Eq.refl a) h

structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b

inductive Or (a b : Prop) : Prop
  | inl (h : a) : Or a b
  | inr (h : b) : Or a b

axiom Nat.add : Nat → Nat → Nat

axiom Nat.add_comm (m n : Nat) : Eq (Nat.add m n) (Nat.add n m)

inductive Exists {α : Sort u} (p : α → Prop) : Prop
  | intro (w : α) (h : p w) : Exists p

/-- `n` is twice some number. -/
def Nat.Even (n : Nat) : Prop := Exists (fun k => Eq n (Nat.add k k))

/-! ## Coercions

Without these classes Lean reports "Unknown constant `CoeSort`" where it means
"type expected", and "Unknown constant `CoeFun`" where it means "function
expected"; with them its messages are those of a full toolchain. -/

@[reducible] def outParam (α : Sort u) : Sort u := α

class CoeSort (α : Sort u) (β : outParam (Sort v)) where
  coe : α → β

class CoeFun (α : Sort u) (γ : outParam (α → Sort v)) where
  coe : (f : α) → γ f
