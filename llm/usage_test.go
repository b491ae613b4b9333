package llm_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestUsagePerCall checks the per-call record and the per-stage totals: the
// prompt tokens the server says it served from its prompt cache (the fake
// reports them as llama.cpp's server does, in usage.prompt_tokens_details
// and timings), answers drawn together with n, cache hits and failures.
func TestUsagePerCall(t *testing.T) {
	sys := llm.Message{Role: "system", Content: "one two three four five six seven eight"}
	req := func(stage, user string, n int) llm.Request {
		return llm.Request{Stage: stage, Messages: []llm.Message{sys, {Role: "user", Content: user}}, N: n, Temperature: 0.5}
	}
	type call struct {
		req   llm.Request
		reply llmtest.Reply
	}
	for _, tc := range []struct {
		name    string
		ignoreN bool
		calls   []call
		want    []llm.Call // Seconds are not compared
		stages  map[string]llm.StageUsage
	}{
		{
			name: "prefix served from the server's cache",
			calls: []call{
				{req(llm.StageDecompose, "alpha", 0), llmtest.Reply{Text: "a b"}},
				{req(llm.StageFormalize, "beta gamma", 0), llmtest.Reply{Text: "c"}},
			},
			// <|system|> + 8 words + <|user|> = 10 shared words.
			want: []llm.Call{
				{Stage: llm.StageDecompose, Answers: 1, PromptTokens: 11, CachedPromptTokens: 0, CompletionTokens: 2},
				{Stage: llm.StageFormalize, Answers: 1, PromptTokens: 12, CachedPromptTokens: 10, CompletionTokens: 1},
			},
			stages: map[string]llm.StageUsage{
				llm.StageDecompose: {Calls: 1, PromptTokens: 11, CompletionTokens: 2},
				llm.StageFormalize: {Calls: 1, PromptTokens: 12, CachedPromptTokens: 10, CompletionTokens: 1},
			},
		},
		{
			name: "the server's own figures",
			calls: []call{
				{req(llm.StageFormalize, "x", 0), llmtest.Reply{Text: "t", PromptTokens: 900, CachedPromptTokens: 850, CompletionTokens: 40}},
			},
			want:   []llm.Call{{Stage: llm.StageFormalize, Answers: 1, PromptTokens: 900, CachedPromptTokens: 850, CompletionTokens: 40}},
			stages: map[string]llm.StageUsage{llm.StageFormalize: {Calls: 1, PromptTokens: 900, CachedPromptTokens: 850, CompletionTokens: 40}},
		},
		{
			name: "four answers from one prompt",
			calls: []call{
				{req(llm.StageFormalize, "x", 4), llmtest.Reply{Choices: []string{"p", "q", "r", "s"}, PromptTokens: 100, CompletionTokens: 9}},
			},
			want:   []llm.Call{{Stage: llm.StageFormalize, Answers: 4, PromptTokens: 100, CompletionTokens: 9}},
			stages: map[string]llm.StageUsage{llm.StageFormalize: {Calls: 1, PromptTokens: 100, CompletionTokens: 9}},
		},
		{
			name:    "a server that ignores n answers once",
			ignoreN: true,
			calls: []call{
				{req(llm.StageFormalize, "x", 4), llmtest.Reply{Choices: []string{"p", "q", "r", "s"}, PromptTokens: 100, CompletionTokens: 9}},
			},
			want:   []llm.Call{{Stage: llm.StageFormalize, Answers: 1, PromptTokens: 100, CompletionTokens: 9}},
			stages: map[string]llm.StageUsage{llm.StageFormalize: {Calls: 1, PromptTokens: 100, CompletionTokens: 9}},
		},
		{
			name: "a failure and a cache hit",
			calls: []call{
				{req(llm.StagePropose, "x", 0), llmtest.Reply{Status: 400, Text: "bad"}},
				{req(llm.StageFormalize, "y", 0), llmtest.Reply{Text: "ok", PromptTokens: 5, CompletionTokens: 1}},
				{req(llm.StageFormalize, "y", 0), llmtest.Reply{Status: 500, Text: "not asked: the cache answers"}},
			},
			want: []llm.Call{
				{Stage: llm.StagePropose, Answers: 1, Error: "llm propose: HTTP 400: bad"},
				{Stage: llm.StageFormalize, Answers: 1, PromptTokens: 5, CompletionTokens: 1},
				{Stage: llm.StageFormalize, Answers: 1, CacheHit: true},
			},
			stages: map[string]llm.StageUsage{
				llm.StagePropose:   {Failures: 1},
				llm.StageFormalize: {Calls: 1, CacheHits: 1, PromptTokens: 5, CompletionTokens: 1},
			},
		},
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", tc.name, stream), func(t *testing.T) {
				var replies []llmtest.Reply
				for _, c := range tc.calls {
					replies = append(replies, c.reply)
				}
				srv := llmtest.New(t, llmtest.Queue(replies...))
				defer srv.Close()
				srv.IgnoreN = tc.ignoreN
				c := newClient(t, srv, func(c *llm.Config) { c.Stream, c.MaxRetries = stream, 0 })
				act := c.NewAction(20)
				for _, cl := range tc.calls {
					resp, err := act.Complete(context.Background(), cl.req)
					if err == nil && len(resp.Texts) != tc.want[len(act.Usage().Log)-1].Answers {
						t.Errorf("%d answers, want %d", len(resp.Texts), tc.want[len(act.Usage().Log)-1].Answers)
					}
				}
				u := act.Usage()
				if len(u.Log) != len(tc.want) {
					t.Fatalf("log %+v, want %+v", u.Log, tc.want)
				}
				sumCached := 0
				for i, got := range u.Log {
					if got.Seconds < 0 || got.CacheHit && got.Seconds != 0 {
						t.Errorf("call %d: seconds %v", i, got.Seconds)
					}
					got.Seconds = 0
					if got != tc.want[i] {
						t.Errorf("call %d: got %+v, want %+v", i, got, tc.want[i])
					}
					sumCached += got.CachedPromptTokens
				}
				for stage, want := range tc.stages {
					got := u.Stages[stage]
					got.Seconds = 0
					if got != want {
						t.Errorf("stage %s: got %+v, want %+v", stage, got, want)
					}
				}
				if len(u.Stages) != len(tc.stages) || u.CachedPromptTokens != sumCached {
					t.Errorf("stages %v, cached total %d (calls say %d)", u.Stages, u.CachedPromptTokens, sumCached)
				}
			})
		}
	}
}

