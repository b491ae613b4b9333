package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

var stubSchema = &llm.Schema{Name: "stub", JSON: json.RawMessage(`{"type":"object","properties":{"theorem":{"type":"string"}},"required":["theorem"]}`)}

func TestStructuredOutput(t *testing.T) {
	tests := []struct {
		name         string
		noStructured bool // the server refuses response_format
		clientOff    bool // Config.NoStructured
		wantFormat   []bool
		wantStruct   bool
	}{
		{name: "server supports it", wantFormat: []bool{true, true}, wantStruct: true},
		{name: "server refuses it: asked again in text, then never again", noStructured: true, wantFormat: []bool{true, false, false}},
		{name: "turned off in the client", clientOff: true, wantFormat: []bool{false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Text: `{"theorem":"theorem t : True := by sorry"}`}
			})
			defer srv.Close()
			srv.NoStructured = tc.noStructured
			c := newClient(t, srv, func(c *llm.Config) { c.NoStructured = tc.clientOff; c.CacheDir = "" })
			for i, stage := range []string{llm.StageFormalize, llm.StageDecompose} {
				req := ask(stage)
				req.Schema = stubSchema
				r, err := c.NewAction(0).Complete(context.Background(), req)
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if r.Structured != tc.wantStruct {
					t.Errorf("call %d: Structured = %v, want %v", i, r.Structured, tc.wantStruct)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != len(tc.wantFormat) {
				t.Fatalf("%d requests, want %d", len(reqs), len(tc.wantFormat))
			}
			for i, want := range tc.wantFormat {
				rf := reqs[i].ResponseFormat
				if (rf != nil) != want {
					t.Fatalf("request %d: response_format %+v, want present=%v", i, rf, want)
				}
				if want && (rf.Type != "json_schema" || rf.JSONSchema.Name != "stub" || !rf.JSONSchema.Strict || !strings.Contains(string(rf.JSONSchema.Schema), `"theorem"`)) {
					t.Fatalf("request %d: response_format %+v", i, rf)
				}
			}
		})
	}
}

// A structured and a plain request for the same messages are cached apart.
func TestStructuredCacheKey(t *testing.T) {
	srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: []string{"plain", `{"json":1}`}[n%2]}
	})
	defer srv.Close()
	c := newClient(t, srv, nil)
	plain := ask(llm.StageFormalize)
	structured := ask(llm.StageFormalize)
	structured.Schema = stubSchema
	for i, req := range []llm.Request{plain, structured, plain, structured} {
		r, err := c.NewAction(0).Complete(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"plain", `{"json":1}`}[i%2]
		if r.Text != want || r.Cached != (i >= 2) {
			t.Fatalf("call %d: %+v, want %q cached=%v", i, r, want, i >= 2)
		}
	}
}

// endpoint is an llm.Endpoint over a list of fake servers: each BaseURL call
// returns the current one, and kill moves to the next (as a restart would).
type endpoint struct {
	mu      sync.Mutex
	urls    []string
	i       int
	starts  int
	failErr error
}

func (e *endpoint) Start(ctx context.Context, progress func(string)) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.failErr != nil {
		return e.failErr
	}
	e.starts++
	if progress != nil {
		progress("Starting the model…")
	}
	return nil
}

