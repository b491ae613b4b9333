package drift

import (
	"sort"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/leanrepl"
)

// TestTypeFindingRanksBelowWellTyped: a candidate the light elaborator
// flags ranks as one Lean rejected — below every well-typed candidate,
// even a refuted one Lean did not run on, and below one Lean accepted —
// and needs repair.
func TestTypeFindingRanksBelowWellTyped(t *testing.T) {
	ok := func() *leanrepl.Report {
		return &leanrepl.Report{GatePassed: true, Falsifier: &falsify.Result{Verdict: falsify.NotRefuted, Assignments: 10}}
	}
	illTyped := &Candidate{Agreement: 9, Check: ok()}
	illTyped.Check.Types = []elab.Finding{{Message: "function expected: `NNReal` is a type, it cannot be applied to an argument"}}
	refuted := &Candidate{Agreement: 2, Check: ok()}
	refuted.Check.Falsifier = &falsify.Result{Verdict: falsify.Refuted, Counterexample: "n = 2"}
	plain := &Candidate{Agreement: 1, Check: ok()}
	accepted := &Candidate{Agreement: 0, Check: ok()}
	accepted.Check.LeanRan, accepted.Check.LeanOK = true, true
	cs := []*Candidate{illTyped, refuted, plain, accepted}
	sort.SliceStable(cs, func(i, j int) bool { return better(cs[i], cs[j], true) })
	want := []*Candidate{accepted, plain, refuted, illTyped}
	for i := range cs {
		if cs[i] != want[i] {
			t.Errorf("position %d has agreement %d, want %d", i, cs[i].Agreement, want[i].Agreement)
		}
	}
	if !needsRepair(illTyped.Check) || needsRepair(plain.Check) {
		t.Error("needsRepair: a type finding needs repair, a clean report does not")
	}
}

// TestRepairPromptQuotesTypeFindings: the repair prompt lists the light
// elaborator's findings with the others (it quotes Report.Findings).
func TestRepairPromptQuotesTypeFindings(t *testing.T) {
	stub := "theorem t (x : ℝ) : NNReal (x ^ 2) := by sorry"
	rep := &leanrepl.Report{Stub: stub, GatePassed: true,
		Types: []elab.Finding{{Start: 21, End: 35, Name: "NNReal", Message: "function expected: `NNReal` is a type, it cannot be applied to an argument"}}}
	msgs := repairMessages(repairRequest{statement: "The square of a real number is nonnegative.", stub: stub, attempt: 1, problems: rep.Findings()})
	var all string
	for _, m := range msgs {
		all += m.Content
	}
	if want := "(type): function expected: `NNReal` is a type"; !strings.Contains(all, want) {
		t.Errorf("prompt lacks %q:\n%s", want, all)
	}
}
