package app

import "testing"

func TestStatementStub(t *testing.T) {
	for in, want := range map[string]string{
		"theorem t (x : ℕ := 3) : x = x := by\n  rfl": "theorem t (x : ℕ := 3) : x = x := by sorry",
		"example : True := trivial":                   "example : True := by sorry",
		"theorem u : True":                            "theorem u : True",
	} {
		if got := statementStub(in); got != want {
			t.Errorf("statementStub(%q) = %q, want %q", in, got, want)
		}
	}
}
