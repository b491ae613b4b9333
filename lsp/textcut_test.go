package lsp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A long signature is cut in the premises comment inserted into the user's
// file; a cut inside ℕ (three bytes) used to leave U+FFFD there.
func TestPremisesCommentCutsWholeCharacters(t *testing.T) {
	sig := strings.Repeat("ℕ → ", 200) + "ℕ"
	for pad := 0; pad < 3; pad++ {
		s := strings.Repeat("x", pad) + sig
		out := formatPremises(&Premises{Premises: []Symbol{{Name: "f", Signature: s, Path: "/w/A.lean"}}}, "/w")
		if !utf8.ValidString(out) || strings.ContainsRune(out, utf8.RuneError) {
			t.Fatalf("pad %d: the comment holds a broken character:\n%s", pad, out)
		}
		if !strings.Contains(out, "…") {
			t.Fatalf("pad %d: the signature was not cut:\n%s", pad, out)
		}
	}
}
