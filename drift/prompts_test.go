package drift

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/llm"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func render(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString("### " + m.Role + "\n" + m.Content + "\n\n")
	}
	return b.String()
}

// TestPromptsGolden pins the exact text of every prompt, so that prompt
// changes show up in review. Run with -update to accept a change.
func TestPromptsGolden(t *testing.T) {
	byName := map[string]*library.Decl{}
	for _, d := range testDecls {
		byName[d.Name] = d
	}
	premises := []*library.Decl{byName["Mm.Prime"], byName["Mm.Odd"]}
	theorems := []*library.Decl{byName["DriftExample.Primes.Prime.odd_of_ne_two"]}
	examples := examplesFor(func(n string) bool { return byName[n] != nil })
	all := examplesFor(func(string) bool { return true })
	hints := hintsFor(statement, []coverage.Concept{{Phrase: "prime number", Names: []string{"Mm.Prime"}}, {Phrase: "odd", Names: []string{"Mm.Odd"}}})
	for name, msgs := range map[string][]llm.Message{
		"decompose":                   decomposeMessages(statement, false),
		"decompose-json":              decomposeMessages(statement, true),
		"propose":                     proposeMessages(statement),
		"formalize":                   formalizeMessages(statement, "odd_of_prime", hints, premises, theorems, examples, false),
		"formalize-json":              formalizeMessages(statement, "odd_of_prime", hints, premises, theorems, examples, true),
		"formalize-all-examples":      formalizeMessages(statement, "odd_of_prime", hints, premises, theorems, all, false),
		"formalize-all-examples-json": formalizeMessages(statement, "odd_of_prime", hints, premises, theorems, all, true),
		"formalize-no-context":        formalizeMessages(statement, nameOrAsk(""), hints, nil, nil, examples, false),
		"formalize-no-context-json":   formalizeMessages(statement, nameOrAsk(""), hints, nil, nil, examples, true),
		"formalize-notation": formalizeMessages("For natural numbers a, b and c, if a divides b and b divides c, then a divides c.", nameOrAsk(""),
			hintsFor("For natural numbers a, b and c, if a divides b and b divides c, then a divides c.", nil), nil, nil, examples, true),
	} {
		t.Run(name, func(t *testing.T) {
			got := render(msgs)
			path := filepath.Join("testdata", "prompts", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./drift -run Golden -update)", err)
			}
			if got != string(want) {
				t.Fatalf("prompt %s changed; run with -update if intended.\ngot:\n%s", name, got)
			}
		})
	}
}

// TestContextBudget: premises past their share of the context are named on
// one line, an illustrative theorem too long for what is left is skipped
// (a shorter one after it is not), and the context stays within budget.
func TestContextBudget(t *testing.T) {
	long := strings.Repeat("(h : ℕ → ℕ) ", 60) // 3-byte runes: clipped at 600 characters, still 1,000 bytes and more
	var premises []*library.Decl
	for i := range 8 {
		premises = append(premises, &library.Decl{Name: fmt.Sprintf("Foo.bar%d", i), Signature: "theorem Foo.bar (x : ℕ) " + long[:200] + ": 0 < x", Doc: "A fact about x."})
	}
	theorems := []*library.Decl{
		{Name: "Foo.huge", Signature: "theorem Foo.huge (x : ℕ) " + long + ": True"},
		{Name: "Foo.small", Signature: "theorem Foo.small (x : ℕ) : 0 ≤ x", Doc: "Naturals are nonnegative."},
	}
	msgs := formalizeMessages("Every natural number is nonnegative.", "t", statementHints{}, premises, theorems, nil, false)
	user := msgs[len(msgs)-1].Content
	ctx, _, _ := strings.Cut(user, "## Theorem name")
	if !strings.Contains(ctx, "- also: Foo.bar") || strings.Contains(ctx, "Foo.huge") || !strings.Contains(ctx, "1. Informal: Naturals are nonnegative.") {
		t.Fatalf("context:\n%s", ctx)
	}
	if len(ctx) > maxContextBytes+200 {
		t.Errorf("context of %d bytes, budget %d", len(ctx), maxContextBytes)
	}
}
