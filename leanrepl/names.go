package leanrepl

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// Names answers questions about the library's declaration names; it is
// satisfied by *names.Index of the retrieval package.
type Names interface {
	// Exact reports whether name is a declaration's full name.
	Exact(name string) bool
	// Suffix returns the full names equal to s or ending in "."+s.
	Suffix(s string) []string
	// Partial returns up to limit full names containing s.
	Partial(s string, limit int) []string
	// Similar returns up to limit names that a misspelling of name most
	// likely meant (same last component, small edit distance, to_additive
	// twin).
	Similar(name string, limit int) []string
}

// UnknownName is an identifier of a stub that is neither bound by the stub
// nor resolvable in the library with the header's `open`s.
type UnknownName struct {
	Name string `json:"name"`
	// Start and End are the identifier's byte range in the stub.
	Start int `json:"start"`
	End   int `json:"end"`
	// Suggestions are library names the author probably meant.
	Suggestions []string `json:"suggestions"`
}

// Lint codes.
const (
	// LintAutoBound: a free name that Lean would silently bind as a variable
	// although the library has a constant of that name (pi, e, exp, π
	// without `open Real`).
	LintAutoBound = "auto-bound-constant"
	// LintDefaultArg: a default-argument binder (x : T := v) in a theorem
	// statement, which makes the hypothesis vanish from the statement.
	LintDefaultArg = "default-argument"
	// LintSorryInStatement: `sorry` inside a hypothesis, a definition or the
	// type, which makes the statement meaningless.
	LintSorryInStatement = "sorry-in-statement"
)

// Lint is a likely mistake in a stub that Lean itself accepts.
type Lint struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Start and End are the byte range in the stub the lint is about.
	Start       int      `json:"start"`
	End         int      `json:"end"`
	Suggestions []string `json:"suggestions"`
}

// header is what a file header brings into scope for the name check: the
// scope in force at its end, the declarations it makes (full names) and the
// names its `variable` commands bind, as leansrc's parser reads them.
type header struct {
	sc        *leansrc.Scope
	defined   map[string]bool
	variables map[string]bool
	// imports are the modules the header imports.
	imports []string
}

// readHeader reads the commands of a file header. It never fails; what it
// cannot read it skips.
func readHeader(text string) *header {
	f := leansrc.Parse([]byte(text))
	h := &header{sc: &leansrc.Scope{}, defined: map[string]bool{}, variables: map[string]bool{}}
	if sc, vars := f.At(math.MaxInt); sc != nil {
		h.sc = sc
		for _, v := range vars {
			h.variables[v] = true
		}
	}
	for _, d := range f.Decls {
		h.defined[d.Name] = true
	}
	if lex, err := leansrc.Lex(text); err == nil {
		for i := 0; i < len(lex); i++ {
			if lex[i].Kind != leansrc.LexKeyword || lex[i].Text != "import" {
				continue
			}
			for i+1 < len(lex) && lex[i+1].Kind == leansrc.LexIdent {
				i++
				h.imports = append(h.imports, lex[i].Text)
			}
		}
	}
	return h
}

// mathConstants are free names that authors write for a library constant
// but that Lean binds as a variable (the BEq paper's examples).
var mathConstants = map[string][]string{
	"e": {"Real.exp 1"}, "pi": {"Real.pi"}, "π": {"Real.pi (notation π after `open Real`)"},
	"exp": {"Real.exp", "Complex.exp"}, "i": {"Complex.I"}, "I": {"Complex.I"}, "log": {"Real.log"},
	"sqrt": {"Real.sqrt"}, "sin": {"Real.sin"}, "cos": {"Real.cos"}, "tan": {"Real.tan"}, "φ": {"Nat.totient", "goldenRatio"},
	"γ": {"Real.eulerMascheroniConstant"},
}

// KindFunc looks up a declaration's kind ("def", "class", "field", …, as
// internal/library.Decl.Kind) and, for fields and constructors, its parent.
// It is optional: with it, class fields that Lean code uses unqualified (such
// as `dist` or `gcd`, which Mathlib exports) resolve.
type KindFunc func(name string) (kind, parent string, ok bool)

// KindAlias is the kind a KindFunc gives an export alias (`dist`, and
// `MeasureTheory.volume` of `export MeasureSpace (volume)` inside
// `namespace MeasureTheory`), with the constant it stands for as parent.
const KindAlias = "export alias"

// LibraryKinds returns the KindFunc that answers from lookup, such as
// (*retrieval.Engine).Lookup or (*library.Library).Lookup, and for names
// no declaration has, from alias (ExportAlias of either; nil: none).
func LibraryKinds(lookup func(name string) (*library.Decl, bool), alias func(name string) (string, bool)) KindFunc {
	return func(name string) (string, string, bool) {
		d, ok := lookup(name)
		if !ok {
			if alias != nil {
				if target, ok := alias(name); ok {
					return KindAlias, target, true
				}
			}
			return "", "", false
		}
		return string(d.Kind), d.Parent, true
	}
}

