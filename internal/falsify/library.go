package falsify

import (
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// FromLibrary adapts a workspace library to Library: resolve is the
// stub-scope resolver of the name check; names inside definitions resolve in
// their own file's scope.
func FromLibrary(lib *library.Library, resolve func(name string) []string) Library {
	return &libAdapter{lib: lib, resolve: resolve, shared: &adapterShared{}}
}

// libAdapter is the Library of a stub (or, with self set, of a
// definition's file scope) over a workspace library.
type libAdapter struct {
	lib     *library.Library
	resolve func(name string) []string
	// scope and self, for a definition's body: its file's scope and name.
	scope  *leansrc.Scope
	self   string
	shared *adapterShared
}

// adapterShared holds what the adapters of one stub compute once.
type adapterShared struct {
	once      sync.Once
	notations map[string][]Notation
	mu        sync.Mutex
	files     map[string]*parsedFile // by absolute path
}

// Resolve returns the full names name denotes in the adapter's scope.
// Known reports whether the library declares full (Knower).
func (a *libAdapter) Known(full string) bool {
	_, ok := a.lib.Lookup(full)
	return ok
}

func (a *libAdapter) Resolve(name string) []string {
	if a.scope != nil {
		if full := a.lib.Resolve(name, a.scope, a.self); full != "" {
			return []string{full}
		}
		return nil
	}
	if a.resolve == nil {
		return nil
	}
	return a.resolve(name)
}

// Definition returns the body of a def or abbrev that the library holds.
func (a *libAdapter) Definition(full string) (Definition, bool) {
	d, ok := a.lib.Lookup(full)
	if !ok || d.Value == "" || (d.Kind != library.KindDef && d.Kind != library.KindAbbrev) {
		return Definition{}, false
	}
	head := string(d.Kind) + " " + d.Name
	if !strings.HasPrefix(d.Signature, head) {
		return Definition{}, false
	}
	hdr := d.Signature[len(head):]
	binders, typ, ok := leansrc.ParseHeader(hdr, nil)
	if !ok {
		return Definition{}, false
	}
	def := Definition{Body: d.Value}
	for _, b := range binders {
		if b.Type == nil || b.Bracket != '(' {
			return Definition{}, false // implicit and instance parameters are not unfolded
		}
		def.Params = append(def.Params, Param{Names: b.Names, Type: hdr[b.Type.Start:b.Type.End], Explicit: b.Bracket == '('})
	}
	if typ != nil {
		def.Result = hdr[typ.Start:typ.End]
	}
	sc := a.scopeOf(d)
	if sc == nil {
		return Definition{}, false
	}
	def.Scope = &libAdapter{lib: a.lib, scope: sc, self: d.Name, shared: a.shared}
	return def, true
}

// scopeOf finds the namespace and opens in force at a declaration.
func (a *libAdapter) scopeOf(d *library.Decl) *leansrc.Scope {
	path := ""
	for _, p := range a.lib.Files() {
		if strings.HasSuffix(p, "/"+d.File) || strings.HasSuffix(p, `\`+strings.ReplaceAll(d.File, "/", `\`)) {
			for _, x := range a.lib.FileDecls(p) {
				if x == d {
					path = p
				}
			}
		}
	}
	if path == "" {
		return nil
	}
	a.shared.mu.Lock()
	defer a.shared.mu.Unlock()
	if a.shared.files == nil {
		a.shared.files = map[string]*parsedFile{}
	}
	pf, ok := a.shared.files[path]
	if !ok {
		if raw, err := os.ReadFile(path); err == nil {
			src, _ := leansrc.Prepare(raw)
			f := a.lib.Syntax(path)
			if f == nil {
				f = leansrc.Parse(raw)
			}
			pf = &parsedFile{f: f, lines: leansrc.NewLineIndex(src)}
		}
		a.shared.files[path] = pf
	}
	if pf == nil {
		return nil
	}
	off := pf.lines.Offset(d.Range.Start)
	sc, _ := pf.f.At(off)
	return sc
}

// parsedFile is a library file's parse and line index.
type parsedFile struct {
	f     *leansrc.File
	lines *leansrc.LineIndex
}

// Notation returns the notation that is the one token symbol standing for
// a constant (`notation "ℝ≥0" => NNReal`, fixity Nullary), else the simple
// infix, prefix or postfix notation for symbol, when exactly one constant is
// declared for it.
func (a *libAdapter) Notation(symbol string) (Notation, bool) {
	if c, ok := a.lib.NotationToken(symbol); ok {
		return Notation{Const: c, Operator: leansrc.Operator{Fixity: leansrc.Nullary}}, true
	}
	if !symbolsOnly(symbol) {
		// the parser asks for operators only among runs of symbols; its
		// probes for tokens (`(a`, `n+1`) must not cost the scan below
		return Notation{}, false
	}
	a.shared.once.Do(func() {
		a.shared.notations = map[string][]Notation{}
		for _, d := range a.lib.Decls() {
			if d.Kind != library.KindNotation || len(d.StatementDeps) != 1 {
				continue
			}
			if n, sym, ok := operatorOf(d); ok {
				a.shared.notations[sym] = append(a.shared.notations[sym], n)
			}
		}
	})
	ns := a.shared.notations[symbol]
	if len(ns) == 0 {
		return Notation{}, false
	}
	for _, n := range ns[1:] {
		if n != ns[0] {
			return Notation{}, false // ambiguous
		}
	}
	return ns[0], true
}

// symbolsOnly reports whether s is scanned as symbol tokens alone.
func symbolsOnly(s string) bool {
	toks, errs := leansrc.Scan([]byte(s))
	if len(errs) > 0 || len(toks) == 0 {
		return false
	}
	for _, t := range toks {
		if t.Kind != leansrc.TokSymbol {
			return false
		}
	}
	return true
}

// fixities are the notation commands the falsifier reads.
var fixities = map[string]leansrc.Fixity{"infix": leansrc.Infix, "infixl": leansrc.Infixl, "infixr": leansrc.Infixr,
	"prefix": leansrc.Prefix, "postfix": leansrc.Postfix}

// operatorOf reads `infixl:65 " + " => f` style notations from their
// signature.
func operatorOf(d *library.Decl) (Notation, string, bool) {
	sig := d.Signature
	for _, mod := range []string{"scoped ", "local "} {
		sig = strings.TrimPrefix(sig, mod)
	}
	kw, rest, ok := strings.Cut(sig, ":")
	fx, known := fixities[kw]
	if !ok || !known {
		return Notation{}, "", false
	}
	precText, rest, _ := strings.Cut(rest, " ")
	prec, err := strconv.Atoi(precText)
	switch {
	case precText == "max":
		prec = 1024
	case precText == "arg":
		prec = 1023
	case precText == "min":
		prec = 10
	case err != nil:
		return Notation{}, "", false
	}
	q1 := strings.IndexByte(rest, '"')
	q2 := strings.LastIndexByte(rest, '"')
	if q1 < 0 || q2 <= q1 {
		return Notation{}, "", false
	}
	sym := strings.TrimSpace(rest[q1+1 : q2])
	if sym == "" || strings.ContainsAny(sym, " \"") {
		return Notation{}, "", false
	}
	return Notation{Const: d.StatementDeps[0], Operator: leansrc.Operator{Fixity: fx, Prec: prec}}, sym, true
}
