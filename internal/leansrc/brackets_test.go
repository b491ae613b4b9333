package leansrc

import "testing"

func TestBrackets(t *testing.T) {
	for _, tc := range []struct {
		sym    string
		delta  int
		closer string
	}{
		{"(", 1, ")"}, {"⦃", 1, "⦄"}, {"{{", 1, "}}"}, {"@[", 1, "]"}, {"⟨", 1, "⟩"},
		{")", -1, ""}, {"]", -1, ""}, {"}}", -1, ""}, {"⟩", -1, ""},
		{":", 0, ""}, {"()", 0, ""}, {"", 0, ""}, {"x", 0, ""},
	} {
		if got := BracketDelta(tc.sym); got != tc.delta {
			t.Errorf("BracketDelta(%q) = %d, want %d", tc.sym, got, tc.delta)
		}
		if got := Closer(tc.sym); got != tc.closer {
			t.Errorf("Closer(%q) = %q, want %q", tc.sym, got, tc.closer)
		}
	}
}