// Resolve applies the unknown-name check's rule to one name written in a
// statement under header: ok when it refers to something in scope (a
// library or core constant, a namespace, an exported class field, field
// notation on a constant), else the library names the author probably meant.
func Resolve(name, header string, names Names, kinds KindFunc) (ok bool, suggestions []string) {
	r := resolver{h: readHeader(header), names: names, kinds: kinds}
	if r.resolves(strings.TrimPrefix(name, "_root_.")) {
		return true, nil
	}
	return false, r.suggest(name)
}

// Analysis is the result of the checks that need no compiler.
type Analysis struct {
	Unknown []UnknownName
	Lints   []Lint
}

// Analyze runs the unknown-name check and the lints on a stub that passed
// the gate, resolving names with the header's scope. With names == nil only
// the lints that need no library run.
func Analyze(s *Stub, header string, names Names) Analysis {
	return analyze(s, readHeader(header), names, nil)
}

// AnalyzeWithKinds is Analyze with declaration kinds, which resolve
// unqualified uses of class fields.
func AnalyzeWithKinds(s *Stub, header string, names Names, kinds KindFunc) Analysis {
	return analyze(s, readHeader(header), names, kinds)
}

func analyze(s *Stub, h *header, names Names, kinds KindFunc) Analysis {
	var a Analysis
	stmt := s.Statement()
	bound := map[string]bool{}
	for _, b := range s.Binders {
		for _, n := range b.Names {
			bound[n] = true
		}
		if b.Default != "" {
			a.Lints = append(a.Lints, Lint{Code: LintDefaultArg, Start: b.Start, End: b.End,
				Message: "default-argument binder: `" + s.Text[b.Start:b.End] + "` is not a hypothesis of the theorem; its value " + b.Default + " is only a default"})
		}
	}
	for n := range h.variables {
		bound[n] = true
	}
	leansrc.TermBinders(stmt, bound)
	r := newResolver(s, h, names, kinds)
	seenLint := map[string]bool{}
	for i, t := range stmt {
		if t.Kind == leansrc.LexKeyword && t.Text == "sorry" {
			a.Lints = append(a.Lints, Lint{Code: LintSorryInStatement, Start: t.Start, End: t.End,
				Message: "`sorry` inside the statement: the hypothesis or definition it stands for is unspecified, so the theorem says nothing checkable"})
			continue
		}
		if t.Kind != leansrc.LexIdent {
			continue
		}
		if i > 0 {
			p := stmt[i-1]
			if p.Kind == leansrc.LexSymbol && (p.Text == "|>." || p.Text == ".{") || p.Kind == leansrc.LexKeyword && (p.Text == "Type" || p.Text == "Sort") {
				continue
			}
			// A named argument (x := v).
			if p.Kind == leansrc.LexSymbol && p.Text == "(" && i+1 < len(stmt) && stmt[i+1].Text == ":=" {
				continue
			}
		}
		name := strings.TrimPrefix(t.Text, "_root_.")
		head, _, dotted := strings.Cut(name, ".")
		if bound[head] || bound[name] {
			continue
		}
		if names == nil || r.resolves(name) {
			continue
		}
		// An auto-bound-shaped name (such as `x` or `α'`) is a lint only;
		// another lower-case name is an unknown name and, when a constant
		// of that name exists, also a lint.
		autoBound := !dotted && isAutoBoundShape(name)
		if autoBound || !dotted && startsLower(name) {
			if sugg := r.constantsNamed(name); len(sugg) > 0 && !seenLint[name] {
				seenLint[name] = true
				why := "is not in scope; with autoImplicit on, Lean silently makes it a variable"
				if autoBound {
					why = "is not bound and not in scope, so Lean silently makes it a variable"
				}
				a.Lints = append(a.Lints, Lint{Code: LintAutoBound, Start: t.Start, End: t.End, Suggestions: sugg,
					Message: "`" + name + "` " + why + "; did you mean " + strings.Join(sugg, " or ") + "?"})
			}
			if autoBound {
				continue
			}
		}
		a.Unknown = append(a.Unknown, UnknownName{Name: name, Start: t.Start, End: t.End, Suggestions: r.suggest(name)})
	}
	return a
}

// isAutoBoundShape reports whether Lean binds name as an auto-bound implicit
// even with relaxedAutoImplicit off: one letter followed by digits,
// subscripts or primes (x, n₁, α', G2).
func isAutoBoundShape(name string) bool {
	r, w := utf8.DecodeRuneInString(name)
	if !unicode.IsLetter(r) {
		return false
	}
	for _, c := range name[w:] {
		if !(unicode.IsDigit(c) || leansrc.IsSubScriptAlnum(c) || c == '\'' || c == '_') {
			return false
		}
	}
	return true
}

func startsLower(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsLower(r)
}

