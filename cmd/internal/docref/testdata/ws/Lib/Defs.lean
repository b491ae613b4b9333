/-! Definitions for the docref tests: `Nat.add_twice` and `Lib.Widget`. -/

namespace Nat

/-- A lemma. -/
theorem add_twice (n : ℕ) : n = n := rfl

theorem succ_pos' (n : ℕ) : 0 < n + 1 := sorry

end Nat

namespace Lib

structure Widget where
  size : Nat

def Widget.double (w : Widget) : Widget := ⟨2 * w.size⟩

theorem Widget.double_size (w : Widget) : w.double.size = 2 * w.size := sorry

@[to_additive]
theorem prod_one (s : Nat) : s = s := rfl

theorem new_name : True := trivial

theorem «exists» : True := trivial

@[deprecated (since := "2024-01-01")] alias old_name := new_name

end Lib
