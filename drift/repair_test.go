package drift

import (
	"context"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestRepairRefuted: the chosen stub is refuted (m = 0, n = 0); the repair
// prompt quotes the counterexample and the sentence, and the model's
// answer, which the checks rank higher, replaces it.
func TestRepairRefuted(t *testing.T) {
	const st = "The product of two odd natural numbers is odd."
	const refuted = "theorem odd_mul (m n : Nat) : (m * n) % 2 = 1 := by sorry"
	const fixed = "theorem odd_mul (m n : Nat) (hm : m % 2 = 1) (hn : n % 2 = 1) : (m * n) % 2 = 1 := by sorry"
	s := goodScript()
	s.backTranslate = llmtest.Reply{Text: st}
	s.formalize = []llmtest.Reply{{Text: "```lean\n" + refuted + "\n```"}}
	s.repair = llmtest.Reply{Text: "```lean\n" + fixed + "\n```"}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	// no sub-queries: the test's retriever would make "odd" a concept
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1, RepairBudget: 2, NoDecompose: true}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: st, Name: "odd_mul"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stub != fixed || res.Report.Refuted() || res.Repair == nil || !res.Repair.Fixed || res.Repair.Attempts != 1 {
		t.Fatalf("stub %q (%s), repair %+v", res.Stub, res.Report.Verdict(), res.Repair)
	}
	var prompts []string
	for _, r := range srv.Requests() {
		if stageOf(r) == llm.StageRepair {
			prompts = append(prompts, r.Prompt())
		}
	}
	if len(prompts) != 1 {
		t.Fatalf("%d repair prompts", len(prompts))
	}
	want := "## Informal statement\n\n" + st + "\n\n" +
		"## Failing statement (repair attempt 1)\n\n```lean\n" + refuted + "\n```\n\n## Problems\n\n" +
		"- line 1, column 30 (refuted): refuted: m = 0, n = 0 satisfy every hypothesis and falsify the conclusion — the informal statement says: \"" + st + "\"\n"
	if !strings.Contains(prompts[0], want) || !strings.Contains(prompts[0], repairSystem) {
		t.Errorf("repair prompt:\n%s\nwant it to contain:\n%s", prompts[0], want)
	}
}

// TestRepairOmission: the chosen stub omits "greater than 2" on a variable
// the words do not pin down, so no hypothesis is added without the model;
// the prompt quotes the omission, and a repair that still omits it but is
// no better is not kept.
func TestRepairOmission(t *testing.T) {
	const st = "Every integer greater than 2 is at most its square."
	const omits = "theorem lt_sq (m n : Int) : m ≤ m * m + n * 0 := by sorry"
	s := goodScript()
	s.backTranslate = llmtest.Reply{Text: st}
	s.formalize = []llmtest.Reply{{Text: "```lean\n" + omits + "\n```"}}
	s.repair = llmtest.Reply{Text: "```lean\ntheorem lt_sq (m : Int) : m ≤ m * m := by sorry\n```"}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1, RepairBudget: 1, NoDecompose: true}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: st, Name: "lt_sq"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var prompt string
	for _, r := range srv.Requests() {
		if stageOf(r) == llm.StageRepair {
			prompt = r.Prompt()
		}
	}
	want := "- (coverage): omits 'greater than 2': the informal statement says it (\"" + st + "\") and no hypothesis or conclusion of the statement states it\n"
	if !strings.Contains(prompt, want) {
		t.Errorf("repair prompt:\n%s\nwant it to contain:\n%s", prompt, want)
	}
	if res.Stub != omits || res.Repair == nil || res.Repair.Attempts != 1 || res.Repair.Fixed {
		t.Errorf("stub %q (%s), repair %+v", res.Stub, res.Report.Verdict(), res.Repair)
	}
}
