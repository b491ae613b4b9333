package leanrepl

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/stmtgrammar"
)

// CodeType is the finding code of the light elaborator (internal/elab): an
// application Lean certainly rejects (a type applied as a function, too many
// arguments, a theorem used as a proposition, no coercion down ℤ → ℕ, a
// name used before it is bound).
const CodeType = "type"

// TypeEnv is what the light elaborator knows of stub s under header: the
// names the name check resolves (those that exist) and the library's
// signatures; a name the header declares has no known signature.
func TypeEnv(s *leansrc.Stub, header string, lib *library.Library, names Names, kinds KindFunc, autoImplicit bool) elab.Env {
	h := readHeader(header)
	r := newResolver(s, h, names, kinds)
	lookup := func(full string) (*library.Decl, bool) {
		if h.defined[full] || lib == nil {
			return nil, false
		}
		d, ok := lib.Lookup(full)
		if !ok || d.Private {
			return nil, false // another file's private name is not in scope
		}
		return d, true
	}
	indexed := lib != nil && importsIndexed(h.imports, lib)
	alias := func(name string) (string, bool) {
		if lib == nil {
			return "", false
		}
		return lib.ExportAlias(name)
	}
	return elab.Env{
		Resolve: func(name string) []string {
			short := !strings.Contains(name, ".")
			var out []string
			for _, c := range r.candidates(strings.TrimPrefix(name, "_root_.")) {
				d, ok := lookup(c)
				target, exported := alias(c)
				switch {
				case !ok && exported && !h.defined[c]:
					// an export alias (`dist` for Dist.dist)
					out = append(out, target)
				case ok && d.Protected && short && c != name:
					// a protected name is not reachable by its last component
				case ok || coreNames[c] || h.defined[c] || names != nil && names.Exact(c):
					out = append(out, c)
				case short && coreNamespaces[strings.TrimSuffix(c, "."+name)]:
					// an opened namespace of Lean core, which the library may
					// not index, may hold the name: Lean would choose
					out = append(out, c)
				}
			}
			return out
		},
		Lookup: lookup,
		SectionVariables: func(d *library.Decl) ([]string, bool) {
			if lib == nil {
				return nil, false
			}
			return explicitVariables(lib, d)
		},
		AddedInstances: func(d *library.Decl) []elab.AddedInstance {
			if lib == nil {
				return nil
			}
			return addedInstances(lib, d)
		},
		AddedVariables: func(d *library.Decl) ([]string, bool) {
			if lib == nil {
				return nil, false
			}
			return addedVariables(lib, d)
		},
		SectionBinders: func(d *library.Decl) ([]elab.SectionBinder, bool) {
			if lib == nil {
				return nil, false
			}
			return sectionBinders(lib, d)
		},
		Fields: func(d *library.Decl) []string {
			if lib == nil {
				return nil
			}
			return structureFields(lib, d)
		},
		FieldVariables: func(d *library.Decl) int {
			if lib == nil {
				return 0
			}
			return fieldVariables(lib, d)
		},
		AllVariablesRead: func(d *library.Decl) bool {
			return lib != nil && allVariablesRead(lib, d)
		},
		CoercesToFunction: func(n string) bool {
			if lib == nil {
				return true
			}
			for _, ns := range libraryInstances(lib).toFunction[n] {
				if ns == "" || h.sc.OpensNotation(ns) {
					return true
				}
			}
			return false
		},
		PropInstance: func(class string, pos int) bool {
			if lib == nil {
				return true
			}
			f := libraryInstances(lib)
			c := lastComponent(class)
			return !f.known[c] || f.prop[classArg{c, pos}]
		},
		UniverseHas: func(class string) bool {
			if lib == nil {
				return true
			}
			f := libraryInstances(lib)
			c := lastComponent(class)
			return !f.known[c] || f.universe[classArg{c, 0}]
		},
		NumberHas: func(n, class string) bool {
			// Mathlib's order on ℂ is `scoped[ComplexOrder] attribute
			// [instance]`: in force under that open only
			if lib == nil {
				return true
			}
			f := libraryInstances(lib)
			return slices.ContainsFunc(f.scoped[n], h.sc.OpensNotation) || f.numberHas(n, class)
		},
		TypeHas: func(full, class string, pos int) bool {
			if lib == nil {
				return true
			}
			f := libraryInstances(lib)
			c := lastComponent(class)
			return !f.known[c] && !f.declared(c) || f.classesOf(lastComponent(full))[classArg{c, pos}]
		},
		NeedsFact: func(full, class string, pos int) bool {
			return lib != nil && libraryInstances(lib).needsFact(lastComponent(full), class, pos)
		},
		ReceiverInstance: func(class, typeHead, field string) (string, string, bool) {
			if lib == nil {
				return "", "", false
			}
			n := libraryInstances(lib).receiverNeeds(class, typeHead, field)
			return n.binder, n.recv, n.ok
		},
		VariableHas: func(classes []string, class string) bool {
			return lib == nil || libraryInstances(lib).variableHas(classes, class)
		},
		SetLike: func(full string) bool {
			return lib != nil && libraryInstances(lib).setLike[lastComponent(full)]
		},
		FunctionType: func(full string) (string, string) {
			if lib == nil {
				return "", ""
			}
			return libraryInstances(lib).functionType(full)
		},
		NumberTo: func(full, n string) bool {
			return lib == nil || libraryInstances(lib).numberTo(full, n, h.sc.OpensNotation)
		},
		NumberBeside: func(full, n string) bool {
			return lib == nil || libraryInstances(lib).numberBeside(full, n, h.sc.OpensNotation)
		},
		CoercesTo: func(n, full string) bool {
			return lib == nil || libraryInstances(lib).coercesTo(n, full, h.sc.OpensNotation)
		},
		CoercesToSort: func(full string) bool {
			return lib == nil || libraryInstances(lib).coercesToSort(full)
		},
		FunctionFrom: func(full string) bool {
			return lib == nil || libraryInstances(lib).coercesToFunction(full)
		},
		SortToProp: func(full string) bool {
			if lib == nil {
				return true
			}
			f := libraryInstances(lib).sortToProp
			return f["*"] || f[lastComponent(full)]
		},
		Token: func(tok string) (string, bool) {
			if lib == nil {
				return "", false
			}
			return lib.NotationToken(tok)
		},
		OneAtom: func(tok string) bool { return lib != nil && lib.OneAtom(tok) },
		Infix: func(atom string) (string, bool) {
			if lib == nil {
				return "", false
			}
			return lib.InfixNotation(atom)
		},
		InfixOperator: func(atom string) (string, leansrc.Operator, bool) {
			if lib == nil {
				return "", leansrc.Operator{}, false
			}
			return lib.InfixOperator(atom, h.sc)
		},
		BracketArrow: func(atom string) (string, bool) {
			if lib == nil {
				return "", false
			}
			return lib.BracketArrow(atom)
		},
		Postfix: func(atom string) (string, bool) {
			if lib == nil {
				return "", false
			}
			return lib.PostfixNotation(atom)
		},
		PostfixInForce: func(atom string) bool {
			if lib == nil {
				return false
			}
			// `μ[X]` under open ProbabilityTheory is its integral
			targets, _ := lib.InactiveNotation(atom, h.sc)
			return len(targets) == 0 && !lib.PieceInForce(atom, h.sc)
		},
		Inactive: func(atom string) ([]string, []string) {
			if !indexed {
				// a module the library lacks may declare the notation
				return nil, nil
			}
			return lib.InactiveNotation(atom, h.sc)
		},
		Classical:    h.sc.OpensNotation("Classical"),
		Opens:        h.sc != nil && (len(h.sc.Opens) > 0 || h.sc.Namespace != ""),
		Variables:    h.variables,
		AutoImplicit: autoImplicit,
		Notation:     headerNotation(header),
		NotationSymbol: func(name string) bool {
			return lib != nil && libraryNotation(lib, name)
		},
		NotationWord: func(word string) bool {
			return !indexed || lib == nil || notationWords(lib)[word]
		},
		OnlyNamespace: func(name string) bool {
			if lib == nil || names == nil {
				return false
			}
			// every candidate is absent or only a namespace, one is a
			// namespace
			ns := false
			for _, c := range r.candidates(name) {
				switch onlyNamespace(c, lib, names) {
				case nsMaybe:
					return false
				case nsOnly:
					ns = true
				}
			}
			return ns
		},
		CoreNamespace: func(ns string) bool { return coreNamespaces[ns] },
		Lean3Namespace: func(root string) (string, bool) {
			if lib == nil || names == nil || !startsLower(root) {
				return "", false
			}
			for _, c := range r.candidates(root) {
				if onlyNamespace(c, lib, names) != nsAbsent {
					return "", false
				}
			}
			lean4 := upperCamel(root)
			if coreNamespaces[lean4] || names.Exact(lean4) || r.isNamespace(lean4) {
				return lean4, true
			}
			return "", false
		},
	}
}

