package library

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// builtFile pairs a file with its parse result during a build.
type builtFile struct {
	fd *fileData
	pf *leansrc.File
	// decls are fd.decls before twins are inserted, parallel to pf.Decls.
	decls []*Decl
	// dropped marks decls that repeat a name already declared in the file;
	// they are resolved (harmlessly) but left out of the snapshot.
	dropped map[*Decl]bool
}

// builder turns parse results into resolved declarations.
type builder struct {
	ws    *Workspace
	files []builtFile
	// lib is the snapshot being updated and old the file's previous
	// version (incremental builds only; old is empty for a new file).
	lib *Library
	old *fileData

	names     map[string][]*Decl // declarations of the files being built
	trans     map[string]string
	notations map[string][]operator
	operators map[string][]operator
	aliases   map[string]string
	lasts     map[string]bool   // last components of names, once complete
	twins     map[*Decl][]*Decl // source → generated declarations
	twinSrc   map[*Decl]*Decl   // generated → source
}

// lookup finds a declaration by full name among the files being built and,
// for incremental builds, the rest of the library.
func (b *builder) lookup(name string) (*Decl, bool) {
	if ds := b.names[name]; len(ds) > 0 {
		return ds[0], true
	}
	if b.lib == nil {
		return nil, false
	}
	return b.libLookup(name)
}

// libLookup finds a declaration in the rest of the library during an
// incremental build (hiding the previous version of the rebuilt file).
func (b *builder) libLookup(name string) (*Decl, bool) {
	e, ok := b.lib.lookupExcept(name, b.files[0].fd.abs)
	return e.d, ok
}

func (b *builder) translated(name string) (string, bool) {
	if t, ok := b.trans[name]; ok {
		return t, true
	}
	if b.lib != nil {
		t, ok := b.lib.trans[name]
		return t, ok
	}
	return "", false
}

// convert creates the declarations of every file (without references).
func (b *builder) convert() {
	b.names = map[string][]*Decl{}
	for i := range b.files {
		bf := &b.files[i]
		root := b.ws.Roots[bf.fd.root]
		mod := ModuleName(bf.fd.rel)
		bf.fd.problems = append(bf.fd.problems, problemsOf(bf.fd.abs, bf.pf)...)
		bf.decls = make([]*Decl, len(bf.pf.Decls))
		store := make([]Decl, len(bf.pf.Decls))
		main := mainNames(bf.pf.ModuleDocs)
		declared := make(map[string]int, len(bf.pf.Decls))
		for j := range bf.pf.Decls {
			x := &bf.pf.Decls[j]
			d := &store[j]
			name, keep := uniqueName(x, declared)
			if !keep {
				if bf.dropped == nil {
					bf.dropped = map[*Decl]bool{}
				}
				bf.dropped[d] = true
				bf.fd.problems = append(bf.fd.problems, Problem{File: bf.fd.abs,
					Msg: fmt.Sprintf("line %d: %s already declared in this file (line %d): kept the first", x.Range.Start.Line+1, x.Name, declared[x.Name])})
			}
			*d = Decl{Name: name, Kind: Kind(x.Kind), Module: mod, File: bf.fd.rel,
				Range:     Range{Start: Position(x.Range.Start), End: Position(x.Range.End)},
				Signature: x.Signature, Doc: x.Doc, Attrs: nonNil(x.Attrs), StatementDeps: []string{}, ProofDeps: []string{},
				Private: x.Private, Protected: x.Protected, Anonymous: x.Anonymous, Parent: x.Parent, Symbol: x.Symbol,
				Package: root.Package, User: root.User, Value: x.Value}
			d.MainDoc, d.Main = mainDoc(d.Name, main)
			bf.decls[j] = d
			if keep {
				b.names[d.Name] = append(b.names[d.Name], d)
			}
		}
	}
}

// mainNames maps the names listed in a file's main-declaration sections
// (as written: possibly relative to a namespace) to their descriptions.
func mainNames(moduleDocs []string) map[string]string {
	var m map[string]string
	for _, e := range leansrc.MainEntries(moduleDocs) {
		for _, n := range e.Names {
			if m == nil {
				m = map[string]string{}
			}
			if m[n] == "" {
				m[n] = e.Text
			}
		}
	}
	return m
}

