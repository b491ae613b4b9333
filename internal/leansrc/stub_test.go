package leansrc

import "testing"

// TestSplitProof: the one rule for where a declaration's proof starts,
// shared by the gate, drift's normalisation and the server's checks.
func TestSplitProof(t *testing.T) {
	cases := []struct{ decl, stmt, proof string }{
		{"theorem t (x : ℕ := 3) : x = x := by\n  rfl", "theorem t (x : ℕ := 3) : x = x", " by\n  rfl"},
		{"theorem t : let y := 1; y = 1 := sorry", "theorem t : let y := 1; y = 1", " sorry"},
		{"theorem t : ⟨a, b⟩ = p := rfl", "theorem t : ⟨a, b⟩ = p", " rfl"},
		{"def f : ℕ → ℕ\n  | 0 => 1\n  | n + 1 => n", "def f : ℕ → ℕ", "| 0 => 1\n  | n + 1 => n"},
		{"theorem t : |x| ≤\n  |y| := sorry", "theorem t : |x| ≤\n  |y|", " sorry"},
		{"theorem t : P where foo := 1", "theorem t : P", "where foo := 1"},
		{"theorem t : \"a := b\" = s -- := no\n  := sorry", "theorem t : \"a := b\" = s -- := no", " sorry"},
		{"theorem t : (1 = 1 := sorry", "theorem t : (1 = 1 := sorry", ""},
	}
	for _, c := range cases {
		stmt, proof, ok := SplitProof(c.decl)
		if stmt != c.stmt || proof != c.proof || ok != (c.proof != "") {
			t.Errorf("SplitProof(%q) = %q, %q, %v; want %q, %q", c.decl, stmt, proof, ok, c.stmt, c.proof)
		}
	}
}
