package drift

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// openWorkspaceEngine indexes testdata/workspace with the real indexer and
// retrieval engine.
func openWorkspaceEngine(t *testing.T) *retrieval.Engine {
	t.Helper()
	ctx := context.Background()
	eng, err := retrieval.Open(ctx, retrieval.Config{Roots: []string{filepath.Join("..", "testdata", "workspace")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if err := eng.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	if eng.Status().Decls < 100 {
		t.Fatalf("engine holds %d declarations", eng.Status().Decls)
	}
	return eng
}

var mmConst = regexp.MustCompile(`Mm\.[A-Za-z]+`)

// TestEndToEndWorkspace runs every stage for real — indexer, retrieval
// engine, name channel, safety gate — with only the model faked, over the
// statements of testdata/workspace/DriftExample/Demo.lean.
func TestEndToEndWorkspace(t *testing.T) {
	eng := openWorkspaceEngine(t)
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake", APIKeyEnv: "DRIFT_TEST_NO_KEY", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	pl := New(eng, c, nil, Params{})
	for _, tc := range []struct{ statement, name, stub string }{
		{"Every prime number greater than 2 is odd.", "odd_of_two_lt",
			"theorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry"},
		{"The greatest common divisor of two distinct prime numbers is 1.", "gcd_primes",
			"theorem gcd_primes {p q : Nat} (hp : Mm.Prime p) (hq : Mm.Prime q) (hne : p ≠ q) : Mm.gcd p q = 1 := by sorry"},
		{"If a prime number divides the product of two natural numbers, then it divides one of the two factors.", "prime_divides_mul",
			"theorem prime_divides_mul {p a b : Nat} (hp : Mm.Prime p) (h : p ∣ₘ a * b) : p ∣ₘ a ∨ p ∣ₘ b := by sorry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(srv.Requests())
			res, err := pl.Formalize(context.Background(), Request{Statement: tc.statement, Name: tc.name}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Stub != tc.stub {
				t.Fatalf("stub %q", res.Stub)
			}
			if res.HallucinationRate != 0 {
				t.Errorf("proposed names %+v", res.Proposed)
			}
			var prompt string
			for _, r := range srv.Requests()[before:] {
				if llmtest.StageOf(r) == llm.StageFormalize && strings.Contains(r.Prompt(), "## Premises") {
					prompt = r.Prompt()
				}
			}
			// Every library constant the stub uses was a premise, and every
			// premise is in the formalize prompt.
			inPrompt := map[string]bool{}
			for _, p := range res.Premises {
				if !strings.Contains(prompt, "- "+p.Decl.Name+"\n") {
					t.Errorf("premise %s is not in the formalize prompt", p.Decl.Name)
				}
				inPrompt[p.Decl.Name] = true
			}
			for _, name := range mmConst.FindAllString(res.Stub, -1) {
				if !inPrompt[name] {
					t.Errorf("the stub uses %s, which is not among the premises %v", name, premiseNames(res.Premises))
				}
			}
			if len(res.Illustration.Theorems) == 0 {
				t.Fatal("no illustrative theorems")
			}
			for _, th := range res.Illustration.Theorems {
				if !strings.Contains(prompt, oneLine(th.Signature)) {
					t.Errorf("illustrative theorem %s is not in the formalize prompt", th.Name)
				}
			}
		})
	}
}
