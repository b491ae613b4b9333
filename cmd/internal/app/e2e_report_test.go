package app

import (
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// formalizeWith runs Formalize with DRIFT on the demo's "greater than 2"
// statement, the workspace's fake model answering Formalize with stub.
func formalizeWith(t *testing.T, stub string) *session {
	t.Helper()
	ws := llmtest.Workspace()
	s := startReal(t, func(i int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) == llm.StageFormalize {
			return llmtest.Reply{Text: "```lean\n" + stub + "\n```"}
		}
		return ws(i, req)
	}, nil)
	s.run("greater than 2 is odd", titleFormalize)
	return s
}

// TestEndToEndReportPositions: the pipeline's report on the chosen stub
// reaches the editor with its positions: the model invents a name, and the
// diagnostic of the inserted stub covers exactly that name.
func TestEndToEndReportPositions(t *testing.T) {
	s := formalizeWith(t, "theorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.IsOddNumber p := by sorry")
	// The verdict is said, as the CLI's "Verdict:" line says it: in the
	// job's end and in a warning.
	const verdict = "the inserted theorem did not pass its checks: unknown names: Mm.IsOddNumber"
	if end := s.waitEnd("DRIFT: " + titleFormalize); !strings.HasPrefix(end, "Inserted, but "+verdict) {
		t.Errorf("end of the job %q, want the verdict %q", end, verdict)
	}
	if err := s.Wait(s.ctx, func() bool { return len(s.Messages()) > 0 }); err != nil || !strings.HasPrefix(s.Messages()[0], "DRIFT: "+verdict) {
		t.Errorf("messages %q, want the warning %q (%v)", s.Messages(), verdict, err)
	}
	if err := s.Wait(s.ctx, func() bool { return len(s.Diagnostics(s.u)) > 0 }); err != nil {
		t.Fatalf("no diagnostic for the inserted stub: %v", err)
	}
	d := s.Diagnostics(s.u)[0]
	want, err := s.RangeOf(s.u, "Mm.IsOddNumber")
	if err != nil {
		t.Fatal(err)
	}
	r := d["range"].(map[string]any)
	start, end := r["start"].(map[string]any), r["end"].(map[string]any)
	if uint32(start["line"].(float64)) != want.Start.Line || uint32(start["character"].(float64)) != want.Start.Character ||
		uint32(end["character"].(float64)) != want.End.Character || d["code"] != "unknown-name" ||
		!strings.Contains(d["message"].(string), "`Mm.IsOddNumber`") {
		t.Fatalf("diagnostic %v, want code unknown-name at %+v", d, want)
	}
}

// TestEndToEndRefuted: the model drops "greater than 2" and the stub is
// false; the job ends with the warning and the counterexample, and the
// inserted stub's diagnostics say it is refuted. (Two primes: the words do
// not say which one is greater than 2, so no hypothesis is added without
// the model; TestEndToEndConditionAdded is the demo's one prime.)
func TestEndToEndRefuted(t *testing.T) {
	s := formalizeWith(t, "theorem odd_of_two_lt (n m : Nat) (hp : Mm.Prime n) (hq : Mm.Prime m) : Mm.Odd n := by sorry")
	const verdict = "the inserted theorem did not pass its checks: "
	end := s.waitEnd("DRIFT: " + titleFormalize)
	if !strings.HasPrefix(end, "Inserted, but "+verdict) || !strings.Contains(end, "refuted: n = 2") || !strings.Contains(end, "omits 'greater than 2'") {
		t.Errorf("end of the job %q, want the verdict with the counterexample and the omission", end)
	}
	if err := s.Wait(s.ctx, func() bool { return len(s.Messages()) > 0 }); err != nil || !strings.Contains(s.Messages()[0], "refuted: n = 2") {
		t.Errorf("messages %q, want the warning with the counterexample (%v)", s.Messages(), err)
	}
	if err := s.Wait(s.ctx, func() bool { return len(s.Diagnostics(s.u)) > 0 }); err != nil {
		t.Fatalf("no diagnostic for the inserted stub: %v", err)
	}
	var codes []string
	for _, d := range s.Diagnostics(s.u) {
		codes = append(codes, d["code"].(string))
		if d["code"] == "refuted" && !strings.Contains(d["message"].(string), "n = 2") {
			t.Errorf("refuted diagnostic %v lacks the counterexample", d)
		}
	}
	if !strings.Contains(strings.Join(codes, " "), "refuted") {
		t.Fatalf("diagnostic codes %q, want refuted", codes)
	}
}

// TestEndToEndConditionAdded: the model drops "greater than 2" of the
// demo's one prime; the pipeline adds it as a hypothesis on n (no model),
// and the inserted stub passes the checks that ran.
func TestEndToEndConditionAdded(t *testing.T) {
	s := formalizeWith(t, "theorem odd_of_two_lt (n : Nat) (hp : Mm.Prime n) : Mm.Odd n := by sorry")
	const want = "Inserted theorem odd_of_two_lt (n : Nat) (hp : Mm.Prime n) (hn : 2 < n) : Mm.Odd n := by sorry"
	if end := s.waitEnd("DRIFT: " + titleFormalize); !strings.HasPrefix(end, want) || !strings.Contains(end, "passed the checks that ran") {
		t.Errorf("end of the job %q, want %q, passed", end, want)
	}
}
