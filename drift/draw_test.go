package drift

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestDrawsShareTheirPrefix: the candidates with context are one request
// for all of them, and the draw without context starts with the same
// messages (instruction, worked examples), so that a server with a prompt
// cache processes that prefix once; the fake reports the reuse as a
// prompt-caching server does. With one call at a time (the local model)
// the draw without context comes second.
func TestDrawsShareTheirPrefix(t *testing.T) {
	for _, tc := range []struct{ structured, oneAtATime bool }{{false, false}, {true, false}, {true, true}} {
		structured := tc.structured
		srv := llmtest.New(t, goodScript().respond)
		pl, _ := newPipeline(t, srv, nil, Params{}, func(c *llm.Config) {
			c.NoStructured = !structured
			if tc.oneAtATime {
				c.Concurrency = 1
			}
		})
		res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		var form []llmtest.Request
		for _, r := range srv.Requests() {
			if stageOf(r) == llm.StageFormalize {
				form = append(form, r)
			}
		}
		if len(form) != 2 {
			t.Fatalf("structured=%v: %d formalize requests, want 2", structured, len(form))
		}
		withCtx, noCtx := form[0], form[1]
		if tc.oneAtATime && !strings.Contains(withCtx.Prompt(), "## Premises") {
			t.Errorf("one call at a time: the draw without context went first")
		}
		if strings.Contains(noCtx.Prompt(), "## Premises") {
			withCtx, noCtx = noCtx, withCtx
		}
		if withCtx.N != 4 || noCtx.N != 0 || *withCtx.Seed != 1 || *noCtx.Seed != 101 {
			t.Errorf("structured=%v: n %d and %d, seeds %d and %d", structured, withCtx.N, noCtx.N, *withCtx.Seed, *noCtx.Seed)
		}
		last := len(withCtx.Messages) - 1
		if last < 3 || len(noCtx.Messages) != last+1 || !reflect.DeepEqual(withCtx.Messages[:last], noCtx.Messages[:last]) {
			t.Fatalf("structured=%v: the draws do not share instruction and examples:\n%+v\n%+v", structured, withCtx.Messages, noCtx.Messages)
		}
		if !strings.HasPrefix(withCtx.Messages[last].Content, "## Premises") || strings.Contains(noCtx.Messages[last].Content, "## Premises") {
			t.Fatalf("structured=%v: context is not in the last message", structured)
		}
		// The fake counts words as tokens: the shared prefix is at least the
		// shared messages' words.
		shared := 0
		for _, m := range noCtx.Messages[:last] {
			shared += 1 + len(strings.Fields(m.Content))
		}
		best := 0
		for _, c := range res.Usage.Log {
			if c.Stage == llm.StageFormalize {
				best = max(best, c.CachedPromptTokens)
			}
		}
		if best < shared {
			t.Errorf("structured=%v: the later draw reused %d prompt tokens, want at least %d", structured, best, shared)
		}
		if res.Usage.CachedPromptTokens < best {
			t.Errorf("structured=%v: usage total %d cached tokens below a call's %d", structured, res.Usage.CachedPromptTokens, best)
		}
	}
}
