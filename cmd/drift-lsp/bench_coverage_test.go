package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCoverage runs the command on a ProofNet-format file and a
// miniF2F-format directory pair of statements written for the test.
func TestBenchCoverage(t *testing.T) {
	dir := t.TempDir()
	proofnet := filepath.Join(dir, "bench.jsonl")
	lines := []string{
		`{"full_name": "own.odd", "informal_stmt": "Every prime number greater than 2 is odd.", "formal_stmt": "theorem odd (n : ℕ) (hp : Nat.Prime n) (h : 2 < n) : Odd n :=\nsorry"}`,
		`{"full_name": "own.dropped", "informal_stmt": "Every prime number greater than 2 is odd.", "formal_stmt": "theorem odd' (n : ℕ) (hp : Nat.Prime n) : Odd n :=\nsorry"}`,
		`{"full_name": "own.broken", "informal_stmt": "Anything.", "formal_stmt": "def x := 1"}`,
	}
	if err := os.WriteFile(proofnet, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	informal, lean := filepath.Join(dir, "informal"), filepath.Join(dir, "lean")
	for _, d := range []string{informal, lean} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(informal, "sq.json"), []byte(`{"informal_statement": "Show that $3^2 = 9$."}`), 0o600)
	os.WriteFile(filepath.Join(lean, "sq.lean"), []byte("import Mathlib\n\ntheorem sq : 3 ^ 2 = 9 := by sorry"), 0o600)
	os.WriteFile(filepath.Join(informal, "unpaired.json"), []byte(`{"informal_statement": "x"}`), 0o600)

	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"usage", nil, 2, nil},
		{"bad pair", []string{"--minif2f", informal}, 2, nil},
		{"proofnet", []string{"--proofnet", proofnet}, 0, []string{
			"proofnet: 2 problems (1 skipped: no parsable reference)",
			"FLAG own.dropped: omits 'greater than 2'",
			"proofnet: references flagged: 1/2 (50.0 %)",
			"proofnet: false variants (drop a strict bound) flagged: 1/1 (100.0 %)",
			"proofnet: false variants (change a constant) flagged: 1/1 (100.0 %)",
		}},
		{"minif2f", []string{"--minif2f", informal + "," + lean}, 0, []string{
			"minif2f: references flagged: 0/1 (0.0 %)",
			"minif2f: false variants (change a constant) flagged: 3/3 (100.0 %)",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := dispatch(append([]string{"bench", "coverage"}, c.args...), &out, &errb)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out.String(), errb.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
