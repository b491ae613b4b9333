package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

const secret = "sk-test-SECRET-0123456789"

func newClient(t *testing.T, srv *llmtest.Server, mod func(*llm.Config)) *llm.Client {
	t.Helper()
	cfg := llm.Config{
		BaseURL:      srv.URL,
		Model:        "fake-model",
		APIKeyEnv:    "DRIFT_TEST_KEY",
		APIKey:       secret,
		Timeout:      5 * time.Second,
		MaxRetries:   2,
		MaxRetryWait: 2 * time.Second,
		CacheDir:     t.TempDir(),
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(stage string) llm.Request {
	return llm.Request{Stage: stage, Messages: []llm.Message{{Role: "system", Content: "sys"}, {Role: "user", Content: "hello"}}, Temperature: 0.7}
}

func TestCompleteAndCache(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Text: "the answer ∑"}))
			defer srv.Close()
			srv.APIKey = secret
			c := newClient(t, srv, func(c *llm.Config) {
				c.Stream = stream
				c.StageModels = map[string]string{llm.StageFormalize: "strong-model"}
			})
			act := c.NewAction(0)
			r, err := act.Complete(context.Background(), ask(llm.StageFormalize))
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != "the answer ∑" || r.Cached {
				t.Fatalf("got %+v", r)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Model != "strong-model" || reqs[0].Stream != stream || reqs[0].Temperature != 0.7 {
				t.Fatalf("request %+v", reqs)
			}
			// A repeat is served from the cache: no request, no call counted.
			act2 := c.NewAction(0)
			r2, err := act2.Complete(context.Background(), ask(llm.StageFormalize))
			if err != nil || !r2.Cached || r2.Text != r.Text {
				t.Fatalf("repeat: %+v %v", r2, err)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Fatalf("repeat reached the server: %d requests", n)
			}
			if u := act2.Usage(); u.Calls != 0 || u.CacheHits != 1 {
				t.Fatalf("repeat usage %+v", u)
			}
			if u := act.Usage(); u.Calls != 1 || u.PromptTokens == 0 || u.CompletionTokens == 0 || u.PerStage[llm.StageFormalize] != 1 {
				t.Fatalf("usage %+v", u)
			}
		})
	}
}

func TestRetryAfter429(t *testing.T) {
	srv := llmtest.New(t, llmtest.Queue(
		llmtest.Reply{Status: 429, Text: "slow down", Header: map[string]string{"Retry-After": "1"}},
		llmtest.Reply{Text: "ok"},
	))
	defer srv.Close()
	var mu sync.Mutex
	var logs []string
	c := newClient(t, srv, func(c *llm.Config) {
		c.Logf = func(f string, a ...any) { mu.Lock(); logs = append(logs, fmt.Sprintf(f, a...)); mu.Unlock() }
	})
	act := c.NewAction(0)
	r, err := act.Complete(context.Background(), ask(llm.StageDecompose))
	if err != nil || r.Text != "ok" {
		t.Fatalf("%v %v", r, err)
	}
	if u := act.Usage(); u.Attempts != 2 || u.Calls != 1 {
		t.Fatalf("usage %+v", u)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) != 1 || !strings.Contains(logs[0], "429") || !strings.Contains(logs[0], "in 1s") {
		t.Fatalf("retry log %q does not show Retry-After honoured", logs)
	}
}

func TestServerErrors(t *testing.T) {
	srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 500, Text: "boom; your key was " + secret}
	})
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.MaxRetryWait = 10 * time.Millisecond })
	act := c.NewAction(0)
	_, err := act.Complete(context.Background(), ask(llm.StageDecompose))
	if err == nil {
		t.Fatal("want error")
	}
	var le *llm.Error
	if !errors.As(err, &le) || le.Status != 500 {
		t.Fatalf("error %v", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Fatalf("error leaks the key: %v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("want 1 try + 2 retries, got %d requests", n)
	}
	// Failed answers are not cached.
	_, err = c.NewAction(0).Complete(context.Background(), ask(llm.StageDecompose))
	if err == nil || len(srv.Requests()) != 6 {
		t.Fatalf("failure was cached: %v, %d requests", err, len(srv.Requests()))
	}
}

// With ReplayFailures a failed question is answered with its error again,
// without a request; another question still reaches the server.
func TestReplayFailures(t *testing.T) {
	srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: 500, Text: "boom"} })
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.ReplayFailures, c.MaxRetries = true, 0 })
	_, err1 := c.NewAction(0).Complete(context.Background(), ask(llm.StageDecompose))
	_, err2 := c.NewAction(0).Complete(context.Background(), ask(llm.StageDecompose))
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() || len(srv.Requests()) != 1 {
		t.Fatalf("errors %v / %v, %d requests; want the same error from one request", err1, err2, len(srv.Requests()))
	}
	other := ask(llm.StageDecompose)
	other.Messages[1].Content = "another question"
	if _, err := c.NewAction(0).Complete(context.Background(), other); err == nil || len(srv.Requests()) != 2 {
		t.Fatalf("another question: %v, %d requests", err, len(srv.Requests()))
	}
}

