package local

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/stmtgrammar"
	"github.com/drift-lsp/drift-lsp/llm"
)

// TestRealServerGrammar drives the installed xllamacpp server with
// Formalize's grammar: a grammar it loads constrains the answer (it is
// the grammar's JSON, parses as a stub, and names only the vocabulary),
// and a grammar it cannot load — the server then answers 200 and
// generates unconstrained — is detected by checking the answer.
func TestRealServerGrammar(t *testing.T) {
	inst := installed(t)
	s := New(inst, Options{PromptCacheDir: t.TempDir()})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cfg, _, _ := Configure(llm.Config{MaxRetries: 1, Grammar: llm.GrammarLlamaCpp}, ModeAuto, inst.Dir, Options{})
	cfg.Endpoint = s
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := stmtgrammar.New([]string{"sq_nonneg", "mul_self_nonneg", "abs_nonneg"})
	msgs := []llm.Message{
		{Role: "system", Content: `Formalize the statement in Lean 4 with Mathlib. Answer with JSON: {"name": a snake_case name, "binders": ["(x : T)", …], "conclusion": a Lean proposition}.`},
		{Role: "user", Content: `Statement: The square of a real number is nonnegative.`},
	}
	seed := 1
	start := time.Now()
	r, err := c.NewAction(0).Complete(ctx, llm.Request{Stage: llm.StageFormalize, Messages: msgs, Temperature: 0.7, Seed: &seed, MaxTokens: 96, Grammar: v.Lark()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("constrained answer in %s (%d tokens): %s", time.Since(start).Round(time.Second), r.CompletionTokens, r.Text)
	if !r.Grammar || r.Structured {
		t.Fatalf("grammar sent %v, response_format sent %v", r.Grammar, r.Structured)
	}
	if p := v.Check(r.Text); len(p) > 0 {
		t.Fatalf("a grammar the server loads did not constrain the answer: %q", p)
	}
	if st, err := drift.ParseFormalizeAnswer(r.Text, "sq_nonneg'"); err != nil {
		t.Fatalf("constrained answer does not parse: %v", err)
	} else {
		t.Logf("stub: %s", st.Text)
	}

	// A grammar LLGuidance cannot parse: llama.cpp answers 200, unconstrained.
	bad := "%llguidance {}\nstart: \"{\" broken(\n"
	msgs = []llm.Message{{Role: "user", Content: "Reply with the single word: hello"}}
	r, err = c.NewAction(0).Complete(ctx, llm.Request{Stage: llm.StageFormalize, Messages: msgs, Seed: &seed, MaxTokens: 24, Grammar: bad})
	if err != nil {
		t.Fatalf("the server refused the grammar (%v): then nothing is left to detect, and the test's premise is wrong", err)
	}
	t.Logf("answer under an unloadable grammar: %q", r.Text)
	p := v.Check(r.Text)
	if len(p) == 0 || !r.Grammar {
		t.Fatalf("an answer under a grammar the server could not load was not detected: %q (grammar sent %v)", r.Text, r.Grammar)
	}
	t.Logf("detected: %s", strings.Join(p, "; "))
}