func (e *endpoint) BaseURL(ctx context.Context) (string, error) {
	if err := e.Start(ctx, nil); err != nil {
		return "", err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.urls[e.i], nil
}

func TestEndpointRouting(t *testing.T) {
	a := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "from a"} })
	b := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "from b"} })
	defer b.Close()
	ep := &endpoint{urls: []string{a.URL, b.URL}}
	c := newClient(t, a, func(c *llm.Config) { c.BaseURL, c.Endpoint, c.CacheDir = "", ep, "" })
	if !c.Config().Configured() {
		t.Fatal("a config with an Endpoint is not Configured")
	}
	var lines []string
	if err := c.Start(context.Background(), func(s string) { lines = append(lines, s) }); err != nil || len(lines) != 1 {
		t.Fatalf("Start: %v, progress %q", err, lines)
	}
	r, err := c.NewAction(0).Complete(context.Background(), ask(llm.StageDecompose))
	if err != nil || r.Text != "from a" {
		t.Fatalf("first call: %+v %v", r, err)
	}
	// The first server dies; the endpoint now names the restarted one.
	a.Close()
	ep.mu.Lock()
	ep.i = 1
	ep.mu.Unlock()
	r, err = c.NewAction(0).Complete(context.Background(), ask(llm.StageDecompose))
	if err != nil || r.Text != "from b" {
		t.Fatalf("after restart: %+v %v", r, err)
	}
	// An endpoint that cannot start gives its error, not a connection error.
	ep.mu.Lock()
	ep.failErr = errors.New("local model: the server exited during start-up")
	ep.mu.Unlock()
	_, err = c.NewAction(0).Complete(context.Background(), ask(llm.StagePropose))
	if err == nil || !strings.Contains(err.Error(), "exited during start-up") {
		t.Fatalf("failing endpoint: %v", err)
	}
}

// A request's MaxTokens lowers the configured cap, never raises it.
func TestRequestMaxTokens(t *testing.T) {
	srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "ok"} })
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.MaxTokens, c.CacheDir = 500, "" })
	for _, tc := range []struct{ req, want int }{{0, 500}, {100, 100}, {4000, 500}} {
		req := ask(llm.StagePropose)
		req.MaxTokens = tc.req
		if _, err := c.NewAction(0).Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		if got := reqs[len(reqs)-1].MaxTokens; got != tc.want {
			t.Errorf("request MaxTokens %d: sent %d, want %d", tc.req, got, tc.want)
		}
	}
}

// llama.cpp answers HTTP 500 when it cannot parse the structured output its
// model produced; the same seeded request would produce it again, so the
// client does not retry it as-is but draws once more with the next seed,
// and caches the answer under the question.
func TestUnparsedStructuredOutput(t *testing.T) {
	const unparsed = "The model produced output that does not match the expected peg-native format"
	tests := []struct {
		name     string
		failures int // seeds that fail before one succeeds
		wantErr  bool
		seeds    []int
	}{
		{name: "the second draw parses", failures: 1, seeds: []int{7, 8}},
		{name: "both draws fail: an error, not four identical requests", failures: 2, wantErr: true, seeds: []int{7, 8}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply {
				if n < tc.failures {
					return llmtest.Reply{Status: 500, Text: unparsed}
				}
				return llmtest.Reply{Text: `{"theorem":"theorem t : True := by sorry"}`}
			})
			defer srv.Close()
			c := newClient(t, srv, nil)
			req := ask(llm.StageFormalize)
			req.Schema = stubSchema
			seed := 7
			req.Seed = &seed
			r, err := c.NewAction(0).Complete(context.Background(), req)
			if tc.wantErr != (err != nil) {
				t.Fatalf("answer %+v, error %v", r, err)
			}
			reqs := srv.Requests()
			if len(reqs) != len(tc.seeds) {
				t.Fatalf("%d requests, want %d", len(reqs), len(tc.seeds))
			}
			for i, want := range tc.seeds {
				if reqs[i].Seed == nil || *reqs[i].Seed != want || reqs[i].ResponseFormat == nil {
					t.Fatalf("request %d: seed %v, response_format %v; want seed %d, structured", i, reqs[i].Seed, reqs[i].ResponseFormat, want)
				}
			}
			if err != nil {
				return
			}
			// The question (seed 7) is answered from the cache now.
			r2, err := c.NewAction(0).Complete(context.Background(), req)
			if err != nil || !r2.Cached || len(srv.Requests()) != len(tc.seeds) {
				t.Fatalf("repeat: %+v %v, %d requests", r2, err, len(srv.Requests()))
			}
		})
	}
}
