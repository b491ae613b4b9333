package drift

import (
	"context"
	"fmt"

	"github.com/drift-lsp/drift-lsp/leanrepl"
)

// LeanChecker adapts leanrepl's Checker (safety gate, unknown names, lints,
// and Lean when it has a REPL pool) to the pipeline's Checker.
func LeanChecker(c *leanrepl.Checker) Checker { return leanChecker{c} }

type leanChecker struct{ c *leanrepl.Checker }

// Check runs every check leanrepl's checker has.
func (l leanChecker) Check(ctx context.Context, header, stub string) (*CheckResult, error) {
	rep, err := l.c.Check(ctx, leanrepl.CheckRequest{Header: header, Stub: stub})
	if err != nil {
		return nil, err
	}
	return resultOf(rep), nil
}

// resultOf converts leanrepl's report.
func resultOf(rep *leanrepl.Report) *CheckResult {
	cr := &CheckResult{
		GateOK:      rep.GatePassed,
		GateReason:  rep.GateReason,
		LeanRan:     rep.LeanRan,
		LeanOK:      rep.LeanOK,
		LeanSkipped: rep.LeanSkipped,
	}
	for _, u := range rep.Unknown {
		cr.Unknown = append(cr.Unknown, u.Name)
		if len(u.Suggestions) > 0 {
			if cr.Suggestions == nil {
				cr.Suggestions = map[string][]string{}
			}
			cr.Suggestions[u.Name] = u.Suggestions
		}
	}
	for _, m := range rep.Messages {
		cr.Messages = append(cr.Messages, fmt.Sprintf("%s %d:%d: %s", m.Severity, m.Pos.Line, m.Pos.Column, m.Data))
	}
	for _, lint := range rep.Lints {
		cr.Lints = append(cr.Lints, lint.Message)
	}
	return cr
}

// defaultChecker is the checker used when none is given: the safety gate and
// the unknown-name check over names (when it can resolve suggestions), no
// Lean.
func defaultChecker(names Names) Checker {
	cfg := leanrepl.CheckerConfig{NoLean: "no Lean REPL configured"}
	if ln, ok := names.(leanrepl.Names); ok {
		cfg.Names = ln
	}
	return LeanChecker(leanrepl.NewChecker(cfg))
}
