package leansrc

import (
	"slices"
	"sort"
	"strings"
)

// Version identifies the parser's output format and behaviour; caches of
// parse results must be discarded when it changes.
const Version = 21

// strongStarters are keywords that begin a command wherever they appear:
// they cannot occur inside a term.
var strongStarters = map[string]bool{
	"def": true, "theorem": true, "lemma": true, "abbrev": true, "instance": true,
	"structure": true, "class": true, "inductive": true, "axiom": true, "opaque": true,
	"example": true, "namespace": true, "section": true, "end": true, "mutual": true,
	"variable": true, "universe": true, "import": true, "irreducible_def": true,
}

// weakStarters begin a command only as the first token of a line at or left of
// the current command's column (they may also occur inside terms or bodies).
var weakStarters = map[string]bool{
	"open": true, "export": true, "attribute": true, "notation": true, "notation3": true,
	"infix": true, "infixl": true, "infixr": true, "prefix": true, "postfix": true,
	"local": true, "scoped": true, "set_option": true, "alias": true, "private": true,
	"protected": true, "noncomputable": true, "unsafe": true, "partial": true, "nonrec": true,
	"deriving": true, "include": true, "omit": true, "macro": true, "macro_rules": true,
	"syntax": true, "elab": true, "elab_rules": true, "declare_syntax_cat": true,
	"initialize": true, "builtin_initialize": true, "assert_not_exists": true,
	"assert_not_imported": true, "library_note": true, "initialize_simps_projections": true,
	"suppress_compilation": true, "unseal": true, "seal": true, "compile_inductive": true,
	"run_cmd": true, "add_decl_doc": true, "register_simp_attr": true, "proof_wanted": true,
	"mk_iff_of_inductive_prop": true, "register_option": true, "register_builtin_option": true,
	"simproc": true, "simproc_decl": true, "dsimproc": true, "declare_aesop_rule_sets": true,
	"add_aesop_rules": true, "gen_injective_theorems%": true, "register_label_attr": true,
	"recall": true, "open_locale": true, "extend_docs": true, "count_heartbeats": true,
	"variable?": true, "lemma": true, "universes": true, "opaque": true,
}

// nonRefs are keywords and tactic words that never name library constants.
var nonRefs = map[string]bool{
	"fun": true, "by": true, "at": true, "with": true, "from": true, "have": true, "show": true,
	"let": true, "in": true, "if": true, "then": true, "else": true, "do": true, "match": true,
	"return": true, "this": true, "Type": true, "Sort": true, "Prop": true, "where": true,
	"using": true, "only": true, "calc": true, "λ": true, "at?": true, "exact": true, "apply": true,
	"intro": true, "intros": true, "rintro": true, "obtain": true, "rcases": true, "cases": true,
	"induction": true, "simp": true, "rw": true, "rwa": true, "refine": true, "use": true,
	"constructor": true, "linarith": true, "omega": true, "ring": true, "norm_num": true,
	"positivity": true, "aesop": true, "decide": true, "simpa": true, "field_simp": true,
	"gcongr": true, "ext": true, "funext": true, "congr": true, "specialize": true, "unfold": true,
	"dsimp": true, "change": true, "convert": true, "exacts": true, "refine'": true, "cases'": true,
	"tauto": true, "push_neg": true, "contrapose!": true, "by_contra": true, "by_cases": true,
	"termination_by": true, "decreasing_by": true, "deriving": true, "extends": true, "for": true,
	"sorry": true, "nlinarith": true, "continuity": true, "measurability": true, "infer_instance": true,
	"exact_mod_cast": true, "norm_cast": true, "push_cast": true, "all_goals": true, "any_goals": true,
	"first": true, "try": true, "repeat": true, "rfl'": true, "filter_upwards": true, "set": true,
	"generalize": true, "subst": true, "symm": true, "trans": true, "left": true, "right": true,
	"exfalso": true, "contradiction": true, "assumption": true, "split": true, "split_ifs": true,
	"nth_rw": true, "rw_mod_cast": true, "simp_rw": true, "erw": true, "conv": true, "lhs": true,
	"rhs": true, "arg": true, "enter": true, "case": true, "next": true, "on_goal": true,
	"swap": true, "rotate_left": true, "choose": true, "lift": true, "mono": true, "bound": true,
	"fin_cases": true, "interval_cases": true, "abel": true, "group": true, "noncomm_ring": true,
	"module": true, "suffices": true, "haveI": true, "letI": true, "exists": true, "fconstructor": true,
	"inferInstance": false, "mod_cast": true, "clear": true, "revert": true, "rename_i": true,
	"subst_vars": true, "simp_all": true, "absurd": true, "nomatch": true, "nofun": true,
	"open": true, "local": true, "scoped": true, "mut": true, "for_each": true, "unless": true,
	"_": true, "fun_prop": true, "apply_fun": true, "calc_step": true, "ring_nf": true, "tfae_have": true,
	"tfae_finish": true, "classical": true, "wlog": true, "induction'": true, "refine_lift": true,
	"Type*": true, "Sort*": true, "says": true, "simp?": true, "exact?": true, "apply?": true,
	"noncomputable": true, "private": true, "protected": true, "instance": true, "deriving_instance": true,
}

