package drift

import (
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/stmtgrammar"
)

// TestWorkedExamplesKeepTheGrammar checks that every worked example's
// structured answer keeps to the statement grammar with the vocabulary of
// its own names: an example the grammar forbids would teach the model a
// form it cannot write.
func TestWorkedExamplesKeepTheGrammar(t *testing.T) {
	for _, ex := range workedExamples {
		v := stmtgrammar.New(ex.needs, []string{"Even"})
		answer := ex.messages(true)[1].Content
		if p := v.Check(answer); len(p) > 0 {
			t.Errorf("%s: %s: %v", ex.name, answer, p)
		}
	}
}

// TestExamplesFor checks that an example is shown only when the library
// has every name it uses, and the first always.
func TestExamplesFor(t *testing.T) {
	names := func(exs []workedExample) (out []string) {
		for _, ex := range exs {
			out = append(out, ex.name)
		}
		return out
	}
	none := names(examplesFor(func(string) bool { return false }))
	if len(none) != 2 || none[0] != "sq_even_of_even" || none[1] != "exists_int_gt" {
		t.Errorf("a library with no names: %v, want the first example and the one that needs no name", none)
	}
	odd := names(examplesFor(func(n string) bool { return n == "Odd" }))
	if len(odd) != 3 || odd[1] != "odd_of_odd_sq" {
		t.Errorf("a library with Odd only: %v", odd)
	}
	if all := examplesFor(func(string) bool { return true }); len(all) != len(workedExamples) {
		t.Errorf("a library with every name: %d examples, want %d", len(all), len(workedExamples))
	}
}

// TestWorkedExamplesCoverTheirStatements checks each worked example with
// the coverage check the pipeline applies to the model's answers: an
// example the checks would fail teaches what they reject.
func TestWorkedExamplesCoverTheirStatements(t *testing.T) {
	for _, ex := range workedExamples {
		stub := strings.TrimSuffix(strings.TrimPrefix(ex.messages(false)[1].Content, "```lean\n"), "\n```")
		if cov := coverage.Check(ex.statement, stub, ex.concepts); !cov.Complete() {
			t.Errorf("%s: %v", stub, cov.Findings())
		}
	}
}
