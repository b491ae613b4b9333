package drift

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// fakeClock is a clock that model calls move: each answered request takes
// step.
type fakeClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) tick() {
	c.mu.Lock()
	c.t = c.t.Add(c.step)
	c.mu.Unlock()
}

// requestsOf counts the server's requests of one stage.
func requestsOf(srv *llmtest.Server, stage string) int {
	n := 0
	for _, r := range srv.Requests() {
		if stageOf(r) == stage {
			n++
		}
	}
	return n
}

// TestTimeBudgetRepairs: with every model call taking 20 s and a budget of
// 60 s, the draw ends at 20 s, two repair attempts fit (ending at 40 s and
// 60 s) and a third, which would end at 80 s, is not started; the stop and
// a warning say why. With a budget of 30 s the first repair still starts
// (at 20 s, within the budget), the second does not. Without a budget all
// four run.
func TestTimeBudgetRepairs(t *testing.T) {
	invented := llmtest.Reply{Text: "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.IsOdd p := by sorry\n```"}
	for _, c := range []struct {
		budget  time.Duration
		repairs int
		stop    string
	}{{60 * time.Second, 2, StopTimeBudget}, {30 * time.Second, 1, StopTimeBudget}, {0, 4, "budget"}} {
		clk := &fakeClock{t: time.Unix(1e9, 0), step: 20 * time.Second}
		s := goodScript()
		s.formalize = []llmtest.Reply{invented}
		s.repair = invented
		srv := llmtest.New(t, func(i int, r llmtest.Request) llmtest.Reply { clk.tick(); return s.respond(i, r) })
		pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1, NoDecompose: true, NoPropose: true, RepairBudget: 4, TimeBudget: c.budget}, nil)
		pl.now = clk.now
		res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := requestsOf(srv, llm.StageRepair)
		if n != c.repairs || res.Repair == nil || res.Repair.Attempts != c.repairs || res.Repair.Stop != c.stop {
			t.Fatalf("budget %s: %d repair calls, repair %+v; want %d, stop %q", c.budget, n, res.Repair, c.repairs, c.stop)
		}
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), fmt.Sprintf("time budget of %s spent: %d of 4 repair attempts made", c.budget, c.repairs))
		if warned != (c.budget > 0) {
			t.Errorf("budget %s: warnings %q", c.budget, res.Warnings)
		}
		if res.Report.Passed() {
			t.Errorf("a failing stub reported as passed: %s", res.Report.Verdict())
		}
	}
}

// TestTimeBudgetBackTranslation: when the draws have spent the budget, or
// left less of it than the action's quickest call took (each call takes at
// least 50 ms of real time here), the candidates are not restated (one call
// fewer) and a warning says so; the stub and its verdict are the checks',
// as without a budget.
func TestTimeBudgetBackTranslation(t *testing.T) {
	for _, budget := range []time.Duration{10 * time.Second, 20*time.Second + 10*time.Millisecond, time.Hour} {
		clk := &fakeClock{t: time.Unix(1e9, 0), step: 20 * time.Second}
		s := goodScript()
		srv := llmtest.New(t, func(i int, r llmtest.Request) llmtest.Reply {
			clk.tick()
			time.Sleep(50 * time.Millisecond) // the call's wall time, which the estimate reads
			return s.respond(i, r)
		})
		pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1, NoDecompose: true, NoPropose: true, TimeBudget: budget}, nil)
		pl.now = clk.now
		res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		spent := budget < time.Minute
		restated := res.Report.BackTranslation != nil
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), "the candidates are not restated in words")
		if restated == spent || warned != spent || res.Usage.PerStage[llm.StageBackTranslate] != map[bool]int{true: 0, false: 1}[spent] {
			t.Fatalf("budget %s: restated %v, warnings %q, usage %+v", budget, restated, res.Warnings, res.Usage.PerStage)
		}
		if !strings.HasPrefix(res.Stub, "theorem odd_of_prime ") || !res.Report.Passed() {
			t.Fatalf("budget %s: stub %q (%s)", budget, res.Stub, res.Report.Verdict())
		}
	}
}

