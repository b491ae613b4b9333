package drift

import (
	"context"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// With a client that sends grammars, every Formalize request carries the
// grammar of the statement's vocabulary (and no response_format), the
// other stages none; answers that keep to it are reported as constrained,
// and a server that answers outside it (as llama.cpp's does when it cannot
// load a grammar) is reported as not applying it, with a warning.
func TestFormalizeGrammar(t *testing.T) {
	tests := []struct {
		name        string
		formalize   string // the answer; "" for the workspace model's
		wantApplied bool
		wantWhy     string
	}{
		{name: "answers keep to the grammar", wantApplied: true},
		{name: "server ignored it: a name outside the vocabulary", formalize: `{"name": "x", "binders": ["(p : ℕ)", "(hp : Mm.Prime p)"], "conclusion": "coprime p 2"}`,
			wantWhy: "answer names `coprime`, outside the vocabulary"},
		{name: "server ignored it: LaTeX", formalize: `{"name": "x", "binders": ["(p : ℕ)"], "conclusion": "p \\geq 2"}`, wantWhy: "answer has LaTeX"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := llmtest.Workspace()
			srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
				if tc.formalize != "" && llmtest.StageOf(req) == llm.StageFormalize {
					return llmtest.Reply{Text: tc.formalize}
				}
				return ws(n, req)
			})
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{Samples: 2, NoContextSamples: -1}, func(c *llm.Config) { c.Grammar = llm.GrammarLlamaCpp })
			res, _ := pl.Formalize(context.Background(), Request{Statement: "Every prime number greater than 2 is odd.", Name: "odd_of_two_lt"}, nil)
			if res == nil || res.Grammar == nil {
				t.Fatalf("no grammar report: %+v", res)
			}
			g := res.Grammar
			if g.Answers != 2 || g.Names < len(testDecls) || g.Bytes == 0 {
				t.Errorf("report %+v", g)
			}
			if applied := g.NotApplied == ""; applied != tc.wantApplied || !strings.Contains(g.NotApplied, tc.wantWhy) {
				t.Errorf("not applied %q, want applied %v (%s)", g.NotApplied, tc.wantApplied, tc.wantWhy)
			}
			if warned := strings.Contains(strings.Join(res.Warnings, "\n"), "grammar not applied"); warned == tc.wantApplied {
				t.Errorf("warnings %q", res.Warnings)
			}
			for _, r := range srv.Requests() {
				formalize := llmtest.StageOf(r) == llm.StageFormalize
				if (r.Grammar != "") != formalize || formalize && r.ResponseFormat != nil {
					t.Errorf("%s request: grammar %v, response_format %v", llmtest.StageOf(r), r.Grammar != "", r.ResponseFormat != nil)
				}
				if formalize && (!strings.HasPrefix(r.Grammar, "%llguidance {}") || !strings.Contains(r.Grammar, `"Mm.Prime"`)) {
					t.Errorf("formalize grammar lacks the premises:\n%s", r.Grammar)
				}
			}
		})
	}
}

// Without a grammar dialect nothing changes: no grammar, no report.
func TestFormalizeNoGrammar(t *testing.T) {
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: "Every prime number greater than 2 is odd.", Name: "odd_of_two_lt"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Grammar != nil {
		t.Errorf("grammar report %+v without a grammar", res.Grammar)
	}
	for _, r := range srv.Requests() {
		if r.Grammar != "" {
			t.Errorf("%s request carried a grammar", llmtest.StageOf(r))
		}
	}
}