type resolver struct {
	h     *header
	names Names
	kinds KindFunc
	self  string // the stub's name, whose namespaces come first
}

// newResolver resolves the names of stub s under header h: inside s's own
// namespaces first, as Lean does.
func newResolver(s *Stub, h *header, names Names, kinds KindFunc) *resolver {
	return &resolver{h: h, names: names, kinds: kinds, self: s.Name}
}

// fullNames returns the full names name may denote in Lean's order: those
// the library (or Lean core) has first, then the other candidates, which a
// library that is not indexed (Mathlib's own names in a workspace without
// it) may still hold.
func (r *resolver) fullNames(name string) []string {
	cands := r.candidates(strings.TrimPrefix(name, "_root_."))
	if r.names == nil {
		return cands
	}
	known := make([]string, 0, len(cands))
	var rest []string
	for _, c := range cands {
		if r.known(c) {
			known = append(known, c)
		} else {
			rest = append(rest, c)
		}
	}
	return append(known, rest...)
}

func (r *resolver) known(full string) bool {
	if coreNames[full] || r.h.defined[full] || r.names.Exact(full) {
		return true
	}
	kind, _, ok := r.kindOf(full)
	return ok && kind == KindAlias
}

// kindOf is r.kinds, when set.
func (r *resolver) kindOf(full string) (kind, parent string, ok bool) {
	if r.kinds == nil {
		return "", "", false
	}
	return r.kinds(full)
}

// candidates lists the full names name may stand for, most specific first.
func (r *resolver) candidates(name string) []string { return r.h.sc.Candidates(name, r.self) }

// resolves reports whether name refers to something in scope.
func (r *resolver) resolves(name string) bool {
	cands := r.candidates(name)
	for _, c := range cands {
		if r.known(c) {
			return true
		}
	}
	// A namespace used as a term is usually its type of the same name
	// (Nat, Finset) that the index may lack, as with Lean core types.
	for _, c := range cands {
		if r.isNamespace(c) {
			return true
		}
	}
	if !strings.Contains(name, ".") && r.classField(name) {
		return true
	}
	// Generalized field notation on a constant term (Real.pi.le) or on a
	// definition of the header (K_topology.IsOpen).
	parts := strings.Split(name, ".")
	for k := len(parts) - 1; k >= 1; k-- {
		prefix := strings.Join(parts[:k], ".")
		for _, c := range r.candidates(prefix) {
			if r.h.defined[c] || startsLower(parts[k-1]) && r.known(c) {
				return true
			}
		}
	}
	return false
}

// classField reports whether an unqualified name is a field of a class,
// which libraries export to the root namespace (`export Dist (dist)`).
// Without kinds only the common pattern X.x (Dist.dist, Norm.norm) counts.
func (r *resolver) classField(name string) bool {
	for _, full := range r.names.Suffix(name) {
		parent := strings.TrimSuffix(full, "."+name)
		if parent == full {
			continue
		}
		if r.kinds == nil {
			if strings.EqualFold(parent, name) {
				return true
			}
			continue
		}
		if kind, par, ok := r.kinds(full); ok && kind == "field" {
			if par == "" {
				par = parent
			}
			if pk, _, ok := r.kinds(par); ok && (pk == "class" || pk == "class inductive") {
				return true
			}
		}
	}
	return false
}

func (r *resolver) isNamespace(name string) bool {
	for _, n := range r.names.Partial(name+".", 50) {
		if strings.HasPrefix(n, name+".") {
			return true
		}
	}
	return false
}

// constantsNamed returns library constants an unbound lower-case name
// probably meant.
func (r *resolver) constantsNamed(name string) []string {
	out := append([]string(nil), mathConstants[name]...)
	if name == "π" && r.h.sc.OpensNotation("Real") {
		return nil
	}
	if len(out) == 0 && utf8.RuneCountInString(name) > 1 {
		sugg := r.names.Suffix(name)
		sort.Slice(sugg, func(i, j int) bool {
			return len(sugg[i]) < len(sugg[j]) || len(sugg[i]) == len(sugg[j]) && sugg[i] < sugg[j]
		})
		if len(sugg) > 3 {
			sugg = sugg[:3]
		}
		out = sugg
	}
	return out
}

// suggest proposes up to 5 names for an unknown one: the names with the
// same last component in other namespaces (the usual mistake: a wrong or
// missing namespace); failing that, names.Similar's close misspellings;
// failing that, names containing the last component.
func (r *resolver) suggest(name string) []string {
	last := name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		last = name[i+1:]
	}
	out := r.names.Suffix(last)
	sort.Slice(out, func(i, j int) bool { return len(out[i]) < len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	if len(out) == 0 {
		out = r.names.Similar(name, 5)
	}
	if len(out) == 0 && len(last) >= 4 {
		out = r.names.Partial(last, 5)
	}
	if len(out) > 5 {
		out = out[:5]
	}
	if out == nil {
		out = []string{}
	}
	return out
}