// TestAnswersCountAgainstBudget: a call drawing n answers uses n of the
// action's budget, is clamped to what is left, and is charged only for the
// answers a server that ignores n sends.
func TestAnswersCountAgainstBudget(t *testing.T) {
	for _, tc := range []struct {
		name          string
		ignoreN       bool
		budget, n     int
		wantN         int // n the server received (0: not sent)
		wantRemaining int
	}{
		{"fits", false, 5, 4, 4, 1},
		{"clamped", false, 3, 4, 3, 0},
		{"one left", false, 1, 4, 0, 0},
		{"server ignores n", true, 5, 4, 4, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Text: "a"}))
			defer srv.Close()
			srv.IgnoreN = tc.ignoreN
			act := newClient(t, srv, nil).NewAction(tc.budget)
			r, err := act.Complete(context.Background(), llm.Request{Stage: llm.StageFormalize, N: tc.n, Messages: []llm.Message{{Role: "user", Content: "q"}}})
			if err != nil {
				t.Fatal(err)
			}
			if got := srv.Requests()[0].N; got != tc.wantN {
				t.Errorf("server got n=%d, want %d", got, tc.wantN)
			}
			if want := max(tc.wantN, 1); !tc.ignoreN && len(r.Texts) != want {
				t.Errorf("%d answers, want %d", len(r.Texts), want)
			}
			if got := act.Remaining(); got != tc.wantRemaining {
				t.Errorf("remaining %d, want %d", got, tc.wantRemaining)
			}
		})
	}
}
