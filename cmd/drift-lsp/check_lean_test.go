package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

// TestCheckCommandRealLean runs `drift-lsp check` end to end — index, gate,
// names, lints and the real Lean 4.35.0 through the `lean --json` backend —
// on the prelude workspace, and compares its output with golden files.
func TestCheckCommandRealLean(t *testing.T) {
	lean := leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	dir := t.TempDir()
	hang := filepath.Join(dir, "lean-hangs")
	if err := os.WriteFile(hang, []byte("#!/bin/sh\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := []string{"check", "--cache", "", "--root", root, "--header", leantest.PreludeHeader}
	cases := []struct {
		name string
		args []string
		code int
	}{
		// A wrong statement: the names are known, Lean's own error says
		// what is wrong and where.
		{"wrong-statement", []string{"--lean", lean, "theorem bad (n : Nat) : Eq n Nat := sorry"}, 1},
		// An invented name: the index suggests, Lean confirms.
		{"invented-name", []string{"--lean", lean, "theorem every_even (n : Nat) : Nat.Evn n := sorry"}, 1},
		{"accepted", []string{"--lean", lean, "/-- Addition commutes. -/\ntheorem add_comm' (m n : Nat) : Eq (Nat.add m n) (Nat.add n m) := sorry"}, 0},
		// The gate stops the stub before Lean: no backend runs.
		{"gate", []string{"--lean", lean, "theorem t : True := by exact True.intro"}, 1},
		{"hang", []string{"--lean", hang, "--timeout", "1s", "--import-timeout", "1s", "theorem t : True := sorry"}, 2},
		{"no-lean", []string{"--no-lean", "theorem t : True := sorry"}, 0},
	}
	times := regexp.MustCompile(`checked in [0-9.]+ ms`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := dispatch(append(append([]string(nil), base...), c.args...), &out, &errb)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out.String(), errb.String())
			}
			got := times.ReplaceAllString(out.String(), "checked in … ms")
			got = strings.NewReplacer(root, "$ROOT", lean, "$LEAN", hang, "$HANG").Replace(got)
			leantest.Golden(t, filepath.Join("testdata", "check-lean", c.name+".golden"), got, *update)
		})
	}
}
