package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// checkCorpus writes a decls corpus with a few Mathlib-style names.
func checkCorpus(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	for _, n := range []string{"Nat.totient", "Nat.Prime", "Real.pi", "Real.cos", "Finset.range", "Finset.sum"} {
		line, _ := json.Marshal(&library.Decl{Name: n, Kind: library.KindDef, Signature: "def " + n})
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(t.TempDir(), "corpus.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// buildReplFake builds the REPL test double; a failed build fails the test.
func buildReplFake(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "replfake")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/drift-lsp/drift-lsp/leanrepl/replfake").CombinedOutput(); err != nil {
		t.Fatalf("cannot build the REPL test double: %v: %s", err, out)
	}
	return bin
}

func TestCheckCommand(t *testing.T) {
	corpus := checkCorpus(t)
	fake := buildReplFake(t)
	rules := filepath.Join(t.TempDir(), "rules.json")
	os.WriteFile(rules, []byte(`{"known":["Nat.totient","Real.cos","Real.pi"]}`), 0o600)
	base := []string{"check", "--cache", "", "--corpus", corpus, "--header", "import Mathlib"}
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"usage", []string{"check"}, 2, nil},
		{"gate", []string{"#eval IO.println 1"}, 1, []string{"gate:  REJECTED — the command #eval", "verdict: FAIL"}},
		{"unknown name", []string{"--no-lean", "theorem t (n : ℕ) : Nat.totiently n ≤ n := by sorry"}, 1,
			[]string{"names: 1 unknown", "1:20 [unknown-name] unknown name `Nat.totiently`", "did you mean Nat.totient?", "lean:  not run — --no-lean"}},
		{"lint", []string{"--no-lean", "theorem t : Real.cos pi = -1 := by sorry"}, 1, []string{"[auto-bound-constant]", "did you mean Real.pi?"}},
		{"pass without lean", []string{"--no-lean", "theorem t (n : ℕ) : Nat.totient n ≤ n := by sorry"}, 0, []string{"names: all known", "verdict: PASS (without Lean)"}},
		{"lean accepts", []string{"--repl", fake + " -rules " + rules, "theorem t (n : ℕ) : Nat.totient n ≤ n := by sorry"}, 0, []string{"lean:  accepted", "verdict: PASS"}},
		{"lean rejects", []string{"--repl", fake + " -rules " + rules, "theorem t (n : ℕ) : Nat.Prime n := by sorry"}, 1,
			[]string{"lean:  Lean reported 1 error(s): Unknown identifier `Nat.Prime`", "1:20 [error, unknown-identifier] Unknown identifier `Nat.Prime`"}},
		{"lean hangs", []string{"--timeout", "300ms", "--repl", fake + " -fault hang -at 2", "theorem t : 1 = 1 := by sorry"}, 2, []string{"Lean did not answer in 300ms"}},
		{"repl missing", []string{"--repl", "/nonexistent/repl", "theorem t : 1 = 1 := by sorry"}, 2, []string{"exited at start", "not found"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string(nil), base...), c.args...)
			if c.name == "usage" {
				args = c.args
			}
			var out, errb bytes.Buffer
			code := dispatch(args, &out, &errb)
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

func TestCheckCommandJSON(t *testing.T) {
	corpus := checkCorpus(t)
	var out, errb bytes.Buffer
	code := dispatch([]string{"check", "--cache", "", "--corpus", corpus, "--no-lean", "--json", "theorem t (x : ℝ := 1) (n : ℕ) : Nat.totiently n ≤ n := by sorry"}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Passed  bool `json:"passed"`
		Unknown []struct {
			Name        string   `json:"name"`
			Suggestions []string `json:"suggestions"`
		} `json:"unknown"`
		Lints []struct {
			Code string `json:"code"`
		} `json:"lints"`
		LeanRan     bool   `json:"lean_ran"`
		LeanSkipped string `json:"lean_skipped"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if got.Passed || len(got.Unknown) != 1 || got.Unknown[0].Name != "Nat.totiently" || got.Unknown[0].Suggestions[0] != "Nat.totient" ||
		len(got.Lints) != 1 || got.Lints[0].Code != "default-argument" || got.LeanRan || got.LeanSkipped == "" {
		t.Fatalf("report %+v", got)
	}
}
