package elab

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// typeless finds the binders written with no type whose names the
// statement never uses (`(Group G)`, `(x)` alone): nothing then fixes the
// type, and Lean elaborates a theorem's header before its proof, so it
// reports "failed to infer binder type" (bracketed binders only: a bare
// name is rarer in a model's answer than in a template). from is where
// the binders start.
func typeless(s *leansrc.Stub, from int) []Finding {
	var out []Finding
	for _, b := range s.Binders {
		if b.Type != "" || b.Default != "" || b.Bracket != "(" && b.Bracket != "{" && b.Bracket != "⦃" {
			continue
		}
		for _, n := range b.Names {
			if n == "_" || usedOutside(s, from, n, b.Start, b.End) {
				continue
			}
			inner := strings.TrimSpace(s.Text[b.Start+len(b.Bracket) : b.End-1])
			out = append(out, Finding{Start: b.Start, End: b.End, Name: n,
				Message: "failed to infer binder type: `" + s.Text[b.Start:b.End] + "` binds `" + n + "` with no type, and the statement never uses it (a class assumption is written [" + inner + "], a variable (" + n + " : T))"})
			break
		}
	}
	return out
}

// usedOutside reports whether an identifier of the statement outside
// [start, end) is name or starts with name and a dot.
func usedOutside(s *leansrc.Stub, from int, name string, start, end int) bool {
	for _, t := range s.Lexemes {
		if t.Start < from || t.End > s.ProofStart || t.Start >= start && t.End <= end {
			continue
		}
		if t.Text == name || strings.HasPrefix(t.Text, name+".") {
			return true
		}
	}
	return false
}
