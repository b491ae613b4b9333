package leanrepl

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		msg      string
		class    Class
		category string
		name     string
	}{
		// Real texts, from the recorded transcripts (Lean v4.33).
		{"Unknown identifier `g`", Hallucination, "unknown-identifier", "g"},
		{"Unknown identifier `my_fake_premise`", Hallucination, "unknown-identifier", "my_fake_premise"},
		{"unsolved goals\nx : Int\nh : x = 1\n⊢ x = x", OtherError, "unsolved-goals", ""},
		{"unexpected token 'sorry'; expected command", OtherError, "syntax", ""},
		{"don't know how to synthesize placeholder\ncontext:\n⊢ Nat", OtherError, "placeholder", ""},
		{"type expected, got\n  (set Nat : ?m.3 PUnit)", OtherError, "type-mismatch", ""},
		{"(kernel) declaration has metavariables '_example'", OtherError, "kernel", ""},
		{"fail to show termination for\n  ex\nwith errors", OtherError, "termination", ""},
		{"Lean error:\n<input>:1:1: unknown tactic", OtherError, "syntax", ""},
		{"Lean error:\n`exact?` could not close the goal. Try `apply?` to see partial suggestions.", OtherError, "other", ""},
		{"No goals to be solved", OtherError, "other", ""},
		// Lean 4 messages in the older style that Mathlib-era REPLs print.
		{"unknown identifier 'Nat.isPrime'", Hallucination, "unknown-identifier", "Nat.isPrime"},
		{"unknown constant 'Real.sqrt_two_irrational'", Hallucination, "unknown-constant", "Real.sqrt_two_irrational"},
		{"Unknown constant `Foo.bar`", Hallucination, "unknown-constant", "Foo.bar"},
		{"invalid field 'card', the environment does not contain 'Set.card'\n  s\nhas type\n  Set ℕ", Hallucination, "invalid-field", "Set.card"},
		{"Invalid field `card`: The environment does not contain `Set.card`", Hallucination, "invalid-field", "Set.card"},
		{"invalid dotted identifier notation, unknown identifier `Nat.foo` from expected type\n  ℕ", Hallucination, "invalid-dotted-identifier", "Nat.foo"},
		{"invalid field notation, type is not of the form (C ...) where C is a constant\n  f\nhas type\n  ℕ → ℕ", Hallucination, "not-a-structure", ""},
		{"invalid projection, structure expected\n  x", Hallucination, "not-a-structure", ""},
		{"unknown namespace 'Foo'", Hallucination, "unknown-namespace", "Foo"},
		{"unknown attribute [foo]", Hallucination, "unknown-attribute", ""},
		{"type mismatch\n  h\nhas type\n  a = b : Prop\nbut is expected to have type\n  b = a : Prop", OtherError, "type-mismatch", ""},
		{"application type mismatch\n  f x\nargument\n  x\nhas type", OtherError, "type-mismatch", ""},
		{"failed to synthesize\n  HAdd ℕ ℝ ?m.123", OtherError, "failed-to-synthesize", ""},
		{"failed to synthesize instance\n  Fintype α", OtherError, "failed-to-synthesize", ""},
		{"typeclass instance problem is stuck, it is often due to metavariables", OtherError, "failed-to-synthesize", ""},
		{"(deterministic) timeout at `whnf`, maximum number of heartbeats (200000) has been reached", OtherError, "timeout", ""},
		{"maximum recursion depth has been reached", OtherError, "timeout", ""},
		{"function expected\n  f\nterm has type\n  ℕ", OtherError, "function-expected", ""},
		{"ambiguous, possible interpretations \n  _root_.Prime p : Prop", OtherError, "ambiguous", ""},
		{"unexpected end of input; expected ':='", OtherError, "syntax", ""},
		{"expected term", OtherError, "syntax", ""},
		{"stuck at solving universe constraint\n  max ?u ?v =?= ?u", OtherError, "universe", ""},
		{"", OtherError, "other", ""},
	}
	for _, c := range cases {
		got := Classify(c.msg)
		if got.Class != c.class || got.Category != c.category || got.Name != c.name {
			t.Errorf("Classify(%q) = %+v; want %s/%s/%q", c.msg, got, c.class, c.category, c.name)
		}
	}
}

// TestClassifyTranscriptErrors classifies every error message recorded in
// the transcripts: none may fall through to a hallucination by accident, and
// the unknown identifiers must be hallucinations.
func TestClassifyTranscriptErrors(t *testing.T) {
	var n int
	for _, tr := range loadTranscripts(t) {
		for _, block := range tr.expected {
			var r Response
			if err := r.UnmarshalJSON([]byte(block)); err != nil {
				t.Fatal(err)
			}
			for _, m := range r.Errors() {
				n++
				c := Classify(m.Data)
				wantHall := strings.HasPrefix(m.Data, "Unknown identifier")
				if (c.Class == Hallucination) != wantHall {
					t.Errorf("%s: %q classified %+v", filepath.Base(tr.name), m.Data, c)
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d error messages found in the transcripts", n)
	}
	t.Logf("%d recorded error messages classified", n)
}
