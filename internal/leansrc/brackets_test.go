package leansrc

import (
	"strings"
	"testing"
)

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

// TestTopLevel visits the runes outside brackets and reports balance.
func TestTopLevel(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		ok         bool
	}{
		{"A α, B (β, γ) : Type", "A α, B  : Type", true},
		{"f ⟨a, b⟩ [c]", "f  ", true},
		{"(a", "", false},
		{"a)", "a", false},
	} {
		var b strings.Builder
		ok := TopLevel(tc.text, func(i int, r rune) bool { b.WriteRune(r); return true })
		if b.String() != tc.want || ok != tc.ok {
			t.Errorf("TopLevel(%q): %q %v, want %q %v", tc.text, b.String(), ok, tc.want, tc.ok)
		}
	}
}