// mainDoc reports whether full name is one of the listed names or ends with
// one of them after a dot, and that entry's description.
func mainDoc(name string, listed map[string]string) (string, bool) {
	if len(listed) == 0 {
		return "", false
	}
	for s := name; ; {
		if text, ok := listed[s]; ok {
			return text, true
		}
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return "", false
		}
		s = s[i+1:]
	}
}

// uniqueName applies the counting rule shared by every consumer of the
// library: a full name is declared at most once per file. Names Lean
// generates (anonymous instances, notations) get Lean's `_1`, `_2`, …
// suffix when taken, as mkUnusedBaseName does; a repeated explicit name
// (which Lean rejects) is not kept. declared maps the names taken so far to
// their 1-based line.
func uniqueName(x *leansrc.Decl, declared map[string]int) (string, bool) {
	name := x.Name
	if _, taken := declared[name]; taken {
		if !x.Anonymous && x.Kind != "notation" {
			return name, false
		}
		for i := 1; ; i++ {
			cand := appendIndex(x.Name, i)
			if _, taken := declared[cand]; !taken {
				name = cand
				break
			}
		}
	}
	declared[name] = x.Range.Start.Line + 1
	return name, true
}

// appendIndex is Lean's Name.appendIndexAfter on the last component,
// inside guillemets when the component is escaped: `instFoo` → `instFoo_1`,
// `A.«termσ»` → `A.«termσ_1»`.
func appendIndex(name string, i int) string {
	if s, ok := strings.CutSuffix(name, "»"); ok {
		return s + "_" + strconv.Itoa(i) + "»"
	}
	return name + "_" + strconv.Itoa(i)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// resolveDecl finds the declaration an `attribute` command names: exactly
// that constant (no projection stripping, which would put the attributes of
// an unindexed `Set.foo` on `Set`).
func (b *builder) resolveDecl(id string, sc *leansrc.Scope) (*Decl, bool) {
	r := b.resolver()
	if n := r.resolveExact(id, sc, ""); n != "" {
		return b.lookup(n)
	}
	return nil, false
}

// additives collects the to_additive requests: attributes on declarations
// and `attribute [to_additive] x` commands (which also add attributes).
func (b *builder) additives() []additiveReq {
	var reqs []additiveReq
	for i := range b.files {
		bf := &b.files[i]
		for j := range bf.pf.Decls {
			if a := bf.pf.Decls[j].Additive; a != nil {
				reqs = append(reqs, additiveReq{d: bf.decls[j], a: a, bf: bf})
			}
		}
		for _, ac := range bf.pf.AttrCmds {
			sc := &bf.pf.Scopes[ac.Scope]
			for _, n := range ac.Names {
				d, ok := b.resolveDecl(n, sc)
				if !ok || !b.own(d) {
					continue
				}
				d.Attrs = append(d.Attrs[:len(d.Attrs):len(d.Attrs)], ac.Attrs...)
				if ac.Additive != nil {
					reqs = append(reqs, additiveReq{d: d, a: ac.Additive, bf: b.fileOf(d)})
				}
			}
		}
	}
	return reqs
}

// own reports whether d belongs to the files being built (declarations of
// other files are shared with older snapshots and must not be mutated).
func (b *builder) own(d *Decl) bool {
	for _, x := range b.names[d.Name] {
		if x == d {
			return true
		}
	}
	return false
}

func (b *builder) fileOf(d *Decl) *builtFile {
	if len(b.files) == 1 {
		return &b.files[0]
	}
	for i := range b.files {
		if b.files[i].fd.rel == d.File && b.ws.Roots[b.files[i].fd.root].Package == d.Package {
			return &b.files[i]
		}
	}
	return nil
}

// additiveReq is one declaration to translate with to_additive.
type additiveReq struct {
	d  *Decl
	a  *leansrc.Additive
	bf *builtFile
}

// generateTwins creates the additive declarations and the translation table.
func (b *builder) generateTwins() {
	b.trans = map[string]string{}
	b.twins = map[*Decl][]*Decl{}
	b.twinSrc = map[*Decl]*Decl{}
	reqs := b.additives()
	sort.SliceStable(reqs, func(i, j int) bool {
		return strings.Count(reqs[i].d.Name, ".") < strings.Count(reqs[j].d.Name, ".")
	})
	for _, r := range reqs {
		src := r.d
		tgt := additiveTarget(src.Name, r.a.Name, b.translated)
		if tgt == src.Name || tgt == "" {
			continue
		}
		b.trans[src.Name] = tgt
		r.bf.fd.tabs.trans = append(r.bf.fd.tabs.trans, [2]string{src.Name, tgt})
		src.Twin = tgt
		doc := r.a.Doc
		if doc == "" {
			doc = src.Doc
		}
		b.twin(src, tgt, doc, r.a.Existing)
		if src.Kind.IsTypeLike() && r.bf != nil {
			for _, f := range r.bf.decls {
				if f.Parent != src.Name || (f.Kind != KindField && f.Kind != KindConstructor) {
					continue
				}
				_, last := leansrc.SplitLast(f.Name)
				ft := tgt + "." + GuessAdditiveName(last)
				b.trans[f.Name] = ft
				r.bf.fd.tabs.trans = append(r.bf.fd.tabs.trans, [2]string{f.Name, ft})
				f.Twin = ft
				b.twin(f, ft, f.Doc, r.a.Existing)
			}
		}
	}
}

// twin links src to an existing tgt or generates it.
func (b *builder) twin(src *Decl, tgt, doc string, existing bool) {
	if ex, ok := b.lookup(tgt); ok {
		if ex.Twin == "" && b.own(ex) {
			ex.Twin = src.Name
		}
		return
	}
	if existing {
		return
	}
	g := *src
	g.Name = tgt
	g.Twin = src.Name
	g.Generated = true
	g.Doc = doc
	if src.Parent != "" {
		if t, ok := b.translated(src.Parent); ok {
			g.Parent = t
		}
	}
	gp := &g
	b.twins[src] = append(b.twins[src], gp)
	b.twinSrc[gp] = src
	b.names[tgt] = append(b.names[tgt], gp)
}

// finishTwins translates the signatures of generated declarations and
// inserts them after their sources.
func (b *builder) finishTwins() {
	for i := range b.files {
		bf := &b.files[i]
		n := len(bf.decls)
		for _, d := range bf.decls {
			n += len(b.twins[d])
		}
		out := make([]*Decl, 0, n)
		for _, d := range bf.decls {
			if bf.dropped[d] {
				continue
			}
			out = append(out, d)
			for _, g := range b.twins[d] {
				g.Signature = b.translateText(g.Signature)
				g.StatementDeps = b.translateNames(d.StatementDeps)
				g.ProofDeps = b.translateNames(d.ProofDeps)
				out = append(out, g)
			}
		}
		bf.fd.decls = out
	}
}

func (b *builder) translateNames(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		if t, ok := b.translated(n); ok {
			out[i] = t
		} else {
			out[i] = n
		}
	}
	return out
}

