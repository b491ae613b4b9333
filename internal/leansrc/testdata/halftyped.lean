theorem complete1 (n : Nat) : n + 0 = n := by simp

theorem broken1 (n : Nat) : n +

theorem complete2 : True := trivial

def broken2 (x : Nat := by
  exact (

/-- Doc of complete3. -/
theorem complete3 : 1 = 1 := rfl

@[simp
theorem complete4 : 2 = 2 := rfl

structure Broken where
  a : Nat
  b :

namespace
def complete5 := 5

end NotOpen

theorem
def complete6 := 6

lemma complete7 : True := by
  /- unterminated comment

theorem complete8 : True := trivial

def brokenStr := "abc
def complete9 := 9

#help command def
#check (theorem)
def complete10 := 10
