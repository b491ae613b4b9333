package app

import (
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/lsp"
)

// checkReport converts the checker's report to the editor's (nil for nil):
// its findings located in its stub, its verdict and what became of Lean.
func checkReport(r *leanrepl.Report) *lsp.CheckReport {
	if r == nil {
		return nil
	}
	out := &lsp.CheckReport{Stub: r.Stub, Passed: r.Passed(), Verdict: r.Verdict(), LeanRan: r.LeanRan, LeanFailed: r.LeanFailed,
		LeanBackend: r.LeanBackend, LeanSkipped: r.LeanSkipped, Findings: []lsp.Finding{}}
	for _, f := range r.Findings() {
		out.Findings = append(out.Findings, lsp.Finding{Severity: int(f.Severity), Code: f.Code, Message: f.Message, Start: f.Start, End: f.End})
	}
	return out
}