// binderIntro are tokens after which identifiers up to "," or "=>" are bound.
var binderIntro = map[string]bool{
	"fun": true, "λ": true, "∀": true, "∃": true, "∃!": true, "Π": true, "Σ": true, "∑": true,
	"∏": true, "⋃": true, "⋂": true, "⨆": true, "⨅": true, "∫": true, "∮": true, "⨁": true,
	"∑ᶠ": true, "∏ᶠ": true, "∫⁻": true, "Σ'": true, "∃ᶠ": true, "∀ᶠ": true, "⨂": true,
}

// tacticIntro are tactic words whose following identifiers (to the end of the
// line or ":=") are local names.
var tacticIntro = map[string]bool{
	"intro": true, "intros": true, "rintro": true, "obtain": true, "rcases": true, "have": true,
	"let": true, "set": true, "generalize": true, "case": true, "next": true, "with": true,
	"haveI": true, "letI": true, "choose": true, "cases'": true, "induction'": true, "rename_i": true,
	"by_contra": true, "by_contra!": true, "lift": true, "wlog": true, "filter_upwards": true, "by_cases": true,
}

// varGroup is one binder group of a `variable` command.
type varGroup struct {
	names   []string
	text    string
	open    string // the bracket, "(" "{" "[" "⦃"
	close   string
	typ     string // the type after ":"
	refs    []string
	inst    bool // instance-implicit [..] binder
	mention []string
}

// scopeEntry is one level of the namespace/section stack.
type scopeEntry struct {
	kind  string // "namespace", "section", "mutual"
	name  string // one component for namespaces
	ns    string
	opens opens
	vars  []varGroup // the variables in force when the scope opened
}

// modifiers collects what precedes a declaration keyword.
type modifiers struct {
	doc       string
	attrs     []string
	additive  *Additive
	private   bool
	protected bool
	noncomp   bool
	local     bool   // `local`
	scoped    bool   // `scoped` or `scoped[NS]`
	scopedNS  string // NS of `scoped[NS]`
	start     int    // token index of the first modifier
}

type parser struct {
	src   []byte
	toks  []Token
	i     int
	file  *File
	lines []int
	stack []scopeEntry
	ns    string
	opens opens
	vars  []varGroup
	scope int // index into file.Scopes of the current scope, -1 when it changed
	univs map[string]bool
	// varNames caches the names of p.vars (nil when p.vars changed).
	varNames map[string]bool
}

// Parse reads the declarations of one file. The module name is not needed:
// names are qualified by namespaces only. Parse never panics on any input.
func Parse(content []byte) *File {
	src, warns := Prepare(content)
	f := &File{Warnings: warns}
	if len(content) > MaxFileSize {
		f.Warnings = append(f.Warnings, "file too large: skipped")
		return f
	}
	toks, errs := Scan(src)
	p := &parser{src: src, toks: toks, file: f, scope: -1, univs: map[string]bool{}}
	p.lines = lineStarts(src)
	for _, e := range errs {
		f.Diags = append(f.Diags, Diag{Line: p.lineOf(e.Offset), Msg: e.Msg})
	}
	for p.i < len(p.toks) {
		start := p.i
		p.command(0)
		if p.i == start {
			p.i++
		}
		p.mark(p.toks[p.i-1].End) // comments after `end`, `open` see the new scope
	}
	return f
}

