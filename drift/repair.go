package drift

import (
	"context"
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
)

const repairSystem = `You are an expert in Lean 4 and its mathematical library. A theorem STATEMENT written for the informal statement below does not check. Correct the statement so that it type-checks against the workspace's library while keeping its meaning; do not prove it. Replace invented names by existing ones (use the suggestions and the library declarations listed). Keep the theorem name, end with ":= by sorry", and answer with a single ` + "```lean" + ` code block containing only the theorem.`

// repairModel is leanrepl's Model over the pipeline's client: it asks for a
// corrected statement and normalises the answer to one theorem stub.
type repairModel struct {
	act       *llm.Action
	statement string
	name      string
}

// Repair asks the model to fix req.Stub. A call failure is an error (the loop
// stops); an answer that does not normalise is returned as is, so that the
// safety gate reports it on the next check.
func (m repairModel) Repair(ctx context.Context, req leanrepl.RepairRequest) (string, error) {
	ans, err := m.act.Complete(ctx, llm.Request{Stage: llm.StageRepair, Messages: repairMessages(m.statement, req), Temperature: 0.2})
	if err != nil {
		return "", err
	}
	st, err := NormalizeStub(ans.Text, m.name)
	if err != nil {
		return ans.Text, nil
	}
	return st.Text, nil
}

func repairMessages(statement string, req leanrepl.RepairRequest) []llm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "## Informal statement\n\n%s\n\n", strings.TrimSpace(statement))
	if h := strings.TrimSpace(req.Header); h != "" {
		fmt.Fprintf(&b, "## File header\n\n```lean\n%s\n```\n\n", h)
	}
	fmt.Fprintf(&b, "## Failing statement (repair attempt %d)\n\n```lean\n%s\n```\n\n## Problems\n\n", req.Attempt, req.Stub)
	for _, e := range req.Errors {
		if e.Line > 0 {
			fmt.Fprintf(&b, "- line %d, column %d (%s): %s", e.Line, e.Column, e.Kind, clip(oneLine(e.Message), maxDocChars))
		} else {
			fmt.Fprintf(&b, "- (%s): %s", e.Kind, clip(oneLine(e.Message), maxDocChars))
		}
		if len(e.Suggestions) > 0 {
			fmt.Fprintf(&b, " — did you mean: %s", strings.Join(e.Suggestions, ", "))
		}
		b.WriteString("\n")
	}
	if len(req.Retrieved) > 0 {
		b.WriteString("\n## Library declarations that may help\n\n")
		for _, r := range req.Retrieved {
			fmt.Fprintf(&b, "- %s\n", clip(oneLine(r), maxSigChars))
		}
	}
	if len(req.Previous) > 0 {
		b.WriteString("\n## Earlier attempts that also failed\n\n")
		for _, p := range req.Previous {
			fmt.Fprintf(&b, "```lean\n%s\n```\n", p)
		}
	}
	return []llm.Message{{Role: "system", Content: repairSystem}, {Role: "user", Content: b.String()}}
}
