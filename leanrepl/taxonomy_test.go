package leanrepl

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

// kernelHeader is a prelude with what `sorry` needs except OfNat: the
// kernel then rejects the sorry's tag.
const kernelHeader = `prelude
set_option genCtorIdx false
universe u
inductive Bool : Type
  | false
  | true
axiom sorryAx (α : Sort u) (synthetic : Bool) : α
inductive Nat : Type
  | zero
  | succ (n : Nat)
axiom String : Type
axiom Lean.Name : Type
axiom Lean.Name.anonymous : Lean.Name
axiom Lean.Name.str (pre : Lean.Name) (s : String) : Lean.Name
axiom Lean.Name.num (pre : Lean.Name) (i : Nat) : Lean.Name
inductive MyTrue : Prop
  | intro`

// TestTaxonomyRealLeanMatchesREPL runs, with the real Lean 4.35.0, commands
// that make the same errors as messages of the Lean REPL — recorded in the
// transcripts (Lean 4.33) or, where they have none, the older-style texts
// of TestClassify — and checks that Classify puts both in the same class
// and category. The table in docs/leanrepl.md is this test's output
// (-update rewrites it).
func TestTaxonomyRealLeanMatchesREPL(t *testing.T) {
	run, _ := preludeRunner(t, Config{})
	recorded := map[string]bool{}
	for _, tr := range loadTranscripts(t) {
		for _, block := range tr.expected {
			var r Response
			if err := r.UnmarshalJSON([]byte(block)); err != nil {
				t.Fatal(err)
			}
			for _, m := range r.Errors() {
				recorded[m.Data] = true
			}
			if r.Message != "" {
				recorded[r.Message] = true
			}
		}
	}
	rows := []struct {
		repl   string // the REPL's message
		header string // default leantest.PreludeHeader
		cmd    string // what the real Lean checks
		pick   string // prefix of the real message to compare
	}{
		{"Unknown identifier `g`", "", "theorem t (n : Nat) : Eq n (double n) := sorry", "Unknown identifier"},
		{"unknown constant 'Real.sqrt_two_irrational'", "", "theorem t (n : Nat) : Nat.Odd n := sorry", "Unknown constant"},
		{"invalid field 'card', the environment does not contain 'Set.card'\n  s\nhas type\n  Set ℕ", "", "theorem t (n : Nat) : n.IsEven := sorry", "Invalid field"},
		{"type mismatch\n  h\nhas type\n  a = b : Prop\nbut is expected to have type\n  b = a : Prop", "", "theorem t : Eq (Nat.zero : Prop) Nat.zero := sorry", "Type mismatch"},
		{"application type mismatch\n  f x\nargument\n  x\nhas type", "", "theorem t (n : Nat) (h : Eq n n) : Eq h n := sorry", "Application type mismatch"},
		{"function expected\n  f\nterm has type\n  ℕ", "", "theorem t (f : Nat) : Eq (f Nat.zero) Nat.zero := sorry", "Function expected"},
		{"type expected, got\n  (set Nat : ?m.3 PUnit)", "", "theorem t (x : Nat.zero) : True := sorry", "type expected"},
		{"don't know how to synthesize placeholder\ncontext:\n⊢ Nat", "", "theorem t : Eq (_ : Nat) Nat.zero := sorry", "don't know how to synthesize placeholder"},
		{"unexpected token 'sorry'; expected command", "", "theorem t : True := by sorry", "unexpected token"},
		{"unsolved goals\n⊢ Nat", "", "theorem t : True := by sorry", "unsolved goals"},
		{"Lean error:\n<input>:1:1: unknown tactic", "", "theorem t : True := by exact True.intro", "unknown tactic"},
		{"(kernel) declaration has metavariables '_example'", kernelHeader, "theorem t : MyTrue := sorry", "(kernel)"},
	}
	var table strings.Builder
	table.WriteString("| REPL message (source) | real Lean 4.35.0 message (prelude workspace) | class / category of both |\n|---|---|---|\n")
	for _, row := range rows {
		header := row.header
		if header == "" {
			header = leantest.PreludeHeader
		}
		resp, err := run.Run(context.Background(), header, autoImplicitOff+row.cmd)
		if err != nil {
			t.Fatalf("%s: %v", row.cmd, err)
		}
		var real *Message
		for i, m := range resp.Messages {
			if m.Severity == "error" && strings.HasPrefix(m.Data, row.pick) {
				real = &resp.Messages[i]
				break
			}
		}
		if real == nil {
			t.Errorf("%s: no error starting %q in %+v", row.cmd, row.pick, resp.Messages)
			continue
		}
		want, got := Classify(row.repl), Classify(real.Data)
		if got.Class != want.Class || got.Category != want.Category {
			t.Errorf("%q is %s/%s, but the REPL's %q is %s/%s", firstLine(real.Data), got.Class, got.Category, firstLine(row.repl), want.Class, want.Category)
		}
		source := "TestClassify, Lean ≤ 4.21 style"
		if recorded[row.repl] {
			source = "transcript, Lean 4.33"
		}
		fmt.Fprintf(&table, "| ``%s`` (%s) | ``%s`` | %s / %s |\n", cell(row.repl), source, cell(real.Data), got.Class, got.Category)
	}
	doc := filepath.Join("..", "docs", "leanrepl.md")
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- taxonomy table: TestTaxonomyRealLeanMatchesREPL -->\n", "<!-- end of the taxonomy table -->"
	text := string(b)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the taxonomy table markers", doc)
	}
	if cur := text[i+len(begin) : j]; cur != table.String() {
		if !*update {
			t.Errorf("the taxonomy table in %s is out of date (run with -update):\n%s", doc, table.String())
			return
		}
		if err := os.WriteFile(doc, []byte(text[:i+len(begin)]+table.String()+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cell is the first line of a message, fit for a double-backtick code span
// in a Markdown table cell.
func cell(msg string) string {
	s := firstLine(strings.TrimPrefix(msg, "Lean error:\n"))
	return " " + strings.ReplaceAll(s, "|", "\\|") + " "
}
