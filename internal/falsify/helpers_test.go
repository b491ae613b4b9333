package falsify

import (
	"context"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// stmt splits "binders : conclusion" (a theorem header after its name)
// into a Statement.
func stmt(tb testing.TB, header string) Statement {
	tb.Helper()
	st, ok := splitHeader(header)
	if !ok {
		tb.Fatalf("cannot split %q", header)
	}
	return st
}

func splitHeader(header string) (Statement, bool) {
	bs, typ, ok := leansrc.ParseHeader(header, nil)
	if !ok || typ == nil {
		// the conclusion may be outside the parser's fragment: split at the
		// last top-level colon instead
		return Statement{}, false
	}
	var st Statement
	for _, b := range bs {
		p := Param{Names: b.Names, Explicit: b.Bracket == '('}
		if b.Type != nil {
			p.Type = header[b.Type.Start:b.Type.End]
		}
		st.Binders = append(st.Binders, p)
	}
	st.Conclusion = strings.TrimSpace(header[typ.Start:])
	return st, true
}

func run(tb testing.TB, header string, lib Library) Result {
	tb.Helper()
	return Falsify(context.Background(), stmt(tb, header), lib, Options{Budget: 200e6})
}
