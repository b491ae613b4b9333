package drift

import (
	"context"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestBackTranslateOnlyContenders: only the survivors that no other
// survivor outranks on the checks' verdicts are restated (only between
// them can the back-translation decide), each once, within the budget.
func TestBackTranslateOnlyContenders(t *testing.T) {
	rep := func(leanOK, refuted, omits bool, unknown int) *leanrepl.Report {
		r := &leanrepl.Report{GatePassed: true, LeanRan: leanOK, LeanOK: leanOK, Falsifier: &falsify.Result{Verdict: falsify.NotRefuted, Assignments: 10}}
		if refuted {
			r.Falsifier = &falsify.Result{Verdict: falsify.Refuted, Counterexample: "n = 2"}
		}
		r.Coverage = &coverage.Result{Conditions: []coverage.Condition{{Phrase: "greater than 2", Kind: coverage.KindComparison, Covered: !omits}}}
		for range unknown {
			r.Unknown = append(r.Unknown, leanrepl.UnknownName{Name: "X"})
		}
		return r
	}
	tests := []struct {
		name   string
		checks []*leanrepl.Report
		budget int
		want   []bool // restated, per candidate
	}{
		{"all level: all restated", []*leanrepl.Report{rep(false, false, false, 0), rep(false, false, false, 0), rep(false, false, false, 0)}, 10, []bool{true, true, true}},
		{"one omits a condition: the others only", []*leanrepl.Report{rep(false, false, true, 0), rep(false, false, false, 0), rep(false, false, false, 0)}, 10, []bool{false, true, true}},
		{"Lean accepted one: it alone", []*leanrepl.Report{rep(false, false, false, 0), rep(true, false, true, 0), rep(false, false, false, 0)}, 10, []bool{false, true, false}},
		{"refuted and unknown names are not restated", []*leanrepl.Report{rep(false, true, false, 0), rep(false, false, true, 1), rep(false, false, true, 0)}, 10, []bool{false, false, true}},
		{"within the budget", []*leanrepl.Report{rep(false, false, false, 0), rep(false, false, false, 0), rep(false, false, false, 0)}, 2, []bool{true, true, false}},
		{"nothing survives", []*leanrepl.Report{rep(false, true, false, 0), nil}, 10, []bool{false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: statement} })
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{}, nil)
			var cands []*Candidate
			for i, r := range tc.checks {
				c := &Candidate{Stub: "theorem t" + string(rune('a'+i)) + " : True := by sorry", Check: r}
				if r == nil {
					c.Error = "unusable"
				}
				cands = append(cands, c)
			}
			act := pl.client.NewAction(tc.budget)
			pl.backTranslate(context.Background(), act, statement, cands)
			n := 0
			for i, c := range cands {
				got := c.Check != nil && c.Check.BackTranslation != nil
				if got != tc.want[i] {
					t.Errorf("candidate %d restated %v, want %v", i, got, tc.want[i])
				}
				if got {
					n++
				}
			}
			if calls := len(srv.Requests()); calls != n || act.Usage().PerStage[llm.StageBackTranslate] != n {
				t.Fatalf("%d requests for %d restatements", calls, n)
			}
		})
	}
}
