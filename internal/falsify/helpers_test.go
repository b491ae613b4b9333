package falsify

import (
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// stmt splits "binders : conclusion" (a theorem header after its name)
// into a Statement.
func stmt(tb testing.TB, header string, lib Library) Statement {
	tb.Helper()
	st, ok := splitHeader(header, lib)
	if !ok {
		tb.Fatalf("cannot split %q", header)
	}
	return st
}

func splitHeader(header string, lib Library) (Statement, bool) {
	bs, typ, ok := leansrc.ParseHeader(header, notationOps(lib))
	if !ok || typ == nil {
		return Statement{}, false
	}
	var st Statement
	for _, b := range bs {
		p := Param{Names: b.Names, Explicit: b.Bracket == '('}
		if b.Type != nil {
			p.Type = header[b.Type.Start:b.Type.End]
		}
		if b.Type != nil && b.Type.Kind == leansrc.TermUnsupported {
			p.Type = b.Type.Text // the whole group, which is no type of the fragment
		}
		st.Binders = append(st.Binders, p)
	}
	st.Conclusion = strings.TrimSpace(header[typ.Start:])
	return st, true
}
