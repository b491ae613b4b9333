package llm_test

import (
	"context"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

const testGrammar = "%llguidance {}\nstart: \"{\\\"ok\\\": true}\"\n"

// A request's grammar goes as llama.cpp's `grammar` or vLLM's
// `structured_outputs.grammar`, never with response_format, and not at all
// when the client sends no grammar (then the schema goes as before); the
// body is asserted as the fake server received it, streamed or not, and a
// retry after a 503 carries the grammar again.
func TestGrammarRequestBody(t *testing.T) {
	tests := []struct {
		dialect     string
		stream      bool
		wantKeys    []string // present in the body
		wantAbsent  []string
		wantGrammar bool
	}{
		{dialect: llm.GrammarLlamaCpp, wantKeys: []string{"grammar"}, wantAbsent: []string{"response_format", "structured_outputs"}, wantGrammar: true},
		{dialect: llm.GrammarLlamaCpp, stream: true, wantKeys: []string{"grammar", "stream"}, wantAbsent: []string{"response_format", "structured_outputs"}, wantGrammar: true},
		{dialect: llm.GrammarVLLM, wantKeys: []string{"structured_outputs"}, wantAbsent: []string{"response_format", "grammar"}, wantGrammar: true},
		{dialect: "", wantKeys: []string{"response_format"}, wantAbsent: []string{"grammar", "structured_outputs"}},
	}
	for _, tc := range tests {
		name := tc.dialect
		if name == "" {
			name = "off"
		}
		if tc.stream {
			name += "/stream"
		}
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Queue(llmtest.Reply{Status: 503}, llmtest.Reply{Text: `{"ok": true}`}, llmtest.Reply{Text: "plain"}))
			defer srv.Close()
			c := newClient(t, srv, func(c *llm.Config) { c.Grammar, c.Stream = tc.dialect, tc.stream })
			req := ask(llm.StageFormalize)
			req.Schema, req.Grammar = stubSchema, testGrammar
			r, err := c.NewAction(0).Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if r.Grammar != tc.wantGrammar || r.Structured == tc.wantGrammar {
				t.Errorf("Grammar = %v, Structured = %v; want grammar %v and structured the opposite", r.Grammar, r.Structured, tc.wantGrammar)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2 (a 503, then the answer)", len(reqs))
			}
			for i, got := range reqs {
				for _, k := range tc.wantKeys {
					if _, ok := got.Body[k]; !ok {
						t.Errorf("request %d: no %q in the body %v", i, k, keys(got.Body))
					}
				}
				for _, k := range tc.wantAbsent {
					if _, ok := got.Body[k]; ok {
						t.Errorf("request %d: %q in the body, want none", i, k)
					}
				}
				switch tc.dialect {
				case llm.GrammarLlamaCpp:
					if got.Grammar != testGrammar {
						t.Errorf("request %d: grammar %q", i, got.Grammar)
					}
				case llm.GrammarVLLM:
					if got.StructuredOutputs == nil || got.StructuredOutputs.Grammar != testGrammar {
						t.Errorf("request %d: structured_outputs %+v", i, got.StructuredOutputs)
					}
				}
				if got.Model != "fake-model" || len(got.Messages) != 2 {
					t.Errorf("request %d lost go-openai's fields: %+v", i, got)
				}
			}
			// A request without a grammar sends none, whatever the dialect.
			plain := ask(llm.StageDecompose)
			if _, err := c.NewAction(0).Complete(context.Background(), plain); err != nil {
				t.Fatal(err)
			}
			last := srv.Requests()[2]
			if _, ok := last.Body["grammar"]; ok || last.StructuredOutputs != nil {
				t.Errorf("a request without a grammar carried one: %v", keys(last.Body))
			}
		})
	}
}

// The same messages with and without a grammar, or with two grammars, are
// cached apart.
func TestGrammarCacheKey(t *testing.T) {
	n := 0
	srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply {
		n++
		return llmtest.Reply{Text: `{"ok": true}`}
	})
	defer srv.Close()
	c := newClient(t, srv, func(c *llm.Config) { c.Grammar = llm.GrammarLlamaCpp })
	for _, g := range []string{"", testGrammar, testGrammar + "// other\n", testGrammar} {
		req := ask(llm.StageFormalize)
		req.Grammar = g
		if _, err := c.NewAction(0).Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	if n != 3 {
		t.Errorf("%d calls, want 3 (the fourth request is the second's)", n)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