func (p *parser) lineOf(off int) int {
	return sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off }) - 1
}

func (p *parser) pos(off int) Pos {
	l := p.lineOf(off)
	return Pos{Line: l, Character: utf16Col(p.src, p.lines[l], off)}
}

// mark records the scope and variables in force from byte offset off on,
// when they differ from the last mark.
func (p *parser) mark(off int32) {
	sc := p.curScope()
	if n := len(p.file.Marks); n > 0 {
		last := &p.file.Marks[n-1]
		if last.Scope == sc && sameVarNames(last.Vars, p.vars) {
			return
		}
	}
	var vars []string
	for _, g := range p.vars {
		vars = append(vars, g.names...)
	}
	p.file.Marks = append(p.file.Marks, Mark{Offset: int(off), Scope: sc, Vars: vars})
}

// sameVarNames reports whether names lists exactly the names of groups.
func sameVarNames(names []string, groups []varGroup) bool {
	i := 0
	for _, g := range groups {
		for _, n := range g.names {
			if i >= len(names) || names[i] != n {
				return false
			}
			i++
		}
	}
	return i == len(names)
}

func (p *parser) text(i int) string {
	t := p.toks[i]
	return string(p.src[t.Start:t.End])
}

// is reports whether token i has exactly the given text.
func (p *parser) is(i int, s string) bool {
	if i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	return int(t.End-t.Start) == len(s) && string(p.src[t.Start:t.End]) == s
}

func (p *parser) kind(i int) TokenKind {
	if i >= len(p.toks) {
		return 0
	}
	return p.toks[i].Kind
}

// isStarter reports whether token i begins a new command, given the column
// of the command being parsed.
func (p *parser) isStarter(i int, cmdCol int32) bool {
	t := p.toks[i]
	weak := t.BOL && t.Col <= cmdCol
	switch t.Kind {
	case TokModDoc, TokDoc:
		return weak
	case TokSymbol:
		if !weak {
			return false
		}
		c := p.src[t.Start]
		return c == '#' || (c == '@' && t.End-t.Start == 2)
	case TokIdent:
		s := p.src[t.Start:t.End]
		if i > 0 && p.toks[i-1].End == t.Start && (p.src[t.Start-1] == '.' || p.src[t.Start-1] == '(') {
			return false // `.opaque`, `(lemma := …)`: not a command keyword
		}
		if strongStarters[string(s)] {
			if !t.BOL && i > 0 && (p.is(i-1, "|") || p.is(i-1, ":=")) {
				return false // constructor `| opaque : Key`, `(name := lemma)`: not a command keyword
			}
			if !t.BOL && p.hashLine(i) {
				return false // `#help command def`: an argument of a # command
			}
			switch string(s) {
			case "instance", "class":
				if i > 0 && (p.is(i-1, "[") || p.is(i-1, ",") || p.is(i-1, "deriving")) {
					return false
				}
			}
			return true
		}
		return weak && weakStarters[string(s)]
	}
	return false
}

// hashLine reports whether the line of token i starts with a `#` command.
func (p *parser) hashLine(i int) bool {
	j := i
	for j > 0 && !p.toks[j].BOL {
		j--
	}
	t := p.toks[j]
	return t.Kind == TokSymbol && p.src[t.Start] == '#'
}

// skipTo advances to the next command start.
func (p *parser) skipTo(cmdCol int32) {
	for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) {
		p.i++
	}
}

func (p *parser) curScope() int {
	if p.scope < 0 {
		p.file.Scopes = append(p.file.Scopes, Scope{Namespace: p.ns, Opens: p.opens.all, Restricted: p.opens.restricted, Aliases: p.opens.aliases})
		p.scope = len(p.file.Scopes) - 1
	}
	return p.scope
}

func (p *parser) diag(i int, msg string) {
	if i >= len(p.toks) {
		i = len(p.toks) - 1
	}
	line := 0
	if i >= 0 {
		line = int(p.toks[i].Line)
	}
	p.file.Diags = append(p.file.Diags, Diag{Line: line, Msg: msg})
}