// TestTimeBudgetNoContextDraw: with a client that calls one at a time and
// every call taking 30 s, the draw without context (estimated at a third
// of the 30 s the draw with context took) runs when the budget covers it
// (40 s, or none) and is left out with a warning when it does not (35 s); the
// stub is the draw with context's either way. When the draw with context
// gave no usable candidate (an answer cut at its token cap), the draw
// without it runs whatever the budget.
func TestTimeBudgetNoContextDraw(t *testing.T) {
	for _, c := range []struct {
		budget time.Duration
		cut    bool
		draws  int
	}{{35 * time.Second, false, 1}, {40 * time.Second, false, 2}, {0, false, 2}, {35 * time.Second, true, 2}} {
		clk := &fakeClock{t: time.Unix(1e9, 0), step: 30 * time.Second}
		s := goodScript()
		if c.cut {
			s.formalize = []llmtest.Reply{{Text: "{\"name\": \"odd_of_prime\", \"binders\": [\"(p", FinishReason: "length"}, {Text: goodStub}}
		}
		srv := llmtest.New(t, func(i int, r llmtest.Request) llmtest.Reply { clk.tick(); return s.respond(i, r) })
		pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: 1, NoDecompose: true, NoPropose: true, NoBackTranslate: true, TimeBudget: c.budget},
			func(cfg *llm.Config) { cfg.Concurrency = 1 })
		pl.now = clk.now
		res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := requestsOf(srv, llm.StageFormalize)
		seeds := 0
		for _, cand := range res.Candidates {
			seeds += len(cand.Seeds)
		}
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), "time budget: 1 of 2 samples without context left out")
		if n != c.draws || warned != (c.draws == 1) || seeds != c.draws {
			t.Fatalf("budget %s: %d formalize calls, %d samples, warnings %q; want %d", c.budget, n, seeds, res.Warnings, c.draws)
		}
		if !strings.HasPrefix(res.Stub, "theorem odd_of_prime ") || !res.Report.Passed() {
			t.Fatalf("budget %s: stub %q (%s)", c.budget, res.Stub, res.Report.Verdict())
		}
	}
}

// TestStageMaxTokens: every request of an action carries its stage's
// answer cap, the repair's included, and Decompose's schema bounds the
// queries to 4.
func TestStageMaxTokens(t *testing.T) {
	var reqs []llmtest.Request
	// One action whose first candidate is repaired, one whose candidate
	// passes and is restated in words.
	for _, first := range []string{"```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) : Mm.IsOdd p := by sorry\n```", goodStub} {
		s := goodScript()
		s.formalize = []llmtest.Reply{{Text: first}}
		s.repair = llmtest.Reply{Text: goodStub}
		srv := llmtest.New(t, s.respond)
		pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, RepairBudget: 1}, nil)
		if _, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		reqs = append(reqs, srv.Requests()...)
	}
	want := map[string]int{llm.StageDecompose: 192, llm.StagePropose: 160, llm.StageFormalize: 256, llm.StageBackTranslate: 120, llm.StageRepair: 256}
	seen := map[string]bool{}
	for _, r := range reqs {
		st := stageOf(r)
		seen[st] = true
		if r.MaxTokens != want[st] {
			t.Errorf("%s request: max_tokens %d, want %d", st, r.MaxTokens, want[st])
		}
		if st == llm.StageDecompose && r.ResponseFormat != nil {
			var sch struct {
				Properties struct {
					Queries struct {
						MaxItems int `json:"maxItems"`
					} `json:"queries"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(r.ResponseFormat.JSONSchema.Schema, &sch); err != nil || sch.Properties.Queries.MaxItems != 4 {
				t.Errorf("decompose schema: maxItems %d (%v)", sch.Properties.Queries.MaxItems, err)
			}
		}
	}
	for st := range want {
		if !seen[st] {
			t.Errorf("no %s request", st)
		}
	}
}

// TestRepairPromptsGrow: each repair prompt repeats the one before up to
// its list of earlier attempts, so that a server with a prompt cache
// processes only the newest attempt, its problems and what follows.
func TestRepairPromptsGrow(t *testing.T) {
	invented := llmtest.Reply{Text: "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.IsOdd p := by sorry\n```"}
	s := goodScript()
	s.formalize = []llmtest.Reply{invented}
	s.repair = invented
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1, NoDecompose: true, RepairBudget: 3}, nil)
	if _, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil); err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, r := range srv.Requests() {
		if stageOf(r) == llm.StageRepair {
			prompts = append(prompts, r.Prompt())
		}
	}
	if len(prompts) != 3 {
		t.Fatalf("%d repair prompts", len(prompts))
	}
	for i := 1; i < len(prompts); i++ {
		keep := strings.Index(prompts[i-1], "## Failing statement")
		if i > 1 {
			// the earlier attempts' list, without the blank line closing it
			keep = strings.LastIndex(prompts[i-1][:keep], "```\n") + len("```\n")
		}
		if keep < 0 || !strings.HasPrefix(prompts[i], prompts[i-1][:keep]) {
			t.Errorf("repair prompt %d does not repeat prompt %d's first %d bytes:\n%s\n---\n%s", i+1, i, keep, prompts[i], prompts[i-1])
		}
		if !strings.Contains(prompts[i], "## Earlier attempts that also failed") || strings.Index(prompts[i], "## Earlier attempts") > strings.Index(prompts[i], "## Failing statement") {
			t.Errorf("repair prompt %d: the earlier attempts do not come first:\n%s", i+1, prompts[i])
		}
	}
}