// upperCamel is Lean 4's spelling of a Lean 3 namespace: measure_theory is
// MeasureTheory.
func upperCamel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		r, w := utf8.DecodeRuneInString(part)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(part[w:])
	}
	return b.String()
}

// libraryNotation reports whether lib declares a notation spelled symbol
// that its source does not declare `local` (a scoped or global one, which
// an `open` or an import brings into scope). Conservative: a notation
// whose source line cannot be read counts.
func libraryNotation(lib *library.Library, symbol string) bool {
	syms := notationSymbols(lib)
	ds := syms[symbol]
	if len(ds) == 0 {
		return false
	}
	if v, ok := nonLocalNotation.Load(nsKey{lib, symbol}); ok {
		return v.(bool)
	}
	found := false
	for _, d := range ds {
		path, ok := lib.DeclPath(d)
		if !ok {
			found = true
			break
		}
		data, err := os.ReadFile(path)
		if err != nil {
			found = true
			break
		}
		lines := strings.Split(string(data), "\n")
		if line := d.Range.Start.Line; line >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[line]), "local ") {
			found = true
			break
		}
	}
	nonLocalNotation.Store(nsKey{lib, symbol}, found)
	return found
}

// notationSymbols indexes a library's notations by symbol (once per
// library).
func notationSymbols(lib *library.Library) map[string][]*library.Decl {
	if v, ok := notationIndex.Load(lib); ok {
		return v.(map[string][]*library.Decl)
	}
	m := map[string][]*library.Decl{}
	for _, d := range lib.Decls() {
		if d.Kind == library.KindNotation && d.Symbol != "" {
			m[strings.TrimSpace(d.Symbol)] = append(m[strings.TrimSpace(d.Symbol)], d)
		}
	}
	notationIndex.Store(lib, m)
	return m
}

// notationWords returns the words the library's notations are spelled
// with (`on` of `f on g`, `choose` if one wrote `n choose k`).
func notationWords(lib *library.Library) map[string]bool {
	if v, ok := notationWordIndex.Load(lib); ok {
		return v.(map[string]bool)
	}
	m := map[string]bool{}
	for sym := range notationSymbols(lib) {
		for _, w := range strings.FieldsFunc(sym, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' }) {
			m[w] = true
		}
	}
	notationWordIndex.Store(lib, m)
	return m
}

// notationIndex caches notationSymbols by library, notationWordIndex
// notationWords; nonLocalNotation caches libraryNotation by library and
// symbol.
var notationIndex, notationWordIndex, nonLocalNotation sync.Map

// headerNotation reports whether header may declare notation, a macro or
// syntax.
func headerNotation(header string) bool {
	for _, w := range []string{"notation", "macro", "syntax", "elab", "infix", "prefix", "postfix"} {
		if strings.Contains(header, w) {
			return true
		}
	}
	return false
}

// onlyNamespace reports whether full is certainly no constant of the
// library, of Lean core or of a dependency the library does not index,
// but a namespace of the library: names full.x exist, full is none of
// them, its root is no namespace of Lean core (which a Mathlib index
// lacks: Nat.x, List.x), and the files declaring full.x never write full
// or its last component as a term (a type that Mathlib extends writes its
// name: `[Subsingleton α]`, `(x : Squash α)`), only after `namespace`,
// `end`, `open` or as a prefix (`Positive.coe_add`).
func onlyNamespace(full string, lib *library.Library, names Names) nsAnswer {
	key := nsKey{lib, full}
	if v, ok := namespaceOnly.Load(key); ok {
		return v.(nsAnswer)
	}
	a := scanNamespaceOnly(full, lib, names)
	namespaceOnly.Store(key, a)
	return a
}

// namespaceOnly caches onlyNamespace by library and full name (the
// library's files are read once per name; a library reloaded after an
// edit is a new key).
var namespaceOnly sync.Map

type nsKey struct {
	lib  *library.Library
	full string
}

// nsAnswer is onlyNamespace's answer about one candidate full name.
type nsAnswer uint8

const (
	nsMaybe  nsAnswer = iota // it may be a constant
	nsAbsent                 // neither a constant nor a namespace anywhere
	nsOnly                   // only a namespace of the library
)

func scanNamespaceOnly(full string, lib *library.Library, names Names) nsAnswer {
	root, _, _ := strings.Cut(full, ".")
	if coreNames[full] || coreNames[root] || coreNamespaces[root] || names.Exact(full) {
		return nsMaybe
	}
	for _, n := range stmtgrammar.Core {
		if n == root || n == full {
			return nsMaybe
		}
	}
	if _, ok := lib.Lookup(full); ok {
		return nsMaybe
	}
	files := map[string]bool{}
	members := 0
	for _, n := range names.Partial(full+".", 200) {
		if !strings.HasPrefix(n, full+".") {
			continue
		}
		members++
		d, ok := lib.Lookup(n)
		if !ok {
			return nsMaybe
		}
		path, ok := lib.DeclPath(d)
		if !ok {
			return nsMaybe
		}
		files[path] = true
	}
	if members == 0 {
		return nsAbsent
	}
	if len(files) > 12 {
		return nsMaybe
	}
	last := full
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		last = full[i+1:]
	}
	for path := range files {
		data, err := os.ReadFile(path)
		if err != nil || writesAsTerm(string(data), last) {
			return nsMaybe
		}
	}
	return nsOnly
}

