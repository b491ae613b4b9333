package llmtest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
)

// recTB records shape errors instead of failing the test.
type recTB struct{ errs []string }

func (r *recTB) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }
func (r *recTB) Helper()                   {}

func TestShapeChecks(t *testing.T) {
	tests := []struct {
		name, path, ctype, body string
		want                    string
	}{
		{"wrong path", "/v1/completions", "application/json", `{}`, "unexpected path"},
		{"not json", "/v1/chat/completions", "application/json", `{`, "not a chat request"},
		{"no model", "/v1/chat/completions", "application/json", `{"messages":[{"role":"user","content":"x"}]}`, "no model"},
		{"no messages", "/v1/chat/completions", "application/json", `{"model":"m"}`, "no messages"},
		{"bad role", "/v1/chat/completions", "application/json", `{"model":"m","messages":[{"role":"robot","content":"x"}]}`, "role"},
		{"empty message", "/v1/chat/completions", "application/json", `{"model":"m","messages":[{"role":"user","content":" "}]}`, "empty"},
		{"bad temperature", "/v1/chat/completions", "application/json", `{"model":"m","temperature":3,"messages":[{"role":"user","content":"x"}]}`, "temperature"},
		{"content type", "/v1/chat/completions", "text/plain", `{}`, "Content-Type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recTB{}
			s := New(rec, Queue(Reply{Text: "ok"}))
			defer s.Close()
			resp, err := http.Post(strings.TrimSuffix(s.URL, "/v1")+tc.path, tc.ctype, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 400 || len(rec.errs) != 1 || !strings.Contains(rec.errs[0], tc.want) {
				t.Fatalf("status %d, errors %q", resp.StatusCode, rec.errs)
			}
			if len(s.Requests()) != 0 {
				t.Fatal("bad request was recorded")
			}
		})
	}
}

func TestQueueExhausted(t *testing.T) {
	r := Queue(Reply{Text: "a"})(1, Request{})
	if r.Status != 500 || !strings.Contains(r.Text, "script has 1 replies") {
		t.Fatalf("%+v", r)
	}
}

func TestWorkspaceTemplates(t *testing.T) {
	ws := Workspace()
	for _, tc := range []struct{ statement, want string }{
		{"Every prime number greater than 2 is odd.", "theorem odd_prime {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry"},
		{"The greatest common divisor of two distinct prime numbers is 1.", "Mm.gcd p q = 1"},
		{"If a prime number divides the product of two natural numbers, then it divides one of the two factors.", "p ∣ₘ a ∨ p ∣ₘ b"},
		{"In a monoid, the product of the concatenation of two lists is the product of their products.", "Mm.prod (l₁ ++ l₂)"},
		{"An even number that is odd.", "theorem odd_prime {n : Nat} (h1 : Mm.Even n) : Mm.Odd n := by sorry"},
	} {
		req := Request{Messages: []Message{{Role: "system", Content: "x"}, {Role: "user", Content: "## Theorem name\n\nodd_prime\n\n## Informal statement\n\n" + tc.statement + "\n"}}}
		got := ws(0, req).Text
		if !strings.Contains(got, "```lean\n") || !strings.Contains(got, tc.want) {
			t.Errorf("%q: got %q", tc.statement, got)
		}
	}
	if got := snakeName("Every prime number greater than 2 is odd."); got != "prime_number_greater_than" {
		t.Errorf("snakeName %q", got)
	}
}

func TestWorkspaceRepair(t *testing.T) {
	prompt := "## Informal statement\n\nx\n\n## Failing statement (repair attempt 1)\n\n```lean\ntheorem a (p : Nat) : Mm.IsOdd p := by sorry\n```\n\n## Problems\n\n- line 1, column 20 (unknown-name): unknown name `Mm.IsOdd` (not in the library; likely invented) — did you mean: Mm.Odd, Mm.Even\n"
	req := Request{Messages: []Message{{Role: "user", Content: prompt}}}
	if StageOf(req) != llm.StageRepair {
		t.Fatalf("stage %q", StageOf(req))
	}
	if got := Workspace()(0, req).Text; !strings.Contains(got, "theorem a (p : Nat) : Mm.Odd p := by sorry") {
		t.Fatalf("repair answer %q", got)
	}
}