// symbolTwins are the operator translations applied to twin signatures.
var symbolTwins = map[string]string{"*": "+", "∏": "∑", "∏ᶠ": "∑ᶠ", "/": "-", "•": "+ᵥ", "⁻¹": "-"}

// translateText rewrites identifiers and operators of a signature.
func (b *builder) translateText(s string) string {
	toks, _ := leansrc.Scan([]byte(s))
	var sb strings.Builder
	last := 0
	for _, t := range toks {
		w := s[t.Start:t.End]
		rep := ""
		switch t.Kind {
		case leansrc.TokIdent:
			if tr, ok := b.translated(w); ok {
				rep = tr
			}
		case leansrc.TokSymbol:
			if t.Start > 0 && isWordByte(s[t.Start-1]) {
				break // `Type*`, `Sort*`: not multiplication
			}
			rep = symbolTwins[w]
		}
		if rep != "" {
			sb.WriteString(s[last:t.Start])
			sb.WriteString(rep)
			last = int(t.End)
		}
	}
	sb.WriteString(s[last:])
	return sb.String()
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// tables records each file's export aliases, then its notations (whose
// targets may go through export aliases such as `norm`), and assembles the
// library-wide tables from them.
func (b *builder) tables() {
	b.aliases = map[string]string{}
	if b.lib != nil {
		b.aliases = b.lib.aliases
	}
	for i := range b.files {
		fd := b.files[i].fd
		fd.tabs.aliases = nil
		for _, ex := range b.files[i].pf.Exports {
			for _, n := range ex.Names {
				for _, c := range []string{leansrc.JoinName(ex.Namespace, ex.From) + "." + n, ex.From + "." + n} {
					if _, ok := b.lookup(c); ok {
						fd.tabs.aliases = append(fd.tabs.aliases, [2]string{leansrc.JoinName(ex.Namespace, n), c})
						break
					}
				}
			}
		}
	}
	if b.lib == nil {
		b.aliases = map[string]string{}
		for i := range b.files {
			for _, a := range b.files[i].fd.tabs.aliases {
				b.aliases[a[0]] = a[1]
			}
		}
	} else if len(b.files[0].fd.tabs.aliases) > 0 {
		b.aliases = make(map[string]string, len(b.lib.aliases)+len(b.files[0].fd.tabs.aliases))
		for k, v := range b.lib.aliases {
			b.aliases[k] = v
		}
		for _, a := range b.files[0].fd.tabs.aliases {
			b.aliases[a[0]] = a[1]
		}
	}
	for i := range b.files {
		bf := &b.files[i]
		bf.fd.tabs.notes = nil
		for j, x := range bf.pf.Decls {
			if x.Kind != "notation" || len(x.StmtRefs) == 0 || x.Local {
				continue // `local notation "v" => …` must not capture other files' `v`
			}
			r := b.resolver()
			r.aliases = b.aliases
			n := r.resolve(x.StmtRefs[0], &bf.pf.Scopes[x.Scope], bf.decls[j].Name)
			if n == "" {
				continue
			}
			ns, _ := leansrc.SplitLast(bf.decls[j].Name)
			op := operator{atoms: x.Atoms, target: n, ns: ns, scoped: x.Scoped, alone: standsAlone(&x), postfix: appliedPostfix(&x, n), infix: appliedInfix(&x)}
			if leansrc.IsIdentifier(x.Symbol) {
				bf.fd.tabs.notes = append(bf.fd.tabs.notes, note{key: x.Symbol, ident: true, op: op})
			} else if len(x.Atoms) > 0 {
				bf.fd.tabs.notes = append(bf.fd.tabs.notes, note{key: x.Atoms[0], op: op})
			}
		}
	}
	if b.lib == nil {
		fds := make([]*fileData, len(b.files))
		for i := range b.files {
			fds[i] = b.files[i].fd
		}
		b.notations, b.operators = assembleNotes(fds)
	}
}

// standsAlone reports whether notation x is a `notation` command of one
// atom with no operands that stands for one constant (`notation "ℝ≥0" =>
// NNReal`; an infix, prefix or postfix command has operands): Lean's
// tokenizer reads the atom as one token.
func standsAlone(x *leansrc.Decl) bool {
	cmd, _, _ := strings.Cut(x.Signature, " ")
	cmd, _, _ = strings.Cut(cmd, ":")
	_, rhs, ok := strings.Cut(x.Signature, "=>")
	return ok && cmd == "notation" && len(x.Atoms) == 1 && x.Symbol == x.Atoms[0] && leansrc.IsIdentifier(strings.TrimSpace(rhs))
}

// appliedPostfix reports whether notation x is a `notation` command of
// one operand followed by one atom whose right side applies its target to
// that operand alone (`notation:9000 R "[X]" => Polynomial R`): `ℚ[X]` is
// then `Polynomial ℚ`. target is the constant the right side's head
// resolved to.
func appliedPostfix(x *leansrc.Decl, target string) bool {
	f, rhs, ok := oneAtomCommand(x)
	if !ok {
		return false
	}
	r := strings.Fields(rhs)
	if len(f) != 3 || len(r) != 2 || f[0] != "notation" && !strings.HasPrefix(f[0], "notation:") {
		return false
	}
	operand := f[1]
	if i := strings.IndexByte(operand, ':'); i >= 0 {
		operand = operand[:i] // R:max
	}
	_, last := leansrc.SplitLast(target)
	head := r[0]
	return leansrc.IsIdentifier(operand) && f[2] == strconv.Quote(x.Atoms[0]) && r[1] == operand &&
		(head == target || strings.HasSuffix(head, "."+last) || head == last)
}

// oneAtomCommand splits notation x of one atom at its `=>`: the words of
// its left side from the command on (attributes and scoped[NS] dropped),
// and its right side; ok is false for other notations.
func oneAtomCommand(x *leansrc.Decl) (lhs []string, rhs string, ok bool) {
	l, rhs, ok := strings.Cut(x.Signature, "=>")
	if !ok || len(x.Atoms) != 1 {
		return nil, "", false
	}
	f := strings.Fields(l)
	for len(f) > 0 && (strings.HasPrefix(f[0], "@[") || strings.HasPrefix(f[0], "scoped") || f[0] == "local") {
		f = f[1:] // attributes, scoped[NS]
	}
	return f, rhs, true
}

// appliedInfix reports whether notation x is an infix command of one atom
// whose right side is one constant (`infixr:25 " →+ " => AddMonoidHom`):
// `G →+ H` is then `AddMonoidHom G H`.
// It returns the command's fixity and precedence (a precedence written as
// a number; `max` and arithmetic leave it 0), and Fixity 0 otherwise.
func appliedInfix(x *leansrc.Decl) leansrc.Operator {
	f, rhs, ok := oneAtomCommand(x)
	if !ok || len(f) == 0 || !leansrc.IsIdentifier(strings.TrimSpace(rhs)) {
		return leansrc.Operator{}
	}
	cmd, prec, _ := strings.Cut(f[0], ":")
	fix, ok := infixCommands[cmd]
	if !ok {
		return leansrc.Operator{}
	}
	n, err := strconv.Atoi(prec)
	if err != nil || n <= 0 {
		n = 0
	}
	return leansrc.Operator{Fixity: fix, Prec: n}
}

// infixCommands are Lean's infix commands by fixity.
var infixCommands = map[string]leansrc.Fixity{"infix": leansrc.Infix, "infixl": leansrc.Infixl, "infixr": leansrc.Infixr}

// fileTables are the entries one file adds to the library-wide tables.
type fileTables struct {
	trans   [][2]string // to_additive: source → additive name
	aliases [][2]string // export: alias → target
	notes   []note
}

// note is one notation entry: an identifier-like symbol or an operator's
// first atom.
type note struct {
	key   string
	ident bool
	op    operator
}

// equal reports whether two files contribute the same table entries.
func (t *fileTables) equal(u *fileTables) bool {
	if len(t.notes) != len(u.notes) || !slices.Equal(t.trans, u.trans) || !slices.Equal(t.aliases, u.aliases) {
		return false
	}
	for i := range t.notes {
		a, b := t.notes[i], u.notes[i]
		if a.key != b.key || a.ident != b.ident || a.op.target != b.op.target || a.op.ns != b.op.ns ||
			a.op.scoped != b.op.scoped || a.op.alone != b.op.alone || a.op.postfix != b.op.postfix || a.op.infix != b.op.infix || !slices.Equal(a.op.atoms, b.op.atoms) {
			return false
		}
	}
	return true
}

// keys returns the names and symbols t's entries are looked up by.
func (t *fileTables) keys() []string {
	var out []string
	for _, e := range t.trans {
		_, last := leansrc.SplitLast(e[0])
		out = append(out, last)
	}
	for _, e := range t.aliases {
		_, last := leansrc.SplitLast(e[0])
		out = append(out, last)
	}
	for _, n := range t.notes {
		out = append(out, n.key)
	}
	return out
}

// assembleNotes builds the notation tables from files in path order.
func assembleNotes(files []*fileData) (notations, operators map[string][]operator) {
	notations, operators = map[string][]operator{}, map[string][]operator{}
	for _, f := range files {
		for _, n := range f.tabs.notes {
			if n.ident {
				notations[n.key] = append(notations[n.key], n.op)
			} else {
				operators[n.key] = append(operators[n.key], n.op)
			}
		}
	}
	return notations, operators
}

// retable rebuilds the library-wide tables of l from its files.
func (l *Library) retable() {
	paths := l.Files()
	files := make([]*fileData, len(paths))
	l.trans, l.aliases = map[string]string{}, map[string]string{}
	for i, p := range paths {
		files[i] = l.files[p]
		for _, e := range files[i].tabs.trans {
			l.trans[e[0]] = e[1]
		}
		for _, e := range files[i].tabs.aliases {
			l.aliases[e[0]] = e[1]
		}
	}
	l.notations, l.operators = assembleNotes(files)
}

// operator is a notation keyed by its symbol or first atom.
type operator struct {
	atoms  []string
	target string
	ns     string // namespace the notation was declared in
	scoped bool   // only in force inside ns or with ns open
	alone  bool   // one atom, no operands, standing for target (standsAlone)
	// postfix: an operand then the one atom, for target applied to the
	// operand (appliedPostfix)
	postfix bool
	// infix, when its Fixity is not 0: an infix command whose right side
	// is the target alone, so `a op b` is the target applied to a and b,
	// with the command's fixity and precedence (appliedInfix)
	infix leansrc.Operator
}

// active reports whether the notation is in force in scope sc.
func (o *operator) active(sc *leansrc.Scope) bool {
	return !o.scoped || sc.OpensNotation(o.ns)
}

// matchOperator picks the notation whose atoms all occur in the statement
// text; among several, the one with most atoms, and none when that choice is
// ambiguous (scoped notations often reuse a symbol).
func matchOperator(cands []operator, text string, sc *leansrc.Scope) string {
	best, bestN, tie := "", 0, false
	for _, c := range cands {
		ok := c.active(sc)
		for _, a := range c.atoms[1:] {
			if !strings.Contains(text, a) {
				ok = false
				break
			}
		}
		switch {
		case !ok:
		case len(c.atoms) > bestN:
			best, bestN, tie = c.target, len(c.atoms), false
		case len(c.atoms) == bestN && c.target != best:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// resolveFile fills the dependency edges of one file's declarations.
func (b *builder) resolveFile(bf *builtFile) {
	r := b.resolver()
	r.notations, r.aliases, r.memo = b.notations, b.aliases, map[memoKey]string{}
	operators := b.operators
	if b.lib != nil {
		r.notations, r.aliases, operators = b.lib.notations, b.lib.aliases, b.lib.operators
	}
	for j := range bf.pf.Decls {
		x := &bf.pf.Decls[j]
		d := bf.decls[j]
		sc := &bf.pf.Scopes[x.Scope]
		d.StatementDeps = r.resolveAll(x.StmtRefs, sc, x.Scope, d.Name)
		for _, op := range x.StmtOps {
			if n := matchOperator(operators[op], d.Signature, sc); n != "" && n != d.Name && !containsStr(d.StatementDeps, n) {
				d.StatementDeps = append(d.StatementDeps, n)
			}
		}
		d.ProofDeps = r.resolveAll(x.ProofRefs, sc, x.Scope, d.Name)
		if d.Kind == KindAlias && len(d.StatementDeps) > 0 {
			d.Parent = d.StatementDeps[0]
		}
	}
}

// build runs a full build over all files.
func (b *builder) build(workers int) *Library {
	b.convert()
	b.generateTwins()
	b.lasts = lastComponents(b.names) // names are complete now
	b.tables()
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				b.resolveFile(&b.files[i])
			}
		}()
	}
	for i := range b.files {
		next <- i
	}
	close(next)
	wg.Wait()
	b.finishTwins()
	l := &Library{ws: b.ws, files: make(map[string]*fileData, len(b.files)), shadow: map[string]bool{}}
	fds := make([]*fileData, len(b.files))
	for i, bf := range b.files {
		bf.fd.refs = refFilterOf(bf.pf)
		l.files[bf.fd.abs] = bf.fd
		fds[i] = bf.fd
	}
	l.base = newBase(fds)
	l.retable() // the tables a snapshot loaded from disk rebuilds the same way
	return l
}

// buildIncremental builds the single file of b against b.lib.
func (b *builder) buildIncremental() {
	b.convert()
	b.generateTwins()
	b.lasts = lastComponents(b.names)
	b.tables()
	if fd := b.files[0].fd; !fd.tabs.equal(&b.old.tabs) {
		b.lib.retable()
	}
	b.resolveFile(&b.files[0])
	b.finishTwins()
}

// memoKey caches a resolution within one file.
type memoKey struct {
	scope  int
	prefix string
	id     string
}

// resolver resolves identifiers to full names the way Lean does, best effort.
type resolver struct {
	names     map[string][]*Decl         // declarations being built
	lasts     []map[string]bool          // last components of every name
	fallback  func(string) (*Decl, bool) // the rest of the library, or nil
	notations map[string][]operator
	aliases   map[string]string
	memo      map[memoKey]string
	buf       []byte // candidate names are assembled here without allocating
}

// resolver returns a resolver over the builder's names.
func (b *builder) resolver() resolver {
	r := resolver{names: b.names}
	if b.lib != nil {
		r.fallback = b.libLookup
	}
	if b.lasts == nil {
		return r // names still growing (to_additive attributes): no filter
	}
	r.lasts = []map[string]bool{b.lasts}
	if b.lib != nil {
		r.lasts = append(r.lasts, b.lib.base.get().lasts)
		if b.lib.over != nil {
			r.lasts = append(r.lasts, b.lib.over.lasts)
		}
	}
	return r
}

// lastComponents is the set of last name components of the keys of names.
func lastComponents[V any](names map[string]V) map[string]bool {
	out := make(map[string]bool, len(names))
	for n := range names {
		_, last := leansrc.SplitLast(n)
		out[last] = true
	}
	return out
}

// knownLast reports whether some declaration's name ends in last: when none
// does, no namespace or `open` can make an identifier ending in it resolve.
// Without tables every name is possible.
func (r *resolver) knownLast(last string) bool {
	if r.lasts == nil {
		return true
	}
	for _, m := range r.lasts {
		if m[last] {
			return true
		}
	}
	return false
}

// find looks a candidate name up; map lookups keyed by string(buf) do not
// allocate.
func (r *resolver) find(name []byte) (*Decl, bool) {
	if ds := r.names[string(name)]; len(ds) > 0 {
		return ds[0], true
	}
	if r.fallback != nil {
		return r.fallback(string(name))
	}
	return nil, false
}

// try looks up ns.id, refusing protected declarations reached through a
// namespace by their last component alone.
func (r *resolver) try(ns, id string, single bool) string {
	r.buf = append(append(append(r.buf[:0], ns...), '.'), id...)
	if d, ok := r.find(r.buf); ok && !(single && d.Protected) {
		return string(r.buf)
	}
	return ""
}

// resolveAll resolves ids, dropping unresolved ones, the declaration itself
// and duplicates.
func (r *resolver) resolveAll(ids []string, sc *leansrc.Scope, scope int, self string) []string {
	out := make([]string, 0, len(ids))
	prefix, _ := leansrc.SplitLast(self)
	for _, id := range ids {
		k := memoKey{scope, prefix, id}
		n, ok := r.memo[k]
		if !ok {
			n = r.resolve(id, sc, self)
			r.memo[k] = n
		}
		if n == "" || n == self || containsStr(out, n) {
			continue
		}
		out = append(out, n)
	}
	return out
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// resolve returns the full name id refers to in scope sc inside the
// declaration self, or "". It tries the declaration's own namespace and the
// enclosing namespaces (innermost first), the root, the opened namespaces,
// identifier-like notations and export aliases; an unresolved dotted name is
// retried without its last components (projections such as `foo.mp`).
func (r *resolver) resolve(id string, sc *leansrc.Scope, self string) string {
	for strip := 0; strip < 3; strip++ {
		if n := r.resolveExact(id, sc, self); n != "" {
			return n
		}
		pre, _ := leansrc.SplitLast(id)
		if pre == "" {
			return ""
		}
		id = pre
	}
	return ""
}

func (r *resolver) resolveExact(id string, sc *leansrc.Scope, self string) string {
	if strings.HasPrefix(id, "_root_.") {
		id = id[len("_root_."):]
		if _, ok := r.find([]byte(id)); ok {
			return id
		}
		return ""
	}
	if _, last := leansrc.SplitLast(id); !r.knownLast(last) {
		return r.special(id, sc)
	}
	single := !strings.Contains(id, ".")
	found := ""
	if sc.EachNamespace(self, false, func(ns string) bool {
		if ns != "" {
			found = r.try(ns, id, single)
			return found != ""
		}
		r.buf = append(r.buf[:0], id...)
		if _, ok := r.find(r.buf); ok {
			found = id
		}
		return found != ""
	}) {
		return found
	}
	return r.special(id, sc)
}

// special resolves identifier-like notations and export aliases.
func (r *resolver) special(id string, sc *leansrc.Scope) string {
	for i := range r.notations[id] {
		if o := &r.notations[id][i]; o.active(sc) {
			return o.target
		}
	}
	if n, ok := r.aliases[id]; ok {
		return n
	}
	if sc != nil {
		if n, ok := r.aliases[leansrc.JoinName(sc.Namespace, id)]; ok {
			return n
		}
	}
	return ""
}