// writesAsTerm reports whether text has word as an identifier that is not
// a prefix of a longer name (word.x), nor the name of a `namespace`,
// `end`, `open` or `section` command.
func writesAsTerm(text, word string) bool {
	identRune := func(r rune) bool {
		return r == '_' || r == '\'' || r == '.' || r == '!' || r == '?' || unicode.IsLetter(r) || unicode.IsDigit(r) || leansrc.IsSubScriptAlnum(r)
	}
	for off := 0; ; {
		i := strings.Index(text[off:], word)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(word)
		off = end
		if start > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:start]); identRune(r) && r != '.' {
				continue // a longer word
			}
		}
		if end < len(text) {
			if r, _ := utf8.DecodeRuneInString(text[end:]); identRune(r) {
				continue // Positive.coe_add, or a longer word
			}
		}
		before := strings.TrimRight(text[:start], " \t")
		if before != text[:start] || start == 0 {
			line := before[strings.LastIndexByte(before, '\n')+1:]
			fields := strings.Fields(line)
			if len(fields) > 0 {
				switch fields[len(fields)-1] {
				case "namespace", "end", "open", "section":
					continue
				}
			}
		}
		return true
	}
}

// importsIndexed reports whether the library indexes every module of
// imports that is not Lean's own (Init, Std, Lean, Lake).
func importsIndexed(imports []string, lib *library.Library) bool {
	for _, m := range imports {
		root, _, _ := strings.Cut(m, ".")
		switch root {
		case "Init", "Std", "Lean", "Lake":
			continue
		}
		if !lib.HasModule(m) {
			return false
		}
	}
	return true
}

// coreNamespaces are namespaces of Lean core and Batteries whose
// declarations a library built from Mathlib's sources lacks.
var coreNamespaces = map[string]bool{"Nat": true, "Int": true, "List": true, "Array": true, "String": true, "Char": true,
	"Option": true, "Function": true, "Fin": true, "Bool": true, "Prod": true, "Sum": true, "Subtype": true,
	"Classical": true, "Decidable": true, "Eq": true, "HEq": true, "Std": true, "Lean": true, "IO": true, "Rat": true,
	"Float": true, "UInt8": true, "UInt16": true, "UInt32": true, "UInt64": true, "USize": true, "Thunk": true,
	"Except": true, "Id": true, "Sigma": true, "PSigma": true, "Quot": true, "Quotient": true, "Setoid": true,
	"Iff": true, "And": true, "Or": true, "Not": true, "Exists": true, "ByteArray": true, "BitVec": true}

// typeCheck runs the light elaborator on a stub that passed the gate; it
// finds nothing without a library.
func (c *Checker) typeCheck(s *leansrc.Stub, header string) (found []elab.Finding, skipped string) {
	if c.cfg.Library == nil {
		return nil, ""
	}
	lib := c.cfg.Library()
	if lib == nil {
		return nil, ""
	}
	defer func() {
		// a defect of the light elaborator on one stub leaves that stub's
		// types unknown; a formalize job, the CLI or the server go on
		if r := recover(); r != nil {
			found, skipped = nil, fmt.Sprintf("the light elaborator failed on this stub (internal error: %v)", r)
		}
	}()
	return checkTypes(s, TypeEnv(s, header, lib, c.cfg.Names, c.cfg.Kinds, c.cfg.AutoImplicit)), ""
}

// checkTypes is the light elaborator typeCheck runs (a variable so that a
// test can make it fail).
var checkTypes = elab.Check

// fileVariables is where a library file's explicit section variables are
// in force, as of the file's size and time; implicit gives, per name, the
// first line where a `variable` command binds it in { }, ⦃ ⦄ or [ ] (or
// makes it so: `variable {x}`).
type fileVariables struct {
	size     int64
	mod      time.Time
	spans    []variableSpan
	implicit map[string]int
	groups   []groupSpan
	// includeFrom is the 0-based line of the file's first `include`
	// command (which adds variables a declaration after it does not
	// mention), -1 when it has none; notationLines are its notation, macro
	// and syntax commands' lines, by 0-based line number.
	includeFrom   int
	notationLines []numberedLine
}

// includes reports whether an `include` command may be in force at line
// (0-based): one comes before it in the file.
func (fv fileVariables) includes(line int) bool { return fv.includeFrom >= 0 && fv.includeFrom <= line }

// numberedLine is a line of a file and its 0-based number.
type numberedLine struct {
	n    int
	text string
}

