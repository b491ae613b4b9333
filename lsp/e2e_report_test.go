package lsp

import (
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestEndToEndReportPositions: the pipeline's report on the chosen stub
// reaches the editor with its positions: the model invents a name, and the
// diagnostic of the inserted stub covers exactly that name.
func TestEndToEndReportPositions(t *testing.T) {
	ws := llmtest.Workspace()
	invented := "```lean\ntheorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.IsOddNumber p := by sorry\n```"
	e, _, u, _ := startReal(t, func(i int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) == llmtest.StageFormalize {
			return llmtest.Reply{Text: invented}
		}
		return ws(i, req)
	})
	if err := <-e.run(e.action(u, collapse(e.rangeOf(u, "greater than 2 is odd")), titleFormalize)); err != nil {
		t.Fatal(err)
	}
	e.waitEnds("DRIFT: "+titleFormalize, 1)
	e.waitFor("the inserted stub's diagnostic", func() bool { return len(e.diags[u]) > 0 })
	e.mu.Lock()
	d := e.diags[u][0]
	e.mu.Unlock()
	want := e.rangeOf(u, "Mm.IsOddNumber")
	r := d["range"].(map[string]any)
	start, end := r["start"].(map[string]any), r["end"].(map[string]any)
	if int(start["line"].(float64)) != want.Start.Line || int(start["character"].(float64)) != want.Start.Char ||
		int(end["character"].(float64)) != want.End.Char || d["code"] != "unknown-name" ||
		!strings.Contains(d["message"].(string), "`Mm.IsOddNumber`") {
		t.Fatalf("diagnostic %v, want code unknown-name at %+v", d, want)
	}
}