func TestUnauthorizedDoesNotLeakKey(t *testing.T) {
	srv := llmtest.New(t, llmtest.Queue())
	defer srv.Close()
	srv.APIKey = "another-key"
	c := newClient(t, srv, nil)
	_, err := c.NewAction(0).Complete(context.Background(), ask(llm.StagePropose))
	if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), secret) {
		t.Fatalf("error %v", err)
	}
}

func TestTimeout(t *testing.T) {
	srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Text: "late", Delay: time.Minute}))
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.Timeout = 200 * time.Millisecond; c.MaxRetries = 0 })
	_, err := c.NewAction(0).Complete(context.Background(), ask(llm.StageFormalize))
	if !errors.Is(err, llm.ErrTimeout) {
		t.Fatalf("want ErrTimeout, got %v", err)
	}
}

func TestCancel(t *testing.T) {
	srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "late", Delay: time.Minute} })
	defer srv.Close()
	c := newClient(t, srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := c.NewAction(0).Complete(ctx, ask(llm.StageFormalize))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
}

func TestHugeAnswer(t *testing.T) {
	huge := strings.Repeat("x", 2<<20)
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Text: huge}))
			defer srv.Close()
			c := newClient(t, srv, func(c *llm.Config) { c.Stream = stream })
			_, err := c.NewAction(0).Complete(context.Background(), ask(llm.StageFormalize))
			if !errors.Is(err, llm.ErrTooLarge) {
				t.Fatalf("want ErrTooLarge, got %v", err)
			}
		})
	}
}

func TestStreamCut(t *testing.T) {
	srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Text: strings.Repeat("theorem foo : True := by sorry ", 20), CutStream: true}))
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.Stream = true; c.MaxRetries = 0 })
	_, err := c.NewAction(0).Complete(context.Background(), ask(llm.StageFormalize))
	if !errors.Is(err, llm.ErrIncomplete) {
		t.Fatalf("want ErrIncomplete, got %v", err)
	}
}

func TestTruncatedByLength(t *testing.T) {
	srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Text: "theorem foo :", FinishReason: "length"}))
	defer srv.Close()
	c := newClient(t, srv, nil)
	_, err := c.NewAction(0).Complete(context.Background(), ask(llm.StageFormalize))
	if !errors.Is(err, llm.ErrIncomplete) {
		t.Fatalf("want ErrIncomplete, got %v", err)
	}
}

func TestBudget(t *testing.T) {
	srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: fmt.Sprint("a", n)} })
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.CacheDir = "" })
	act := c.NewAction(2)
	for i := 0; i < 2; i++ {
		if _, err := act.Complete(context.Background(), ask(llm.StagePropose)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := act.Complete(context.Background(), ask(llm.StagePropose)); !errors.Is(err, llm.ErrBudget) {
		t.Fatalf("want ErrBudget, got %v", err)
	}
	if act.Remaining() != 0 || len(srv.Requests()) != 2 {
		t.Fatalf("remaining %d, requests %d", act.Remaining(), len(srv.Requests()))
	}
}

func TestConcurrencyLimit(t *testing.T) {
	var mu sync.Mutex
	inFlight, peak := 0, 0
	// The first two calls wait for each other: the test fails unless two
	// run at once, and the limit of two is checked on every call.
	both := make(chan struct{})
	srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		if inFlight == 2 && peak == 2 {
			select {
			case <-both:
			default:
				close(both)
			}
		}
		mu.Unlock()
		select {
		case <-both:
		case <-time.After(10 * time.Second):
			t.Error("a second call never ran alongside the first")
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		return llmtest.Reply{Text: "x"}
	})
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.Concurrency = 2; c.CacheDir = "" })
	act := c.NewAction(10)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := act.Complete(context.Background(), ask(llm.StageFormalize)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if peak != 2 {
		t.Fatalf("peak concurrency %d, want 2 (the limit, reached)", peak)
	}
}

// TestReasoningModel: go-openai refuses max_tokens and temperature for
// reasoning models before sending; the client adapts and sends once.
func TestReasoningModel(t *testing.T) {
	srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Text: "ok"}))
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.Model = "o3-mini" })
	r, err := c.NewAction(0).Complete(context.Background(), ask(llm.StageFormalize))
	if err != nil || r.Text != "ok" {
		t.Fatalf("%v %v", r, err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].MaxTokens != 0 || reqs[0].Temperature != 0 {
		t.Fatalf("requests %+v", reqs)
	}
}