// notationCommand reports whether a line, its indentation trimmed, starts
// a command that may declare notation expanding to a section variable
// (notation, infix, macro, …; after attributes and `local` or `scoped`),
// rather than mention one of those words in a comment or a docstring.
func notationCommand(line []byte) bool {
	f := strings.Fields(string(line))
	for len(f) > 0 && (strings.HasPrefix(f[0], "@[") || strings.HasPrefix(f[0], "scoped") || f[0] == "local") {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	cmd, _, _ := strings.Cut(f[0], ":")
	switch cmd {
	case "notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix", "macro", "macro_rules", "syntax", "elab", "elab_rules":
		return true
	}
	return false
}

// notation reports whether a notation command of the file on a line in
// [from, to) mentions name (a variable in force there, used by a
// declaration on line to).
func (fv fileVariables) notation(name string, from, to int) bool {
	for _, l := range fv.notationLines {
		if from <= l.n && l.n < to && wordIn(l.text, name) {
			return true
		}
	}
	return false
}

// variableSpan says that the explicit variable Name is in force on the
// 0-based lines [From, To); Implicit, that a command there binds or
// rebinds it in { }, ⦃ ⦄ or [ ] instead.
type variableSpan struct {
	Name     string
	From, To int
	Implicit bool
}

// variableScans caches fileVariables by path for every checker.
var variableScans = struct {
	sync.Mutex
	files map[string]fileVariables
}{files: map[string]fileVariables{}}

// explicitVariables returns the names of the explicit section variables
// in force at d in its file; ok is false when the file cannot be read.
func explicitVariables(lib *library.Library, d *library.Decl) ([]string, bool) {
	type answer struct {
		names []string
		ok    bool
	}
	if v, ok := sectionDecls.Load(d); ok {
		a := v.(answer)
		return a.names, a.ok
	}
	names, ok := scanSectionVariables(lib, d)
	if sectionDeclsN.Add(1) > maxSectionDecls {
		// a long session re-parses files (new *Decl values): start afresh
		sectionDecls.Clear()
		sectionDeclsN.Store(0)
	}
	sectionDecls.Store(d, answer{names, ok})
	return names, ok
}

// sectionDecls caches explicitVariables by declaration (a re-parsed file
// gives new *Decl values); sectionDeclsN counts its entries, up to
// maxSectionDecls.
var (
	sectionDecls  sync.Map
	sectionDeclsN atomic.Int64
)

const maxSectionDecls = 1 << 16

func scanSectionVariables(lib *library.Library, d *library.Decl) ([]string, bool) {
	fv, ok := scanFile(lib, d)
	if !ok || whereAux(lib, d) {
		return nil, false
	}
	line := d.Range.Start.Line
	var names []string
	for _, sp := range fv.spans {
		if sp.From <= line && line < sp.To && !sp.Implicit {
			names = append(names, sp.Name)
		}
	}
	if len(names) == 0 {
		return names, true
	}
	return includable(lib, d, fv, names), true
}

// whereAux reports whether d is an auxiliary definition of a `where`
// clause (`List.iterateTR.loop`), indented after the declaration it
// extends with nothing between: Lean gives it, before its own binders,
// those of the enclosing declaration it uses, which its signature does not
// show, as it does not show section variables.
func whereAux(lib *library.Library, d *library.Decl) bool {
	parent, _ := leansrc.SplitLast(d.Name)
	pd, ok := lib.Lookup(parent)
	if !ok || pd == d || pd.Kind.IsTypeLike() {
		return false
	}
	p1, ok1 := lib.DeclPath(pd)
	p2, ok2 := lib.DeclPath(d)
	if !ok1 || !ok2 || p1 != p2 || pd.Range.Start.Line >= d.Range.Start.Line || d.Range.Start.Character == 0 {
		return false
	}
	// no other declaration between the enclosing one and d
	for _, x := range lib.FileDecls(p1) {
		if l := x.Range.Start.Line; l > pd.Range.Start.Line && l < d.Range.Start.Line && !strings.HasPrefix(x.Name, parent+".") {
			return false
		}
	}
	return true
}

// includable narrows the explicit section variables in force at d to
// those Lean may add to it as explicit parameters: a variable a later
// `variable {x}` (still in force) made implicit is not one, unless d's
// signature shows a binder of that name explicit (d's own, which Lean
// takes for the name); and,
// when no `include` of the file comes before d and d's text names every
// variable it uses (no tactic block, no `sorry`), a variable that text
// does not mention, nor the type of a variable it mentions, is not added
// (Lean adds the variables a declaration mentions). A mention of the name after d's own
// binder of that name is the binder's: `def Perfect (n : ℕ)` under
// `variable (n : ℕ)` takes one argument. A name a notation command of the
// file mentions counts as used.
func includable(lib *library.Library, d *library.Decl, fv fileVariables, names []string) []string {
	line := d.Range.Start.Line
	shown := signatureBinders(d.Signature)
	var out []string
	for _, x := range names {
		if slices.Contains(out, x) {
			continue // bound again by a later command: added once
		}
		last := variableSpan{From: -1}
		for _, sp := range fv.spans {
			if sp.Name == x && sp.From <= line && line < sp.To && sp.From >= last.From {
				last = sp
			}
		}
		if last.Implicit && shown[x] != '(' {
			continue
		}
		out = append(out, x)
	}
	if fv.includes(line) || len(out) == 0 {
		return out
	}
	text, ok := declText(lib, d)
	if !ok || !namesItsVariables(text) {
		return out
	}
	used := map[string]bool{}
	var queue []string
	for _, g := range fv.groups {
		if g.From > line || line >= g.To {
			continue
		}
		for _, n := range append(g.Names, g.InstNames...) {
			if !used[n] && (mentionsFree(text, n, d.Name) || fv.notation(n, g.From, line)) {
				used[n] = true
				queue = append(queue, n)
			}
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, g := range fv.groups {
			if g.From > line || line >= g.To {
				continue
			}
			// the variables n's type mentions; those an instance about n
			// mentions, which the elaborated body may use through it
			// (`setoid f` of `[DirectedSystem F (f · · ·)]` uses F)
			var about string
			switch {
			case g.Type != "" && (slices.Contains(g.Names, n) || slices.Contains(g.InstNames, n)):
				about = g.Type
			case g.Inst != "" && wordIn(g.Inst, n):
				about = g.Inst
			default:
				continue
			}
			for _, g2 := range fv.groups {
				if g2.From > line || line >= g2.To {
					continue
				}
				for _, m := range g2.Names {
					if !used[m] && wordIn(about, m) {
						used[m] = true
						queue = append(queue, m)
					}
				}
			}
		}
	}
	kept := out[:0]
	for _, x := range out {
		if used[x] {
			kept = append(kept, x)
		}
	}
	return kept
}

// namesItsVariables reports whether a declaration's text names every
// variable it uses: not so with a tactic block (`assumption` uses one
// unnamed), `‹T›`, or a `sorry` standing for a body the text lacks.
func namesItsVariables(text string) bool {
	lex, err := leansrc.Lex(text)
	if err != nil {
		return false
	}
	for _, t := range lex {
		switch t.Text {
		case "by", "sorry", "‹", "this":
			return false
		}
	}
	return true
}

// addedVariables returns the types of the explicit section variables
// Lean certainly adds to d, in its order (the variables' declaration
// order), when that is certain: every `variable` command was read, the
// file has no `include` before d, d's text names every variable it uses and
// mentions each of them where no binder of its own may bind the name, and
// d's signature (which the indexer may have prefixed with variables)
// names none of them but in a binder it shows explicit where the last
// `variable` binding it (`variable (x) in` just before d too) makes it
// explicit (then a parameter it lists, not added; the others then come
// before it). Lean adds a definition's mentioned variables before its own
// parameters.
func addedVariables(lib *library.Library, d *library.Decl) ([]string, bool) {
	vars, ok := addedVars(lib, d)
	if !ok {
		return nil, false
	}
	out := make([]string, len(vars))
	for i, v := range vars {
		out[i] = v.typ
	}
	return out, true
}

// addedInstances returns the `[Fact P]`, `[DecidablePred p]`,
// `[DecidableRel r]` and `[Fintype T]` section variables in force at d
// that constrain one of addedVariables' variables (legendreSym's `[Fact
// p.Prime]`): a Fact whose proposition mentions the variable, a Decidable
// class applied to it, a Fintype of a type built from it (degree's
// `[Fintype (G.neighborSet v)]`).
func addedInstances(lib *library.Library, d *library.Decl) []elab.AddedInstance {
	vars, ok := addedVars(lib, d)
	fv, read := scanFile(lib, d)
	if !ok || !read {
		return nil
	}
	line := d.Range.Start.Line
	var out []elab.AddedInstance
	names := make([]string, len(vars))
	for j, v := range vars {
		names[j] = v.name
	}
	for _, g := range fv.groups {
		class, arg, found := strings.Cut(strings.TrimSpace(g.Inst), " ")
		if g.From > line || line >= g.To || !found {
			continue
		}
		for j, v := range vars {
			switch {
			case (class == "DecidablePred" || class == "DecidableRel") && strings.TrimSpace(arg) == v.name,
				class == "Fact" && wordIn(arg, v.name),
				class == "Fintype" && receiverOf(arg) == v.name:
				out = append(out, elab.AddedInstance{Class: class, Arg: strings.Trim(strings.TrimSpace(arg), "()"), Param: j, Name: v.name, Names: names})
			}
		}
	}
	return out
}

// receiverOf returns the variable a type written as text is built from
// (elab.Receiver), "" for none.
func receiverOf(text string) string {
	r, _, ok := elab.Receiver(text)
	if !ok {
		return ""
	}
	return r
}

// addedVar is an explicit section variable Lean adds to a declaration:
// its name and type.
type addedVar struct {
	name, typ string
	group     int
}

// addedVars is addedVariables with the variables' names.
func addedVars(lib *library.Library, d *library.Decl) ([]addedVar, bool) {
	names, ok := explicitVariables(lib, d)
	if !ok || len(names) == 0 || !allVariablesRead(lib, d) {
		return nil, false
	}
	fv, ok := scanFile(lib, d)
	if !ok || fv.includes(d.Range.Start.Line) {
		return nil, false
	}
	text, ok := declText(lib, d)
	if !ok || !namesItsVariables(text) {
		return nil, false
	}
	lex, err := leansrc.Lex(text)
	if err != nil {
		return nil, false
	}
	line := d.Range.Start.Line
	var as []addedVar
	shown := signatureBinders(d.Signature)
	shownFrom := -1 // the first group of a variable the signature shows where Lean has it
	for _, x := range names {
		first, last, untyped := -1, -1, -1
		for i, g := range fv.groups {
			if g.From <= line && line < g.To && slices.Contains(g.Names, x) {
				if first < 0 && g.Type != "" {
					first = i
				}
				if untyped < 0 && g.Type == "" {
					untyped = i
				}
				last = i
			}
		}
		if first < 0 && untyped >= 0 {
			// `variable (v)` naming no variable in force declares one whose
			// type Lean infers (`(v : _)`): "" here
			first = untyped
		}
		if first < 0 || !mentionsFree(text, x, d.Name) || mayBind(lex, x) {
			return nil, false
		}
		if shown[x] == '(' && fv.groups[last].Closing == ')' {
			// explicit in force (fderiv's 𝕜 under `variable (𝕜)`;
			// Ideal.Quotient.mk's I under `variable {I}`, then `variable
			// (I) in`): the indexer shows the binder in force, a parameter
			// the signature lists where Lean adds it
			if shownFrom < 0 || first < shownFrom {
				shownFrom = first
			}
			continue
		}
		if wordIn(d.Signature, x) {
			return nil, false
		}
		as = append(as, addedVar{x, fv.groups[first].Type, first})
	}
	sort.SliceStable(as, func(i, j int) bool { return as[i].group < as[j].group })
	if shownFrom >= 0 && len(as) > 0 && as[len(as)-1].group > shownFrom {
		return nil, false // Lean adds them in their order, the shown among the others
	}
	return as, true
}

// mayBind reports whether some occurrence of name in lex stands where a
// binder may bind it: after fun, ∀, ∃, let, a bracket, a comma, a bar or
// `where` (a structure instance's first field `toFun I := …`; other names
// between), before a colon, a comma, an arrow or a closing
// bracket.
func mayBind(lex []leansrc.Lexeme, name string) bool {
	body := len(lex) // the first := outside brackets: the body starts after it
	depth := 0
	for i, t := range lex {
		switch t.Text {
		case "(", "{", "[", "⦃":
			depth++
		case ")", "}", "]", "⦄":
			depth--
		case ":=":
			if depth == 0 && body == len(lex) {
				body = i
			}
		}
	}
	for i, t := range lex {
		if t.Text != name {
			continue
		}
		j, k, ok := nameRun(lex, i)
		if !ok {
			continue
		}
		switch lex[j].Text {
		case "fun", "λ", "∀", "∃", "∃!", "let", "have", "Σ", "Π", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "|", "⟨", ",", "(", "{", "⦃", "[", "obtain", "intro", "match", "where":
		default:
			continue
		}
		if lex[j].Text == "[" && j > 0 && lex[j-1].End == lex[j].Start {
			continue // a bracket glued to what it follows indexes or is notation: E →L[𝕜] F
		}
		if lex[j].Text == "(" && j > body && j > 0 && !binderKeyword[lex[j-1].Text] && !closing[lex[j-1].Text] {
			// in the body, a bracket no binder keyword or binder group
			// comes before: an argument of an application (quadraticChar
			// (ZMod p) a), or a term (`:= (evariance X μ).toReal`)
			continue
		}
		switch lex[k].Text {
		case ":", ",", "=>", "↦", ")", "}", "⟩", ":=", "|", "⦄", "]":
			return true
		}
	}
	return false
}

// closing are the closing brackets, after which a bracket may open the
// next binder group (`fun (x) (y) =>`).
var closing = map[string]bool{")": true, "}": true, "]": true, "⦄": true}

// binderKeyword are the words after which a bracket opens binders.
var binderKeyword = map[string]bool{"fun": true, "λ": true, "∀": true, "∃": true, "∃!": true, "let": true, "have": true,
	"obtain": true, "intro": true, "match": true, "where": true, "Σ": true, "Π": true}

// signatureBinders returns the names a signature's binders bind (before
// its colon), each with its binder's opening bracket: `(` when any binder
// of the name is explicit, else its first binder's.
func signatureBinders(sig string) map[string]rune {
	out := map[string]rune{}
	lex, err := leansrc.Lex(sig)
	if err != nil {
		return out
	}
	depth := 0
	open := rune(0)
	for i, t := range lex {
		switch t.Text {
		case "(", "{", "[", "⦃":
			if depth == 0 {
				open, _ = utf8.DecodeRuneInString(t.Text)
			}
			depth++
		case ")", "}", "]", "⦄":
			depth--
		case ":":
			if depth == 0 {
				return out
			}
		}
		if seen := out[t.Text]; depth == 1 && t.Kind == leansrc.LexIdent && binderName(lex, i) && (seen == 0 || open == '(') {
			out[t.Text] = open
		}
	}
	return out
}

// nameRun returns the lexemes just before and just after the run of
// names around lexeme i; ok is false at either end of lex.
func nameRun(lex []leansrc.Lexeme, i int) (before, after int, ok bool) {
	j := i - 1
	for j >= 0 && lex[j].Kind == leansrc.LexIdent {
		j--
	}
	k := i + 1
	for k < len(lex) && lex[k].Kind == leansrc.LexIdent {
		k++
	}
	return j, k, j >= 0 && k < len(lex)
}

// binderName reports whether lexeme i stands where a binder group names
// its variables: after the opening bracket and other names, before a colon
// or the closing bracket.
func binderName(lex []leansrc.Lexeme, i int) bool {
	j, k, ok := nameRun(lex, i)
	if !ok {
		return false
	}
	switch {
	case lex[j].Text == "[":
		return lex[k].Text == ":" // [inst : C x] names inst; [C x] nothing
	case lex[j].Text != "(" && lex[j].Text != "{" && lex[j].Text != "⦃":
		return false
	}
	switch lex[k].Text {
	case ":", ")", "}", "⦄":
		return true
	}
	return false
}

// declText returns d's source text: from its first line to the line of
// the next declaration of its file that is not a field, a constructor or
// generated, or to the next line after its name that starts a command.
func declText(lib *library.Library, d *library.Decl) (string, bool) {
	path, ok := lib.DeclPath(d)
	if !ok {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	from := d.Range.Start.Line
	to := -1
	for _, x := range lib.FileDecls(path) {
		inner := x.Parent == d.Name || x.Generated || x.Kind == library.KindField || x.Kind == library.KindConstructor
		if x.Range.Start.Line > from && !inner && (to < 0 || x.Range.Start.Line < to) {
			to = x.Range.Start.Line
		}
	}
	lines := bytes.Split(data, []byte("\n"))
	if from >= len(lines) {
		return "", false
	}
	if to < 0 || to > len(lines) {
		to = len(lines)
	}
	// the range may start at attributes or a doc comment: commands end
	// the text after the line that names d
	named := from
	for named < to && !(bytes.Contains(lines[named], []byte(string(d.Kind)+" ")) && bytes.Contains(lines[named], []byte(lastComponent(d.Name)))) {
		named++
	}
	if named == to {
		return "", false // generated (to_additive), or written otherwise
	}
	for n := named + 1; n < to; n++ {
		if commandStart(lines[n]) {
			to = n
			break
		}
	}
	return string(bytes.Join(lines[from:to], []byte("\n"))), true
}

// commandStart reports whether a line certainly starts a new command: at
// column 0, a keyword no term or tactic begins with, a doc comment or an
// attribute (an indented one may be a field's; text read too far only
// counts more variables as used).
func commandStart(t []byte) bool {
	for _, w := range []string{"variable", "theorem", "lemma", "def", "instance", "example", "abbrev", "structure", "class",
		"inductive", "section", "namespace", "attribute", "noncomputable", "end", "open", "universe", "include", "omit"} {
		if bytes.HasPrefix(t, []byte(w)) && (len(t) == len(w) || t[len(w)] == ' ' || t[len(w)] == '\r') {
			return true
		}
	}
	return bytes.HasPrefix(t, []byte("/--")) || bytes.HasPrefix(t, []byte("@["))
}

// mentionsFree reports whether the declaration text (which starts with the
// declaration's keyword and name self) mentions name other than after its
// own binder of that name in the header (which then shadows the section
// variable everywhere after it) or inside a set-builder that binds the
// name. Unreadable text counts as a mention.
func mentionsFree(text, name, self string) bool {
	lex, err := leansrc.Lex(text)
	if err != nil {
		return true
	}
	short := lastComponent(self)
	start := 0
	for i, t := range lex {
		if t.Kind == leansrc.LexIdent && lastComponent(t.Text) == short {
			start = i + 1
			break
		}
	}
	depth := 0
	header := true
	for i := start; i < len(lex); i++ {
		t := lex[i]
		switch t.Text {
		case "(", "{", "[", "⦃":
			depth++
		case ")", "}", "]", "⦄":
			depth--
		case ":", ":=", "where", "|", "extends":
			if depth == 0 {
				header = false // binders come before these
			}
		}
		if t.Kind != leansrc.LexIdent || t.Text != name && !strings.HasPrefix(t.Text, name+".") ||
			i+1 < len(lex) && lex[i+1].Text == "(" && lex[i+1].Start == t.End {
			// `C(α, β)`: Lean 4 reads no application glued to `(`, a
			// notation's token
			continue
		}
		if end := setBuilderScope(lex, i); t.Text == name && end > i {
			// { K | k ⊆ K }: the set-builder binds its own K
			depth--
			i = end
			continue
		}
		// the first mention: the header's own binder shadows the variable
		return !(header && depth == 1 && t.Text == name && binderName(lex, i))
	}
	return false
}

// setBuilderScope returns the index of the `}` that closes the set-builder
// whose bound name is lex[i] (`{ K | …}`, `{ K : T | …}`), or -1 when
// lex[i] is not such a name or the braces do not close.
func setBuilderScope(lex []leansrc.Lexeme, i int) int {
	if i == 0 || i+1 >= len(lex) || lex[i-1].Text != "{" || lex[i+1].Text != "|" && lex[i+1].Text != ":" {
		return -1
	}
	depth := 1
	for j := i + 1; j < len(lex); j++ {
		switch lex[j].Text {
		case "(", "{", "[", "⦃", "⟨":
			depth++
		case ")", "}", "]", "⦄", "⟩":
			depth--
			if depth == 0 {
				if lex[j].Text != "}" {
					return -1
				}
				return j
			}
		}
	}
	return -1
}

// wordIn reports whether text has name as an identifier (or the root of
// a dotted one).
func wordIn(text, name string) bool {
	lex, err := leansrc.Lex(text)
	if err != nil {
		return true
	}
	for _, t := range lex {
		if t.Kind == leansrc.LexIdent && (t.Text == name || strings.HasPrefix(t.Text, name+".")) {
			return true
		}
	}
	return false
}

// scanFile returns the `variable` commands of d's file, read once per
// file version.
func scanFile(lib *library.Library, d *library.Decl) (fileVariables, bool) {
	path, ok := lib.DeclPath(d)
	if !ok {
		return fileVariables{}, false
	}
	st, err := os.Stat(path)
	if err != nil {
		return fileVariables{}, false
	}
	variableScans.Lock()
	fv, ok := variableScans.files[path]
	variableScans.Unlock()
	if !ok || fv.size != st.Size() || !fv.mod.Equal(st.ModTime()) {
		data, err := os.ReadFile(path)
		if err != nil {
			return fileVariables{}, false
		}
		spans, implicit, groups := variableCommands(data)
		fv = fileVariables{size: st.Size(), mod: st.ModTime(), spans: spans, implicit: implicit, groups: groups, includeFrom: -1}
		for i, l := range bytes.Split(data, []byte("\n")) {
			t := bytes.TrimLeft(l, " \t")
			switch {
			case (bytes.HasPrefix(t, []byte("include ")) || bytes.HasPrefix(t, []byte("include\t"))) && fv.includeFrom < 0:
				fv.includeFrom = i
			case notationCommand(t):
				fv.notationLines = append(fv.notationLines, numberedLine{i, string(t)})
			}
		}
		variableScans.Lock()
		variableScans.files[path] = fv
		variableScans.Unlock()
	}
	return fv, true
}

// allVariablesRead reports whether every `variable` command of d's file
// up to d was read group by group (none has a group that eachGroup cannot
// read), so that the explicit variables in force at d are all known.
func allVariablesRead(lib *library.Library, d *library.Decl) bool {
	fv, ok := scanFile(lib, d)
	if !ok {
		return false
	}
	at, bad := fv.implicit[unreadableGroup]
	return !bad || at > d.Range.Start.Line
}

// sectionBinders returns the binder groups of the `variable` commands in
// force at d (`variable (x)`, rebinding x, with no type); ok is false when
// the file is not read whole.
func sectionBinders(lib *library.Library, d *library.Decl) ([]elab.SectionBinder, bool) {
	fv, ok := scanFile(lib, d)
	if !ok || !allVariablesRead(lib, d) {
		return nil, false
	}
	line := d.Range.Start.Line
	var out []elab.SectionBinder
	for _, g := range fv.groups {
		if g.From > line || line >= g.To {
			continue
		}
		b := elab.SectionBinder{Names: g.Names, Type: g.Type}
		if g.Closing == ']' {
			b.Names = g.InstNames
			if b.Type == "" {
				b.Type = strings.TrimSpace(g.Inst)
			}
		}
		if g.Closing == ')' {
			// explicit unless a `variable {x}` may have made it implicit
			// since: the file's first such line is known, not the last
			b.Explicit = true
			for _, n := range g.Names {
				if at, rebound := fv.implicit[n]; rebound && at <= line && !g.In {
					b.Explicit = false
				}
			}
		}
		out = append(out, b)
	}
	return out, true
}

// structureFields returns the types of structure d's fields as the
// index shows them.
func structureFields(lib *library.Library, d *library.Decl) []string {
	path, ok := lib.DeclPath(d)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range lib.FileDecls(path) {
		if f.Kind == library.KindField && f.Parent == d.Name {
			if _, typ, ok := strings.Cut(f.Signature, " : "); ok {
				out = append(out, typ)
			}
		}
	}
	return out
}

// fieldVariables counts the explicit section variables in force at
// structure or class d that are certainly its explicit parameters: a field
// of d uses the name free (not bound in the field), and no `variable`
// command of the file before d binds the name other than in ( ). Lean adds
// to a structure the section variables its fields use.
func fieldVariables(lib *library.Library, d *library.Decl) int {
	if !d.Kind.IsTypeLike() {
		return 0
	}
	path, ok := lib.DeclPath(d)
	if !ok {
		return 0
	}
	vars, ok := scanSectionVariables(lib, d)
	if !ok || len(vars) == 0 {
		return 0
	}
	variableScans.Lock()
	fv := variableScans.files[path]
	variableScans.Unlock()
	var fields []string
	for _, f := range lib.FileDecls(path) {
		if f.Kind == library.KindField && f.Parent == d.Name {
			_, typ, ok := strings.Cut(f.Signature, " : ")
			if !ok {
				return 0 // a field whose type the index does not show
			}
			fields = append(fields, typ)
		}
	}
	if at, ok := fv.implicit[unreadableGroup]; ok && at <= d.Range.Start.Line {
		return 0
	}
	n := 0
	seen := ownBinders(d) // a binder of its own shadows a variable
	for _, v := range vars {
		if seen[v] {
			continue
		}
		seen[v] = true
		if at, ok := fv.implicit[v]; ok && at <= d.Range.Start.Line {
			continue
		}
		for _, typ := range fields {
			if usesFree(typ, v) {
				n++
				break
			}
		}
	}
	return n
}

// ownBinders returns the names structure or class d's signature binds
// before its extends clause (`(A B : Type*)`).
func ownBinders(d *library.Decl) map[string]bool {
	out := map[string]bool{}
	hdr, ok := strings.CutPrefix(d.Signature, string(d.Kind)+" "+d.Name)
	if !ok {
		return out
	}
	hdr, _, _ = strings.Cut(hdr, " extends ")
	binders, _, ok := leansrc.ParseHeader(hdr, nil)
	if !ok {
		return out
	}
	for _, b := range binders {
		names, _ := leansrc.GroupNames(b, hdr)
		for _, n := range names {
			out[n] = true
		}
	}
	return out
}

// usesFree reports whether the type text uses name as an identifier and
// never where a binder may bind it (after ∀, fun, ∃, ⦃, {, (, a comma, or
// before a colon).
func usesFree(text, name string) bool {
	lex, err := leansrc.Lex(text)
	if err != nil {
		return false
	}
	used := false
	for i, t := range lex {
		if t.Kind != leansrc.LexIdent || t.Text != name {
			continue
		}
		j := i - 1
		for j >= 0 && lex[j].Kind == leansrc.LexIdent {
			j--
		}
		if j >= 0 {
			switch lex[j].Text {
			case "∀", "∃", "∃!", "fun", "λ", "⦃", "{", "(", ",", "Π", "Σ", "⟨", "[":
				return false
			}
		}
		if i+1 < len(lex) && (lex[i+1].Text == ":" || lex[i+1].Text == ",") {
			return false
		}
		used = true
	}
	return used
}

// variableSpans reads where a file's explicit section variables may stand
// in a declaration's signature or be added to it: from the `variable`
// command that binds one ((x : T), or (x) making it explicit) to the `end`
// of its section, namespace or mutual block (at column 0, as Mathlib writes
// them), else to the end of the file; a `variable … in` holds up to the
// next declaration. A later `variable {x}` does not end it: it adds a span
// marked Implicit, and the last span in force says which binder Lean has.
func variableSpans(data []byte) ([]variableSpan, map[string]int) {
	spans, implicit, _ := variableCommands(data)
	var explicit []variableSpan
	for _, sp := range spans {
		if !sp.Implicit {
			explicit = append(explicit, sp)
		}
	}
	return explicit, implicit
}

// groupSpan is one binder group of a `variable` command ((x y : T),
// {α : Type*}, [Monoid α]) in force on the 0-based lines [From, To), read
// once: the names it binds and their type, or for an instance group the
// class arguments that name each argument ([Monoid α]: α is Monoid 0).
type groupSpan struct {
	Closing rune
	// Names are the names a ( ), { } or ⦃ ⦄ group binds, InstNames the
	// name an instance group gives its instance ([h : Terminates s]).
	Names, InstNames []string
	Type             string
	Cons             map[string][]classArg
	From, To         int
	// Inst is an instance group's text inside its brackets.
	Inst string
	// In marks a group of a `variable … in` command, in force for the
	// next declaration only.
	In bool
}

// newGroupSpan reads the group whose closing bracket is closing and whose
// text inside the brackets is inner.
func newGroupSpan(closing rune, inner string, from, to int) groupSpan {
	g := groupSpan{Closing: closing, From: from, To: to}
	names, typ, colon := strings.Cut(inner, ":")
	if closing != ']' {
		g.Names, g.Type = strings.Fields(names), strings.TrimSpace(typ)
		return g
	}
	g.Inst = inner
	if !colon {
		typ = names
	} else {
		g.InstNames, g.Type = strings.Fields(names), strings.TrimSpace(typ)
	}
	t := leansrc.ParseTerm(strings.TrimSpace(typ), nil)
	if t.Kind == leansrc.TermApp && t.Args[0].Kind == leansrc.TermIdent {
		g.Cons = map[string][]classArg{}
		for i, a := range t.Args[1:] {
			if a.Kind == leansrc.TermIdent {
				g.Cons[a.Text] = append(g.Cons[a.Text], classArg{lastComponent(t.Args[0].Text), i})
			}
		}
	}
	return g
}

// variableCommands is variableSpans, and every binder group of the file's
// `variable` commands where it is in force (same sections).
func variableCommands(data []byte) ([]variableSpan, map[string]int, []groupSpan) {
	var spans []variableSpan
	var groups []groupSpan
	var curGroups []int
	var outerGroups [][]int
	implicit := map[string]int{}
	var outer [][]int // per enclosing block, the open spans outside it
	cur := []int{}    // indexes of the open spans of the current block
	lines := bytes.Split(data, []byte("\n"))
	word := func(text []byte, w string) bool {
		return bytes.HasPrefix(text, []byte(w)) && (len(text) == len(w) || text[len(w)] == ' ' || text[len(w)] == '(')
	}
	declStart := func(text []byte) bool {
		for _, w := range []string{"def", "theorem", "lemma", "abbrev", "instance", "structure", "class", "inductive",
			"noncomputable", "private", "protected", "irreducible_def", "opaque", "@["} {
			if bytes.HasPrefix(text, []byte(w)) {
				return true
			}
		}
		return false
	}
	for n := 0; n < len(lines); n++ {
		text := lines[n]
		switch {
		case word(text, "section") || word(text, "namespace") || word(text, "noncomputable section") || word(text, "mutual"):
			outer = append(outer, cur)
			cur = []int{}
			outerGroups = append(outerGroups, curGroups)
			curGroups = []int{}
		case word(text, "end") && len(outer) > 0:
			for _, i := range cur {
				if spans[i].To < 0 {
					spans[i].To = n
				}
			}
			for _, i := range curGroups {
				if groups[i].To < 0 {
					groups[i].To = n
				}
			}
			cur, outer = outer[len(outer)-1], outer[:len(outer)-1]
			curGroups, outerGroups = outerGroups[len(outerGroups)-1], outerGroups[:len(outerGroups)-1]
		case word(bytes.TrimLeft(text, " \t"), "variable"):
			// the command and its indented continuation
			cmd := append([]byte(nil), bytes.TrimLeft(text, " \t")[len("variable"):]...)
			m := n + 1
			for ; m < len(lines) && len(lines[m]) > 0 && (lines[m][0] == ' ' || lines[m][0] == '\t'); m++ {
				cmd = append(append(cmd, ' '), lines[m]...)
			}
			explicit := variableGroups(cmd)
			var rebound []string
			for _, x := range nonExplicitGroups(cmd) {
				if _, ok := implicit[x]; !ok {
					implicit[x] = n
				}
				if x != unreadableGroup {
					rebound = append(rebound, x)
				}
			}
			in := bytes.HasSuffix(bytes.TrimSpace(cmd), []byte(" in"))
			if in {
				end := len(lines)
				for k := m; k < len(lines); k++ {
					if declStart(lines[k]) {
						end = k + 1
						break
					}
				}
				for _, x := range explicit {
					spans = append(spans, variableSpan{Name: x, From: n, To: end})
				}
				for _, x := range rebound {
					spans = append(spans, variableSpan{Name: x, From: n, To: end, Implicit: true})
				}
				eachGroup(cmd, func(closing rune, inner string) {
					g := newGroupSpan(closing, inner, n, end)
					g.In = true
					groups = append(groups, g)
				})
			} else {
				eachGroup(cmd, func(closing rune, inner string) {
					groups = append(groups, newGroupSpan(closing, inner, n, -1))
					curGroups = append(curGroups, len(groups)-1)
				})
				// a later `variable {x}` does not end the span: an Implicit
				// span follows it
				for _, x := range explicit {
					spans = append(spans, variableSpan{Name: x, From: n, To: -1})
					cur = append(cur, len(spans)-1)
				}
				for _, x := range rebound {
					spans = append(spans, variableSpan{Name: x, From: n, To: -1, Implicit: true})
					cur = append(cur, len(spans)-1)
				}
			}
			n = m - 1
		}
	}
	for i := range spans {
		if spans[i].To < 0 {
			spans[i].To = len(lines) + 1
		}
	}
	for i := range groups {
		if groups[i].To < 0 {
			groups[i].To = len(lines) + 1
		}
	}
	return spans, implicit, groups
}

// unreadableGroup stands in fileVariables.implicit for a `variable`
// command whose groups are not all read.
const unreadableGroup = "\x00"

// nonExplicitGroups returns the names a `variable` command binds or
// rebinds in { }, ⦃ ⦄ or [ ] groups (an instance's name included).
func nonExplicitGroups(cmd []byte) []string {
	var out []string
	if !eachGroup(cmd, func(closing rune, inner string) {
		names, _, colon := strings.Cut(inner, ":")
		if closing != ')' && (colon || closing != ']') {
			// [Monoid A] binds no name; [inst : Monoid A] and {A} do
			out = append(out, strings.Fields(names)...)
		}
	}) {
		out = append(out, unreadableGroup) // no name after it is certain
	}
	return out
}

// variableGroups returns the names a `variable` command binds or makes
// explicit: those of its ( ) groups, up to a group it cannot read.
func variableGroups(cmd []byte) []string {
	var explicit []string
	eachGroup(cmd, func(closing rune, inner string) {
		if closing == ')' {
			// (x y : T) or (x): not the ( ) inside {C : Set (Set α)}
			names, _, _ := strings.Cut(inner, ":")
			explicit = append(explicit, strings.Fields(names)...)
		}
	})
	return explicit
}

// eachGroup calls f with each top-level binder group of a `variable`
// command, its closing bracket and what it encloses; it returns false at a
// group whose bracket is not closed by its own kind (no group after it is
// read).
func eachGroup(cmd []byte, f func(closing rune, inner string)) bool {
	rs := []rune(string(cmd))
	for i := 0; i < len(rs); i++ {
		closing := closers[rs[i]]
		if closing == 0 {
			continue
		}
		j := groupEnd(rs, i)
		if j >= len(rs) || rs[j] != closing {
			return false
		}
		f(closing, string(rs[i+1:j]))
		i = j
	}
	return true
}

// closers maps a binder group's opening bracket to its closing one.
var closers = map[rune]rune{'{': '}', '⦃': '⦄', '[': ']', '(': ')'}

// groupEnd returns the index of the bracket that closes the group opened
// at rs[i] (len(rs) when none does).
func groupEnd(rs []rune, i int) int {
	depth, j := 0, i
	for ; j < len(rs); j++ {
		switch rs[j] {
		case '(', '{', '[', '⦃':
			depth++
		case ')', '}', ']', '⦄':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	return j
}
