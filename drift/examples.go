package drift

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/llm"
)

// workedExample is one solved Formalize exchange shown to the model before
// the statement: the statement with the hints the pipeline would give it,
// and the answer. Each teaches one way of stating a kind of sentence that a
// small model gets wrong without it (an adjective of the subject as a
// hypothesis, a "whose" clause as a hypothesis, ∣ with its argument order,
// |x|, a finite sum over Finset.range, "infinitely many" as Set.Infinite,
// "there is" as ∃ with a coercion).
type workedExample struct {
	name, statement string
	binders         []string
	conclusion      string
	// concepts are the statement's concepts as the sub-queries would give
	// them, for its condition hints.
	concepts []coverage.Concept
	// needs are the library names the answer uses: the example is shown
	// only when the workspace's library has them all, so that no example
	// names what the library lacks.
	needs []string
}

// workedExamples are the Formalize prompt's examples, in the order shown.
// The first is always shown: it fixes the answer's form; the others
// only when the library has their names. Their statements are none of the
// benchmarks' or the dev sets'.
var workedExamples = []workedExample{
	{name: "sq_even_of_even", statement: "The square of an even integer is even.",
		binders: []string{"(n : ℤ)", "(h : Even n)"}, conclusion: "Even (n ^ 2)",
		concepts: []coverage.Concept{{Phrase: "even", Names: []string{"Even"}}}},
	{name: "odd_of_odd_sq", statement: "An integer whose square is odd is odd.",
		binders: []string{"(n : ℤ)", "(h : Odd (n ^ 2))"}, conclusion: "Odd n",
		needs: []string{"Odd"}},
	{name: "coprime_of_not_dvd", statement: "If a prime p does not divide a natural number n, then p and n are coprime.",
		binders: []string{"(p n : ℕ)", "(hp : Nat.Prime p)", "(h : ¬ p ∣ n)"}, conclusion: "Nat.Coprime p n",
		needs: []string{"Nat.Prime", "Nat.Coprime"}},
	{name: "abs_add_le", statement: "The absolute value of the sum of two real numbers is at most the sum of their absolute values.",
		binders: []string{"(x y : ℝ)"}, conclusion: "|x + y| ≤ |x| + |y|",
		needs: []string{"abs"}},
	{name: "sum_pow_two", statement: "For every natural number n, the sum of the powers 2^i for i from 0 to n - 1 is 2^n - 1.",
		binders: []string{"(n : ℕ)"}, conclusion: "∑ i ∈ Finset.range n, 2 ^ i = 2 ^ n - 1",
		needs: []string{"Finset.range", "Finset.sum"}},
	{name: "infinite_even", statement: "There are infinitely many even natural numbers.",
		binders: nil, conclusion: "Set.Infinite {n : ℕ | Even n}",
		needs: []string{"Set.Infinite", "Even"}},
	{name: "exists_int_gt", statement: "For every real number x there is an integer greater than x.",
		binders: []string{"(x : ℝ)"}, conclusion: "∃ n : ℤ, x < n"},
}

// examplesFor returns the worked examples the library can state: the
// first, and each other one whose names has finds.
func examplesFor(has func(string) bool) []workedExample {
	out := []workedExample{workedExamples[0]}
	for _, ex := range workedExamples[1:] {
		ok := has != nil
		for _, n := range ex.needs {
			ok = ok && has(n)
		}
		if ok {
			out = append(out, ex)
		}
	}
	return out
}

// messages are the example's user and assistant turns, in the answer
// format asked for (structured: JSON).
func (ex workedExample) messages(structured bool) []llm.Message {
	answer := "```lean\ntheorem " + ex.name
	for _, b := range ex.binders {
		answer += " " + b
	}
	answer += " : " + ex.conclusion + " := by sorry\n```"
	if structured {
		quoted := make([]string, len(ex.binders))
		for i, b := range ex.binders {
			quoted[i] = jsonString(b)
		}
		answer = fmt.Sprintf(`{"name": %s, "binders": [%s], "conclusion": %s}`, jsonString(ex.name), strings.Join(quoted, ", "), jsonString(ex.conclusion))
	}
	return []llm.Message{
		{Role: "user", Content: statementSection(ex.name, ex.statement, hintsFor(ex.statement, ex.concepts))},
		{Role: "assistant", Content: answer},
	}
}

// jsonString is s as a JSON string, with <, > and & as themselves (the
// model reads them as Lean).
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(fmt.Sprintf("drift: %q: %v", s, err))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