// command parses one command starting at p.i.
func (p *parser) command(depth int) {
	t := p.toks[p.i]
	cmdCol := t.Col
	p.mark(t.Start)
	if t.Kind == TokModDoc {
		p.file.ModuleDocs = append(p.file.ModuleDocs, commentText(p.text(p.i), 3))
		p.i++
		return
	}
	var m modifiers
	m.start = p.i
	for p.i < len(p.toks) {
		switch {
		case p.kind(p.i) == TokDoc:
			m.doc = commentText(p.text(p.i), 3)
			p.i++
			continue
		case p.is(p.i, "@["):
			p.attributes(&m, cmdCol)
			continue
		case p.is(p.i, "private"):
			m.private = true
		case p.is(p.i, "protected"):
			m.protected = true
		case p.is(p.i, "noncomputable"):
			m.noncomp = true
		case p.is(p.i, "scoped") && p.is(p.i+1, "["):
			// Mathlib's scoped[NS] command modifier
			m.scoped = true
			if p.kind(p.i+2) == TokIdent && p.is(p.i+3, "]") {
				m.scopedNS = p.text(p.i + 2)
			}
			for p.i+1 < len(p.toks) && !p.is(p.i, "]") && !p.toks[p.i+1].BOL {
				p.i++
			}
		case p.is(p.i, "local"):
			m.local = true
		case p.is(p.i, "scoped"):
			m.scoped = true
		case p.is(p.i, "unsafe"), p.is(p.i, "partial"), p.is(p.i, "nonrec"):
		default:
			goto keyword
		}
		p.i++
	}
keyword:
	if p.i >= len(p.toks) {
		return
	}
	kwIdx := p.i
	kw := p.text(kwIdx)
	if p.kind(kwIdx) != TokIdent {
		if p.kind(kwIdx) == TokModDoc {
			return
		}
		p.i++
		p.skipTo(cmdCol)
		return
	}
	switch kw {
	case "namespace":
		p.i++
		if p.kind(p.i) == TokIdent && !p.toks[p.i].BOL {
			name := p.text(p.i)
			p.i++
			p.push("namespace", name)
		} else {
			p.diag(kwIdx, "namespace without a name")
		}
	case "section":
		p.i++
		name := ""
		if p.kind(p.i) == TokIdent && !p.toks[p.i].BOL && !p.isStarter(p.i, cmdCol) {
			name = p.text(p.i)
			p.i++
		}
		p.push("section", name)
	case "mutual":
		p.i++
		p.push("mutual", "")
	case "end":
		p.i++
		name := ""
		if p.kind(p.i) == TokIdent && !p.toks[p.i].BOL && !p.isStarter(p.i, cmdCol) {
			name = p.text(p.i)
			p.i++
		}
		p.end(kwIdx, name)
	case "open":
		p.i++
		p.openCmd(cmdCol, depth)
	case "export":
		p.i++
		p.exportCmd(cmdCol)
	case "variable", "include", "omit":
		p.i++
		saved := p.vars
		groups, updates := p.binderGroups(cmdCol)
		if kw == "variable" {
			p.vars = append(rebind(p.vars, updates), groups...)
			p.varNames = nil
		}
		if kw == "variable" && p.is(p.i, "in") {
			// `variable {x} in def f …`: for the next command only
			p.maybeIn(cmdCol, depth)
			p.vars, p.varNames = saved, nil
			return
		}
		p.maybeIn(cmdCol, depth)
	case "universe", "universes":
		p.i++
		for p.kind(p.i) == TokIdent && !p.isStarter(p.i, cmdCol) {
			p.univs[p.text(p.i)] = true
			p.i++
		}
		p.skipTo(cmdCol)
	case "set_option":
		p.i++
		for n := 0; n < 2 && p.i < len(p.toks) && !p.is(p.i, "in") && !p.isStarter(p.i, cmdCol); n++ {
			p.i++
		}
		p.maybeIn(cmdCol, depth)
	case "def", "theorem", "lemma", "abbrev", "instance", "opaque", "axiom", "irreducible_def", "example":
		p.declaration(&m, kwIdx, cmdCol)
	case "structure", "class":
		if kw == "class" && p.is(kwIdx+1, "inductive") {
			p.i++
			p.inductive(&m, kwIdx, cmdCol, "class inductive")
			return
		}
		if kw == "class" && p.is(kwIdx+1, "abbrev") {
			p.i++
		}
		p.structure(&m, kwIdx, cmdCol, kw)
	case "inductive":
		p.inductive(&m, kwIdx, cmdCol, "inductive")
	case "attribute":
		p.i++
		p.attributeCmd(&m, cmdCol)
	case "notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix":
		p.notation(&m, kwIdx, cmdCol)
	case "alias":
		p.alias(&m, kwIdx, cmdCol)
	default:
		p.i++
		p.skipTo(cmdCol)
	}
}

