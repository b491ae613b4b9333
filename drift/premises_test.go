package drift

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// TestPremisesFirst: the premises retrieved with the whole statement reach
// the caller while the model is still decomposing (the fake model answers
// Decompose only once they have), then the context the candidates are
// drawn with; both are reported as progress too.
func TestPremisesFirst(t *testing.T) {
	s := goodScript()
	seen := make(chan struct{})
	srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
		if stageOf(req) == llm.StageDecompose {
			select {
			case <-seen:
			case <-time.After(20 * time.Second):
				return llmtest.Reply{Status: 400, Text: "the premises never came while the model worked"}
			}
		}
		return s.respond(n, req)
	})
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{}, func(c *llm.Config) { c.MaxRetries = 0 })
	var mu sync.Mutex
	var found []Found
	var events []string
	res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime", Found: func(f Found) {
		mu.Lock()
		defer mu.Unlock()
		found = append(found, f)
		if len(found) == 1 {
			close(seen)
		}
	}}, func(e progress.Event) { events = append(events, e.Message) })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.SubQueries) != 2 {
		t.Fatalf("Decompose was not answered: %q", res.Warnings)
	}
	if len(found) != 2 || found[0].Final || !found[1].Final {
		t.Fatalf("found %+v", found)
	}
	if got := premiseNames(found[0].Premises); !slices.Contains(got, "Mm.Prime") || !slices.Contains(got, "Mm.Odd") {
		t.Errorf("first look found %v", got)
	}
	if got := premiseNames(found[1].Premises); !slices.Equal(got, premiseNames(res.Premises)) {
		t.Errorf("final context %v, result's premises %v", got, premiseNames(res.Premises))
	}
	first := slices.IndexFunc(events, func(m string) bool { return strings.HasPrefix(m, "Premises (first look): Mm.") })
	final := slices.IndexFunc(events, func(m string) bool {
		return strings.HasPrefix(m, "Premises: Mm.") && strings.Contains(m, "; examples: ")
	})
	drawing := slices.IndexFunc(events, func(m string) bool { return strings.HasPrefix(m, "Formalizing: drawing") })
	if first < 0 || final < 0 || drawing < 0 || first > drawing || final > drawing {
		t.Errorf("progress %q", events)
	}
}

func TestFoundMessage(t *testing.T) {
	for _, tc := range []struct {
		f    Found
		want string
	}{
		{Found{}, "Premises (first look): none; examples: none"},
		{Found{Final: true, Premises: premisesOf(testDecls[:8]), Illustration: retrieval.Illustration{Theorems: testDecls[7:8]}},
			"Premises: Mm.Prime, Mm.Odd, Mm.Even, Minimath.Divides, Mm.Coprime, Mm.gcd and 2 more; examples: DriftExample.Primes.Prime.odd_of_ne_two"},
	} {
		if got := tc.f.Message(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func premisesOf(ds []*library.Decl) []retrieval.Premise {
	var out []retrieval.Premise
	for _, d := range ds {
		out = append(out, retrieval.Premise{Hit: retrieval.Hit{Decl: d}})
	}
	return out
}

// TestLooksOrder: a first look handed over after the final premises is
// dropped; before them it runs.
func TestLooksOrder(t *testing.T) {
	var got []string
	var l looks
	l.first(func() { got = append(got, "first") })
	l.last(func() { got = append(got, "final") })
	l.first(func() { got = append(got, "late first") })
	if strings.Join(got, ",") != "first,final" {
		t.Errorf("hand-overs %q, want first,final", got)
	}
}
