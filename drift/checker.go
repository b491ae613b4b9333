package drift

import (
	"context"
	"errors"

	"github.com/drift-lsp/drift-lsp/leanrepl"
)

// GateChecker is the Checker used when no Lean checker is configured: it runs
// only leanrepl's safety gate and says that Lean did not run.
type GateChecker struct{}

// Check runs the safety gate on stub.
func (GateChecker) Check(_ context.Context, _ string, stub string) (*CheckResult, error) {
	if _, err := leanrepl.Gate(stub); err != nil {
		reason := err.Error()
		var ge *leanrepl.GateError
		if errors.As(err, &ge) {
			reason = ge.Reason
		}
		return &CheckResult{GateOK: false, GateReason: reason, LeanSkipped: "rejected by the gate"}, nil
	}
	return &CheckResult{GateOK: true, LeanSkipped: "no Lean checker configured"}, nil
}
