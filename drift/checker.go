package drift

import (
	"context"

	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// Checker checks one stub (safety gate, unknown names, lints, Lean when it
// has a REPL) and reports with positions; *leanrepl.Checker implements it.
type Checker interface {
	Check(ctx context.Context, req leanrepl.CheckRequest) (*leanrepl.Report, error)
}

// defaultChecker is the checker used when none is given: the safety gate and
// the unknown-name check over names (when not nil), no Lean.
func defaultChecker(names leanrepl.Names) Checker {
	return leanrepl.NewChecker(leanrepl.CheckerConfig{Names: names, NoLean: "no Lean REPL configured"})
}

// LiveNames is the retrieval engine's name channel as leanrepl.Names: every
// call reads the engine's current index, so a checker
// made before the index is ready sees it once it is and sees live updates;
// before that every name is missing.
func LiveNames(e *retrieval.Engine) leanrepl.Names { return liveNames{e} }

type liveNames struct{ e *retrieval.Engine }

// Exact reports whether name is a full name in the current index.
func (n liveNames) Exact(name string) bool {
	ix := n.e.Names()
	return ix != nil && ix.Exact(name)
}

// Suffix returns the names equal to s or ending in "."+s.
func (n liveNames) Suffix(s string) []string {
	if ix := n.e.Names(); ix != nil {
		return ix.Suffix(s)
	}
	return nil
}

// Partial returns up to limit names containing s.
func (n liveNames) Partial(s string, limit int) []string {
	if ix := n.e.Names(); ix != nil {
		return ix.Partial(s, limit)
	}
	return nil
}

// Similar suggests up to limit existing names for a misspelt one.
func (n liveNames) Similar(name string, limit int) []string {
	if ix := n.e.Names(); ix != nil {
		return ix.Similar(name, limit)
	}
	return nil
}
