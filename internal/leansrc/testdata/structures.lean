/-- A point. -/
structure Point (α : Type) where
  /-- The x coordinate. -/
  x : α
  y : α := x
  protected z : α
  deriving Repr

class Magma' (α : Type) extends Inhabited α, Repr α where
  op : α → α → α
  op_comm (a b : α) : op a b = op b a

structure Pair where
  mkPair ::
  (fst snd : Nat)

inductive Tree (α : Type) where
  | leaf : Tree α
  /-- A node. -/
  | node (l : Tree α) (v : α) (r : Tree α) : Tree α
  deriving Repr

inductive Color
  | red | green
  | blue

class inductive Decision (p : Prop)
  | yes (h : p)
  | no (h : ¬p)

structure Old := (a : Nat) (b : Nat)

def withWhere (n : Nat) : Nat := helper n + aux
where
  helper (k : Nat) : Nat := k + 1
  aux : Nat := 2

def equations : Nat → Nat
  | 0 => 1
  | n + 1 => equations n * 2
termination_by n => n
decreasing_by simp_wf

theorem absValue (x : Int) :
    |x| = |x| := rfl

instance instWhere : Inhabited Point where
  default := ⟨0, 0, 0⟩
