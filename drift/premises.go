package drift

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// Found is what retrieval found for a statement: premises and illustrative
// theorems.
type Found struct {
	Premises     []retrieval.Premise
	Illustration retrieval.Illustration
	// Final is false for the first look, retrieved with the whole statement
	// at the start of the action, and true for the context the candidates
	// are drawn with (after Decompose and Propose).
	Final bool
}

// maxNamesShown bounds the names a progress message lists.
const maxNamesShown = 6

// Message is a one-line account of f for a progress report: "Premises: A, B,
// C; examples: T".
func (f Found) Message() string {
	what := "Premises"
	if !f.Final {
		what = "Premises (first look)"
	}
	ex := make([]string, 0, len(f.Illustration.Theorems))
	for _, d := range f.Illustration.Theorems {
		ex = append(ex, d.Name)
	}
	return fmt.Sprintf("%s: %s; examples: %s", what, listNames(premiseNames(f.Premises)), listNames(ex))
}

// listNames lists ns, the first maxNamesShown of them.
func listNames(ns []string) string {
	if len(ns) == 0 {
		return "none"
	}
	if len(ns) > maxNamesShown {
		return strings.Join(ns[:maxNamesShown], ", ") + fmt.Sprintf(" and %d more", len(ns)-maxNamesShown)
	}
	return strings.Join(ns, ", ")
}

// firstLook retrieves premises and illustrative theorems with the whole
// statement (no model: it takes a fraction of a second on a warm index)
// and hands them to found and report as soon as they are there, while the
// model works on Decompose, unless the final premises were handed over
// first (a fast model): then the first look is older news and is dropped.
// The returned function waits for it to end.
func (pl *Pipeline) firstLook(ctx context.Context, statement string, order *looks, found func(Found), report progress.Func) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		prem, ill, err := pl.FindPremises(ctx, statement, pl.p.K, pl.p.M)
		if err != nil || ctx.Err() != nil {
			return
		}
		order.first(func() { Found{Premises: prem, Illustration: ill}.handOver(StageRetrieve, found, report) })
	}()
	return func() { <-done }
}

// handOver gives f to found, then announces it in a progress report of
// stage: whoever reads the report (an editor asking for the hover) finds f
// already stored.
func (f Found) handOver(stage string, found func(Found), report progress.Func) {
	if found != nil {
		found(f)
	}
	report(progress.Event{Stage: stage, Message: f.Message()})
}

// looks orders the two hand-overs of premises: the first look's only
// before the final one.
type looks struct {
	mu    sync.Mutex
	final bool
}

// first runs f unless the final premises were handed over.
func (l *looks) first(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.final {
		f()
	}
}

// last runs f, the final hand-over, after which no first look is.
func (l *looks) last(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.final = true
	f()
}

// serialized makes report and found safe for concurrent use: their calls
// are made one at a time (a caller may write both to one stream).
func serialized(report progress.Func, found func(Found)) (progress.Func, func(Found)) {
	var mu sync.Mutex
	r := func(ev progress.Event) {
		mu.Lock()
		defer mu.Unlock()
		report(ev)
	}
	if found == nil {
		return r, nil
	}
	return r, func(f Found) {
		mu.Lock()
		defer mu.Unlock()
		found(f)
	}
}
