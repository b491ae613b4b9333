package leansrc

import "testing"

func TestUTF16Len(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "ℕ": 1, "𝔽": 2, "\xff": 1} {
		if got := utf16Col([]byte(s), 0, len(s)); got != want {
			t.Errorf("utf16Col(%q) = %d, want %d", s, got, want)
		}
	}
}
