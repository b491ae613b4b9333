package leanrepl

import (
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// sortToProp returns the types a CoeSort instance of lib may take to a
// sort that may be Prop (its target is Prop or a variable), keyed by the
// last component of the source type's head, so that a name written in any
// namespace counts; "*" stands for a generic source (every type). It is
// read once per library.
func sortToProp(lib *library.Library) map[string]bool {
	if v, ok := sortToPropCache.Load(lib); ok {
		return v.(map[string]bool)
	}
	out := map[string]bool{}
	for _, d := range lib.Decls() {
		if d.Kind != library.KindInstance {
			continue
		}
		p, ok := parseInstance(d)
		if !ok || p.class != "CoeSort" || len(p.args) != 2 {
			continue
		}
		src, dst := p.args[0], p.args[1]
		if !(dst.Kind == leansrc.TermIdent && dst.Text == "Prop" || p.variable(dst)) {
			continue
		}
		if h := headName(src); h != "" && !p.variable(src) {
			out[lastComponent(h)] = true
		} else {
			out["*"] = true
		}
	}
	sortToPropCache.Store(lib, out)
	return out
}

var sortToPropCache sync.Map // *library.Library → map[string]bool

// parsedInstance is an instance declaration's signature: the class of its
// result, the result's arguments, and the names its binders bind.
type parsedInstance struct {
	class string
	args  []*leansrc.Term
	src   string
	vars  map[string]bool
}

// parseInstance reads `instance (priority := n) name binders : C args`.
func parseInstance(d *library.Decl) (parsedInstance, bool) {
	rest := strings.TrimSpace(strings.TrimPrefix(d.Signature, "instance"))
	if strings.HasPrefix(rest, "(priority") {
		i := strings.IndexByte(rest, ')')
		if i < 0 {
			return parsedInstance{}, false
		}
		rest = strings.TrimSpace(rest[i+1:])
	}
	if rest != "" && !strings.ContainsRune("({[⦃:", []rune(rest)[0]) {
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return parsedInstance{}, false
		}
		rest = rest[i:]
	}
	binders, typ, ok := leansrc.ParseHeader(rest, nil)
	if !ok || typ == nil {
		return parsedInstance{}, false
	}
	p := parsedInstance{src: rest, vars: map[string]bool{}}
	switch {
	case typ.Kind == leansrc.TermIdent:
		p.class = lastComponent(typ.Text)
	case typ.Kind == leansrc.TermApp && typ.Args[0].Kind == leansrc.TermIdent:
		p.class, p.args = lastComponent(typ.Args[0].Text), typ.Args[1:]
	default:
		return parsedInstance{}, false
	}
	for _, b := range binders {
		for _, n := range b.Names {
			p.vars[n] = true
		}
	}
	return p, true
}

// variable reports whether argument a of the instance's result may be a
// variable: a name the signature binds, or a variable's name it does not
// bind (a section variable) and that is no ℍ[R] notation.
func (p parsedInstance) variable(a *leansrc.Term) bool {
	if a.Kind != leansrc.TermIdent || strings.HasPrefix(p.src[a.End:], "[") {
		return false
	}
	return p.vars[a.Text] || elab.AutoBoundShape(a.Text) && a.Text != "ℝ" && a.Text != "ℂ" && a.Text != "ℕ" && a.Text != "ℤ" && a.Text != "ℚ"
}

// headName returns the identifier at the head of t ("" when none).
func headName(t *leansrc.Term) string {
	if t.Kind == leansrc.TermApp {
		t = t.Args[0]
	}
	if t.Kind == leansrc.TermIdent {
		return t.Text
	}
	return ""
}

func lastComponent(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}