// maybeIn handles a trailing `in`: the next command is parsed and then the
// caller restores any scope changes.
func (p *parser) maybeIn(cmdCol int32, depth int) {
	if p.is(p.i, "in") {
		p.i++
		if p.i < len(p.toks) && depth < 64 {
			p.command(depth + 1)
		}
		return
	}
	p.skipTo(cmdCol)
}

func (p *parser) push(kind, name string) {
	if kind != "namespace" {
		// `section A.B` opens one scope per component, as Lean's addScopes does.
		parts := []string{name}
		if name != "" {
			parts = splitName(name)
		}
		for _, part := range parts {
			p.stack = append(p.stack, scopeEntry{kind: kind, name: part, ns: p.ns, opens: p.opens, vars: p.vars})
		}
		return
	}
	rest, root := strings.CutPrefix(name, "_root_.")
	for i, part := range splitName(rest) {
		p.stack = append(p.stack, scopeEntry{kind: kind, name: part, ns: p.ns, opens: p.opens, vars: p.vars})
		if p.ns == "" || (i == 0 && root) { // `namespace _root_.X` opens X at the root
			p.ns = part
		} else {
			p.ns = p.ns + "." + part
		}
	}
	p.scope = -1
}

// splitName splits a dotted name into components, keeping «quoted» parts whole.
func splitName(name string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range name {
		switch r {
		case '«':
			depth++
		case '»':
			depth--
		case '.':
			if depth == 0 {
				parts = append(parts, name[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, name[start:])
}

// end closes scopes. A named `end X.Y` closes the scopes named X and Y; when
// they are not innermost it closes down to them (recovering from a missing
// `end`), and when no open scope matches it is ignored (recovering from a
// missing `section`/`namespace`).
func (p *parser) end(kwIdx int, name string) {
	if len(p.stack) == 0 {
		p.diag(kwIdx, "unmatched `end`")
		return
	}
	keep := len(p.stack) - 1
	if name != "" {
		parts := splitName(strings.TrimPrefix(name, "_root_."))
		keep = -1
		for k := len(p.stack) - len(parts); k >= 0; k-- {
			ok := true
			for j, part := range parts {
				if p.stack[k+j].name != part {
					ok = false
					break
				}
			}
			if ok {
				keep = k
				break
			}
		}
		if keep < 0 {
			p.diag(kwIdx, "unmatched `end "+name+"`")
			return
		}
		if keep != len(p.stack)-len(parts) {
			p.diag(kwIdx, "`end "+name+"` closes unclosed inner scopes")
		}
	}
	e := p.stack[keep]
	p.stack = p.stack[:keep]
	p.ns, p.opens = e.ns, e.opens
	p.vars, p.varNames = e.vars, nil
	p.scope = -1
}

// openCmd parses an `open` command: the namespaces it opens, which of them
// for notation or some names only (`open scoped X`, `open X (a b)`), and
// the names it aliases (`open X (a)`, `open X renaming a → b`).
func (p *parser) openCmd(cmdCol int32, depth int) {
	next := p.opens
	scoped, last, copied := false, "", false
	alias := func(short, full string) {
		if !copied { // the map of the scope before is shared: copy it once
			m := make(map[string]string, len(p.opens.aliases)+1)
			for k, v := range p.opens.aliases {
				m[k] = v
			}
			next.aliases, copied = m, true
		}
		next.aliases[short] = full
	}
	stop := func() bool { return p.i >= len(p.toks) || p.isStarter(p.i, cmdCol) || p.is(p.i, "in") }
	for !stop() {
		switch {
		case p.is(p.i, "scoped"):
			scoped = true
			p.i++
		case p.is(p.i, "hiding"):
			p.i++
			for !stop() && !p.toks[p.i].BOL {
				p.i++
			}
		case p.is(p.i, "renaming"):
			p.i++
			for !stop() && !p.toks[p.i].BOL {
				if n := p.arrowAt(p.i + 1); last != "" && p.kind(p.i) == TokIdent && n > 0 && p.kind(p.i+1+n) == TokIdent {
					alias(p.text(p.i+1+n), last+"."+p.text(p.i))
					p.i += 1 + n
				}
				p.i++
			}
		case p.is(p.i, "("):
			// open Foo (a b): only these names; Foo is recorded as restricted.
			if last != "" && !scoped {
				next.restricted = append(next.restricted[:len(next.restricted):len(next.restricted)], last)
			}
			for p.i++; p.i < len(p.toks) && !p.is(p.i, ")") && !p.isStarter(p.i, cmdCol); p.i++ {
				if last != "" && p.kind(p.i) == TokIdent {
					alias(p.text(p.i), last+"."+p.text(p.i))
				}
			}
			if p.is(p.i, ")") {
				p.i++
			}
		case p.kind(p.i) == TokIdent:
			last = strings.TrimPrefix(p.text(p.i), "_root_.")
			next.all = append(next.all[:len(next.all):len(next.all)], last)
			if scoped {
				next.restricted = append(next.restricted[:len(next.restricted):len(next.restricted)], last)
			}
			p.i++
		default:
			p.i++
		}
	}
	// Lean also opens `cur.N` when it exists; the resolver tries both forms.
	if p.is(p.i, "in") {
		saved := p.opens
		p.opens, p.scope = next, -1
		p.i++
		if p.i < len(p.toks) && depth < 64 {
			p.command(depth + 1)
		}
		p.opens, p.scope = saved, -1
		return
	}
	p.opens = next
	p.scope = -1
}

// opens is what the `open` commands in force have opened (see Scope).
type opens struct {
	all, restricted []string
	aliases         map[string]string
}

// arrowAt returns how many tokens from i spell → or ->, or 0.
func (p *parser) arrowAt(i int) int {
	switch {
	case p.is(i, "→") || p.is(i, "->"):
		return 1
	case p.is(i, "-") && p.is(i+1, ">"):
		return 2
	}
	return 0
}

func (p *parser) exportCmd(cmdCol int32) {
	if p.kind(p.i) != TokIdent {
		p.skipTo(cmdCol)
		return
	}
	ex := Export{Namespace: p.ns, From: p.text(p.i)}
	p.i++
	if p.is(p.i, "(") {
		p.i++
		for p.i < len(p.toks) && !p.is(p.i, ")") && !p.isStarter(p.i, cmdCol) {
			if p.kind(p.i) == TokIdent {
				ex.Names = append(ex.Names, p.text(p.i))
			}
			p.i++
		}
	}
	if len(ex.Names) > 0 {
		p.file.Exports = append(p.file.Exports, ex)
	}
	p.skipTo(cmdCol)
}

// attributes parses @[...] into m.
func (p *parser) attributes(m *modifiers, cmdCol int32) {
	p.i++ // @[
	attrs, add := p.attrList(cmdCol)
	m.attrs = append(m.attrs, attrs...)
	if add != nil {
		m.additive = add
	}
}

// attrList parses comma-separated attributes up to the closing "]".
func (p *parser) attrList(cmdCol int32) ([]string, *Additive) {
	var attrs []string
	var add *Additive
	start := p.i
	depth := 0
	flush := func(end int) {
		if end <= start {
			return
		}
		isAdd := p.is(start, "to_additive") || p.is(start, "to_additive?")
		a := p.normText(start, end, isAdd)
		if a != "" {
			attrs = append(attrs, a)
		}
		if p.is(start, "to_additive") || p.is(start, "to_additive?") {
			add = p.additive(start+1, end)
		} else if (p.is(start, "local") || p.is(start, "scoped")) && p.is(start+1, "to_additive") {
			add = p.additive(start+2, end)
		}
	}
	for p.i < len(p.toks) {
		if p.i > start && p.isStarter(p.i, cmdCol) && !p.is(p.i, "instance") && !p.is(p.i, "class") {
			p.diag(p.i, "unterminated attribute list")
			flush(p.i)
			return attrs, add
		}
		switch {
		case p.is(p.i, "(") || p.is(p.i, "[") || p.is(p.i, "{") || p.is(p.i, "@["):
			depth++
		case p.is(p.i, ")") || p.is(p.i, "}"):
			depth--
		case p.is(p.i, "]"):
			if depth == 0 {
				flush(p.i)
				p.i++
				return attrs, add
			}
			depth--
		case p.is(p.i, ",") && depth == 0:
			flush(p.i)
			start = p.i + 1
		}
		p.i++
	}
	flush(p.i)
	return attrs, add
}

// additive parses the arguments of a to_additive attribute in tokens [from,to).
func (p *parser) additive(from, to int) *Additive {
	a := &Additive{}
	for i := from; i < to; i++ {
		switch {
		case p.is(i, "("):
			d := 0
			for ; i < to; i++ {
				if p.is(i, "(") {
					d++
				} else if p.is(i, ")") {
					d--
					if d == 0 {
						break
					}
				}
			}
		case p.is(i, "existing"):
			a.Existing = true
		case p.kind(i) == TokIdent && a.Name == "" && !p.is(i, "?"):
			a.Name = p.text(i)
		case p.kind(i) == TokString:
			a.Doc = unquote(p.text(i))
		case p.kind(i) == TokDoc:
			a.Doc = commentText(p.text(i), 3)
		}
	}
	return a
}

// attributeCmd parses `attribute [attrs] names`; under Mathlib's
// `scoped[NS]` modifier (m) each attribute is recorded as `scoped[NS] attr`.
func (p *parser) attributeCmd(m *modifiers, cmdCol int32) {
	if !p.is(p.i, "[") {
		p.skipTo(cmdCol)
		return
	}
	p.i++
	attrs, add := p.attrList(cmdCol)
	var names []string
	for p.i < len(p.toks) && p.kind(p.i) == TokIdent && !p.is(p.i, "in") && !p.isStarter(p.i, cmdCol) {
		names = append(names, p.text(p.i))
		p.i++
	}
	if len(names) > 0 {
		var clean []string
		for _, a := range attrs {
			if !strings.HasPrefix(a, "-") {
				if m.scopedNS != "" {
					a = "scoped[" + m.scopedNS + "] " + a // the command's modifier
				}
				clean = append(clean, a)
			}
		}
		if len(clean) > 0 {
			p.file.AttrCmds = append(p.file.AttrCmds, AttrCmd{Names: names, Attrs: clean, Additive: add, Scope: p.curScope()})
		}
	}
	if p.is(p.i, "in") {
		p.i++
		return
	}
	p.skipTo(cmdCol)
}

// normText renders tokens [from,to) as source text with whitespace and
// comments between tokens collapsed to single spaces. Strings are dropped
// when dropStrings is set.
func (p *parser) normText(from, to int, dropStrings bool) string {
	var b strings.Builder
	prevEnd := int32(-1)
	for i := from; i < to && i < len(p.toks); i++ {
		t := p.toks[i]
		if t.Kind == TokDoc || t.Kind == TokModDoc || (dropStrings && t.Kind == TokString) {
			continue
		}
		if prevEnd >= 0 && t.Start > prevEnd && b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.Write(p.src[t.Start:t.End])
		prevEnd = t.End
	}
	return b.String()
}

// binderGroups parses bracketed binder groups until a command starter or
// `in`. It is used for `variable`: it returns the new variables' groups,
// and the binder updates (`variable {x}`, a bracket around names already
// declared: only names and open, close set).
func (p *parser) binderGroups(cmdCol int32) (groups, updates []varGroup) {
	for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) && !p.is(p.i, "in") {
		open := p.text(p.i)
		closer := closerOf(open)
		if closer == "" {
			p.i++
			continue
		}
		start := p.i
		depth := 0
		for p.i < len(p.toks) {
			if p.i > start && p.isStarter(p.i, cmdCol) {
				break
			}
			if isOpen(p, p.i) {
				depth++
			} else if isClose(p, p.i) {
				depth--
				if depth == 0 {
					p.i++
					break
				}
			}
			p.i++
		}
		g := varGroup{text: p.normText(start, p.i, false), inst: open == "["}
		colon := -1
		for j := start + 1; j < p.i; j++ {
			if p.is(j, ":") && colon < 0 {
				colon = j
			}
		}
		if colon < 0 && !g.inst {
			// `variable {x}`: a binder update, no new variable
			if end := p.i - 1; end > start && isClose(p, end) {
				u := varGroup{open: open, close: p.text(end)}
				for j := start + 1; j < end; j++ {
					if p.kind(j) == TokIdent {
						u.names = append(u.names, p.text(j))
					}
				}
				updates = append(updates, u)
			}
			continue
		}
		g.open = open
		if end := p.i - 1; end > start && isClose(p, end) {
			g.close = p.text(end)
			if colon >= 0 {
				g.typ = p.normText(colon+1, end, false)
			}
		}
		nameEnd := colon
		if g.inst && colon < 0 {
			nameEnd = start + 1
		}
		for j := start + 1; j < nameEnd; j++ {
			if p.kind(j) == TokIdent {
				g.names = append(g.names, p.text(j))
			}
		}
		typeStart := start + 1
		if colon >= 0 {
			typeStart = colon + 1
		}
		for j := typeStart; j < p.i; j++ {
			if p.kind(j) == TokIdent {
				s := p.text(j)
				g.mention = append(g.mention, s)
				if !nonRefs[s] && !p.univs[s] {
					g.refs = append(g.refs, s)
				}
			}
		}
		groups = append(groups, g)
	}
	return groups, updates
}

// rebind applies binder updates to vars, as Lean's `variable {x}` does:
// each name's binder takes the update's brackets in place (a group of
// several names is split around it). vars itself is not modified (a
// scope's saved variables share its array).
func rebind(vars, updates []varGroup) []varGroup {
	if len(updates) == 0 {
		return vars
	}
	out := slices.Clone(vars)
	for _, u := range updates {
		for _, name := range u.names {
			gi := len(out) - 1 // the latest binder of that name
			for gi >= 0 && (out[gi].inst || !slices.Contains(out[gi].names, name)) {
				gi--
			}
			if gi < 0 {
				continue
			}
			g := out[gi]
			at := slices.Index(g.names, name)
			for j := range g.names {
				if g.names[j] == name {
					at = j // the last binder of the name is the one in scope
				}
			}
			var split []varGroup
			for j, n := range g.names {
				x := g
				x.names = []string{n}
				if j == at {
					x.open, x.close = u.open, u.close
				}
				x.text = x.open + n + x.close
				if x.typ != "" {
					x.text = x.open + n + " : " + x.typ + x.close
				}
				split = append(split, x)
			}
			out = slices.Replace(out, gi, gi+1, split...)
		}
	}
	return out
}

func closerOf(open string) string {
	switch open {
	case "(":
		return ")"
	case "{":
		return "}"
	case "[":
		return "]"
	case "⦃":
		return "⦄"
	case "{{":
		return "}}"
	}
	return ""
}

func isOpen(p *parser, i int) bool {
	t := p.toks[i]
	if t.Kind != TokSymbol {
		return false
	}
	switch string(p.src[t.Start:t.End]) {
	case "(", "[", "{", "⟨", "⦃", "@[", "⟦", "⁅":
		return true
	}
	return false
}

func isClose(p *parser, i int) bool {
	t := p.toks[i]
	if t.Kind != TokSymbol {
		return false
	}
	switch string(p.src[t.Start:t.End]) {
	case ")", "]", "}", "⟩", "⦄", "⟧", "⁆":
		return true
	}
	return false
}

// commentText strips the comment delimiters (prefix of length n, "-/" suffix)
// and surrounding whitespace.
func commentText(s string, n int) string {
	if len(s) < n {
		return ""
	}
	s = s[n:]
	s = strings.TrimSuffix(s, "-/")
	return strings.TrimSpace(s)
}

func unquote(s string) string {
	s = strings.TrimPrefix(s, "\"")
	s = strings.TrimSuffix(s, "\"")
	return strings.ReplaceAll(s, "\\n", "\n")
}
