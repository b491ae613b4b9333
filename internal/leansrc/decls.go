package leansrc

import (
	"strings"
)

var declKinds = map[string]string{
	"def": "def", "theorem": "theorem", "lemma": "theorem", "abbrev": "abbrev",
	"instance": "instance", "opaque": "opaque", "axiom": "axiom", "irreducible_def": "def",
	"example": "",
}

// qualify applies the current namespace to a declared name.
func (p *parser) qualify(name string) string {
	if strings.HasPrefix(name, "_root_.") {
		return name[len("_root_."):]
	}
	if p.ns == "" {
		return name
	}
	return p.ns + "." + name
}

// rangeOf returns the LSP range of tokens [from, to).
func (p *parser) rangeOf(from, to int) Range {
	if to > len(p.toks) {
		to = len(p.toks)
	}
	if from >= to {
		from = to - 1
	}
	for from < to-1 && p.toks[from].Kind == TokDoc {
		from++
	}
	return Range{Start: p.pos(int(p.toks[from].Start)), End: p.pos(int(p.toks[to-1].End))}
}

// isAlternative decides whether a "|" at index i in a header starts
// equation-compiler alternatives (rather than an absolute value |x|): it does
// when "=>" comes before ":=" at the same depth.
func (p *parser) isAlternative(i int, cmdCol int32) bool {
	depth := 0
	for j := i + 1; j < len(p.toks) && j < i+400; j++ {
		if p.isStarter(j, cmdCol) {
			return false
		}
		switch {
		case isOpen(p, j):
			depth++
		case isClose(p, j):
			depth--
		case depth == 0 && p.is(j, "=>"):
			return true
		case depth == 0 && p.is(j, ":="):
			return false
		}
	}
	return false
}

// header scans a declaration header from p.i to its terminator (":=", "|"
// alternatives, "where", "deriving" or the next command). It returns the
// terminator index (or -1) and leaves p.i on it.
func (p *parser) header(cmdCol int32, stopExtends, anyBar bool) (term int, colon int) {
	depth := 0
	colon = -1
	for p.i < len(p.toks) {
		if p.isStarter(p.i, cmdCol) {
			return -1, colon
		}
		if depth == 0 {
			switch {
			case p.is(p.i, ":=") || p.is(p.i, "where") || p.is(p.i, "deriving"):
				return p.i, colon
			case p.is(p.i, "|") && (anyBar || p.isAlternative(p.i, cmdCol)):
				return p.i, colon
			case p.is(p.i, ":") && colon < 0:
				colon = p.i
			case stopExtends && p.is(p.i, "extends"):
				return p.i, colon
			}
		}
		if isOpen(p, p.i) {
			depth++
		} else if isClose(p, p.i) && depth > 0 {
			depth--
		}
		p.i++
	}
	return -1, colon
}

// body advances over a body to the next command; when stopWhere is set it
// stops at a depth-0 `where` (auxiliary definitions follow).
func (p *parser) body(cmdCol int32, stopWhere bool) {
	depth := 0
	for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) {
		if isOpen(p, p.i) {
			depth++
		} else if isClose(p, p.i) && depth > 0 {
			depth--
		} else if stopWhere && depth == 0 && p.is(p.i, "where") {
			return
		}
		p.i++
	}
}

// relevantVars returns the `variable` groups a header mentions, following
// Lean's rule: a variable is included when mentioned; an instance binder when
// every variable it mentions is included.
func (p *parser) relevantVars(from, to int) []varGroup {
	if len(p.vars) == 0 {
		return nil
	}
	bound := map[string]bool{}
	p.locals(from, to, true, bound)
	mentioned := map[string]bool{}
	for i := from; i < to; i++ {
		if p.kind(i) == TokIdent && !p.gluedParen(i) {
			s := p.text(i)
			if d := strings.IndexByte(s, '.'); d > 0 {
				s = s[:d]
			}
			if !bound[s] {
				mentioned[s] = true
			}
		}
	}
	if p.varNames == nil {
		p.varNames = map[string]bool{}
		for _, g := range p.vars {
			for _, n := range g.names {
				p.varNames[n] = true
			}
		}
	}
	isVar := p.varNames
	included := make([]bool, len(p.vars))
	for changed := true; changed; {
		changed = false
		for gi := range p.vars {
			if included[gi] {
				continue
			}
			g := &p.vars[gi]
			inc := false
			for _, n := range g.names {
				if mentioned[n] {
					inc = true
				}
			}
			if !inc && g.inst {
				any, all := false, true
				for _, m := range g.mention {
					if isVar[m] {
						any = true
						if !mentioned[m] {
							all = false
						}
					}
				}
				inc = any && all
			}
			if inc {
				included[gi] = true
				changed = true
				for _, m := range g.mention {
					if !bound[m] {
						mentioned[m] = true
					}
				}
			}
		}
	}
	var out []varGroup
	for gi := range p.vars {
		if !included[gi] {
			continue
		}
		g := p.vars[gi]
		var used []string
		for _, n := range g.names {
			if mentioned[n] {
				used = append(used, n)
			}
		}
		if !g.inst && len(used) > 0 && len(used) < len(g.names) && g.typ != "" {
			// {α β γ : Type*} with only β used shows as {β : Type*}
			g.text = g.open + strings.Join(used, " ") + " : " + g.typ + g.close
		}
		out = append(out, g)
	}
	return out
}

// gluedParen reports whether token i, an identifier, has `(` right after
// it: Lean 4 reads no application there (`f(x)` is not allowed), so it is
// a notation's token (Mathlib's `C(α, β)`), no use of a variable.
func (p *parser) gluedParen(i int) bool {
	return i+1 < len(p.toks) && p.toks[i+1].Start == p.toks[i].End && p.is(i+1, "(")
}

// statement fills d's Signature (head, then the section variables the header
// uses, then the normalised header tokens [from,to)), StmtRefs and StmtOps.
// self, if not "", is the declaration's own name, which is not a reference.
// It returns the names bound by the section variables and the header, for
// the body.
func (p *parser) statement(d *Decl, head, self string, from, to int) map[string]bool {
	vars := p.relevantVars(from, to)
	var sig strings.Builder
	sig.WriteString(head)
	for _, g := range vars {
		sig.WriteByte(' ')
		sig.WriteString(g.text)
	}
	if h := p.normText(from, to, false); h != "" {
		sig.WriteByte(' ')
		sig.WriteString(h)
	}
	d.Signature = sig.String()
	locals := map[string]bool{}
	for _, g := range p.vars {
		for _, n := range g.names {
			locals[n] = true
		}
	}
	p.locals(from, to, true, locals)
	seen := map[string]bool{}
	if self != "" {
		seen[self] = true
	}
	for _, g := range vars {
		for _, r := range g.refs {
			if !seen[r] && !locals[r] {
				seen[r] = true
				d.StmtRefs = append(d.StmtRefs, r)
			}
		}
	}
	d.StmtRefs = append(d.StmtRefs, p.refs(from, to, locals, seen)...)
	d.StmtOps = p.ops(from, to)
	return locals
}

// locals collects names bound in tokens [from,to): binder groups of a
// header (when header is set), binders of ∀/∃/fun/∑…, and names introduced
// by common tactics.
func (p *parser) locals(from, to int, header bool, set map[string]bool) {
	depth := 0
	for i := from; i < to; i++ {
		t := p.toks[i]
		if header && t.Kind == TokSymbol && depth == 0 && closerOf(p.text(i)) != "" {
			// (a b : T), {a}, ⦃a b⦄, [inst : C]
			j := i + 1
			for ; j < to && p.kind(j) == TokIdent; j++ {
			}
			if p.is(j, ":") || (j < to && closerOf(p.text(i)) == p.text(j) && p.text(i) != "[") {
				for k := i + 1; k < j; k++ {
					set[p.text(k)] = true
				}
			}
		}
		if isOpen(p, i) {
			depth++
		} else if isClose(p, i) && depth > 0 {
			depth--
		}
		if t.Kind != TokIdent && t.Kind != TokSymbol {
			continue
		}
		s := p.text(i)
		switch {
		case binderIntro[s]:
			i = p.binderNames(i+1, to, set) - 1
		case tacticIntro[s]:
			for j := i + 1; j < to && !p.toks[j].BOL; j++ {
				if p.is(j, ":=") || p.is(j, ":") || p.is(j, "=>") || p.is(j, "from") || p.is(j, "using") {
					break
				}
				if p.kind(j) == TokIdent && !strings.Contains(p.text(j), ".") {
					set[p.text(j)] = true
				}
			}
		case s == "|" && !header:
			// match alternative: | pat => … binds the pattern's plain names
			// (constructors are usually written qualified or with a dot).
			for j := i + 1; j < to && j < i+40; j++ {
				if p.is(j, "=>") || p.is(j, "|") || p.is(j, ":=") {
					break
				}
				if p.kind(j) == TokIdent && !strings.Contains(p.text(j), ".") {
					set[p.text(j)] = true
				}
			}
		}
	}
}

// binderNames records the names bound after a binder keyword and returns
// the index where the binder list ends.
func (p *parser) binderNames(i, to int, set map[string]bool) int {
	depth := 0
	afterColon := false
	afterPred := false
	for ; i < to; i++ {
		if depth == 0 && (p.is(i, ",") || p.is(i, "=>") || p.is(i, "↦")) {
			return i + 1
		}
		switch {
		case isOpen(p, i):
			depth++
			continue
		case isClose(p, i):
			depth--
			afterColon = false
			if depth < 0 {
				return i
			}
			continue
		case p.is(i, ":"):
			afterColon = true
			continue
		case depth == 0 && (p.is(i, "∈") || p.is(i, "in") || p.is(i, "∉") || p.is(i, "<") || p.is(i, "≤") ||
			p.is(i, ">") || p.is(i, "≥") || p.is(i, "≠") || p.is(i, "⊆") || p.is(i, "⊂")):
			afterPred = true
			continue
		}
		if p.kind(i) == TokIdent && !afterColon && !afterPred {
			set[p.text(i)] = true
		}
	}
	return i
}

// refs returns the distinct identifiers used in tokens [from,to), excluding
// locals, keywords, field projections and named arguments.
func (p *parser) refs(from, to int, locals map[string]bool, seen map[string]bool) []string {
	var out []string
	for i := from; i < to && i < len(p.toks); i++ {
		t := p.toks[i]
		if t.Kind != TokIdent {
			continue
		}
		s := string(p.src[t.Start:t.End])
		if nonRefs[s] || locals[s] || seen[s] || p.univs[s] {
			continue
		}
		if d := strings.IndexByte(s, '.'); d > 0 && locals[s[:d]] {
			continue
		}
		if i > 0 && p.toks[i-1].End == t.Start && p.is(i-1, ".") {
			continue
		}
		if p.is(i+1, ":=") && i > 0 && (p.is(i-1, "(") || p.is(i-1, ",")) {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// opPunct are symbols that never belong to an operator word.
var opPunct = map[string]bool{"(": true, ")": true, "[": true, "]": true, "{": true, "}": true, "⟨": true, "⟩": true,
	",": true, ":": true, ":=": true, "@[": true, "⦃": true, "⦄": true, ".": true, "=>": true}

// ops returns the distinct operator words of tokens [from,to): maximal runs
// of adjacent symbol tokens without punctuation.
func (p *parser) ops(from, to int) []string {
	var out []string
	for i := from; i < to && i < len(p.toks); i++ {
		if p.kind(i) != TokSymbol || opPunct[p.text(i)] {
			continue
		}
		j := i + 1
		for j < to && p.kind(j) == TokSymbol && p.toks[j].Start == p.toks[j-1].End && !opPunct[p.text(j)] {
			j++
		}
		w := string(p.src[p.toks[i].Start:p.toks[j-1].End])
		if !containsString(out, w) {
			out = append(out, w)
		}
		i = j - 1
	}
	return out
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// declaration parses def/theorem/lemma/abbrev/instance/opaque/axiom/example.
func (p *parser) declaration(m *modifiers, kwIdx int, cmdCol int32) {
	kw := p.text(kwIdx)
	kind := declKinds[kw]
	p.i = kwIdx + 1
	if kw == "instance" && p.is(p.i, "(") && p.is(p.i+1, "priority") {
		for p.i < len(p.toks) && !p.is(p.i, ")") && !p.isStarter(p.i, cmdCol) {
			p.i++
		}
		if p.is(p.i, ")") {
			p.i++
		}
	}
	nameIdx := -1
	if kind != "" && p.kind(p.i) == TokIdent && !p.isStarter(p.i, cmdCol) {
		nameIdx = p.i
		p.i++
	}
	if kind == "" {
		p.header(cmdCol, false, false)
		p.body(cmdCol, false)
		return
	}
	if nameIdx < 0 && kw != "instance" {
		p.diag(kwIdx, kw+" without a name")
		p.skipTo(cmdCol)
		return
	}
	headerStart := p.i
	term, colon := p.header(cmdCol, false, false)
	headerEnd := p.i
	bodyStart := p.i
	if term >= 0 {
		bodyStart = term + 1
		if p.is(term, "|") {
			bodyStart = term
		}
		p.i = bodyStart
		p.body(cmdCol, !p.is(term, "where"))
	}
	bodyEnd := p.i

	d := Decl{Kind: kind, Doc: m.doc, Attrs: m.attrs, Private: m.private, Protected: m.protected, Additive: m.additive}
	if nameIdx >= 0 {
		d.Name = p.qualify(p.text(nameIdx))
	} else {
		d.Anonymous = true
		tyStart := headerStart
		if colon >= 0 {
			tyStart = colon + 1
		}
		d.Name = p.qualify(p.instanceName(tyStart, headerEnd))
	}
	d.Scope = p.curScope()
	head, self := kw, ""
	if kw == "lemma" {
		head = "theorem"
	}
	if nameIdx >= 0 {
		head += " " + d.Name
		self = p.text(nameIdx)
	}
	locals := p.statement(&d, head, self, headerStart, headerEnd)
	p.locals(bodyStart, bodyEnd, false, locals)
	d.ProofRefs = p.refs(bodyStart, bodyEnd, locals, map[string]bool{})
	d.Range = p.rangeOf(m.start, bodyEnd)
	if (kind == "def" || kind == "abbrev") && term >= 0 && p.is(term, ":=") {
		d.Value = p.value(bodyStart, bodyEnd, self)
	}
	p.file.Decls = append(p.file.Decls, d)

	if p.is(p.i, "where") && !p.isStarter(p.i, cmdCol) {
		p.i++
		p.whereDecls(d.Name, kind, cmdCol)
	}
}

// value returns the body text of tokens [from,to) when it is short and does
// not refer to the definition itself or need a termination proof.
func (p *parser) value(from, to int, self string) string {
	if from >= to || to > len(p.toks) {
		return ""
	}
	start, end := int(p.toks[from].Start), int(p.toks[to-1].End)
	if end-start > MaxValue {
		return ""
	}
	for i := from; i < to; i++ {
		if p.kind(i) == TokIdent && (p.text(i) == self || p.text(i) == "termination_by" || p.text(i) == "decreasing_by") {
			return ""
		}
	}
	return string(p.src[start:end])
}

// whereDecls parses auxiliary definitions after `where`.
func (p *parser) whereDecls(parent, kind string, cmdCol int32) {
	if kind != "theorem" {
		kind = "def"
	}
	for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) {
		start := p.i
		doc := ""
		if p.kind(p.i) == TokDoc {
			doc = commentText(p.text(p.i), 3)
			p.i++
		}
		var m modifiers
		for p.is(p.i, "@[") {
			p.attributes(&m, cmdCol)
		}
		for p.is(p.i, "private") || p.is(p.i, "protected") || p.is(p.i, "noncomputable") || p.is(p.i, "partial") {
			p.i++
		}
		if p.kind(p.i) != TokIdent || p.isStarter(p.i, cmdCol) {
			p.body(cmdCol, false)
			return
		}
		if p.is(p.i, "termination_by") || p.is(p.i, "decreasing_by") {
			// belongs to the previous auxiliary definition
			col := p.toks[p.i].Col
			p.i++
			for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) && !(p.toks[p.i].BOL && p.toks[p.i].Col <= col) {
				p.i++
			}
			continue
		}
		itemCol := p.toks[p.i].Col
		name := p.text(p.i)
		p.i++
		hs := p.i
		term, _ := p.header(cmdCol, false, false)
		he := p.i
		bs := p.i
		if term >= 0 {
			p.i++
			bs = p.i
			for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) && !(p.toks[p.i].BOL && p.toks[p.i].Col <= itemCol) {
				p.i++
			}
		}
		d := Decl{Name: parent + "." + name, Kind: kind, Doc: doc, Attrs: m.attrs, Scope: p.curScope()}
		d.Signature = kind + " " + d.Name
		if h := p.normText(hs, he, false); h != "" {
			d.Signature += " " + h
		}
		locals := map[string]bool{}
		p.locals(hs, he, true, locals)
		d.StmtRefs = p.refs(hs, he, locals, map[string]bool{name: true})
		p.locals(bs, p.i, false, locals)
		d.ProofRefs = p.refs(bs, p.i, locals, map[string]bool{})
		d.Range = p.rangeOf(start, p.i)
		p.file.Decls = append(p.file.Decls, d)
		if p.i == start {
			p.i++
		}
	}
}

// instanceSymbols maps notation for common types to the names Lean uses
// when it generates instance names.
var instanceSymbols = map[string]string{
	"ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℝ": "Real", "ℂ": "Complex", "→": "Forall", "×": "Prod",
	"ℝ≥0": "NNReal", "ℝ≥0∞": "ENNReal",
}

// instanceName approximates the name Lean generates for an anonymous
// instance: "inst" followed by the capitalised constants of its type,
// omitting those already named by the current namespace.
func (p *parser) instanceName(from, to int) string {
	var b strings.Builder
	b.WriteString("inst")
	inNS := map[string]bool{}
	for _, c := range splitName(p.ns) {
		inNS[c] = true
	}
	for i := from; i < to && b.Len() < 80; i++ {
		s := p.text(i)
		if p.kind(i) == TokIdent {
			if nonRefs[s] {
				continue
			}
			if d := strings.LastIndexByte(s, '.'); d >= 0 {
				s = s[d+1:]
			}
			if s == "" || !(s[0] >= 'A' && s[0] <= 'Z') || inNS[s] {
				continue
			}
			b.WriteString(s)
		} else if n, ok := instanceSymbols[s]; ok {
			b.WriteString(n)
		}
	}
	return b.String()
}

// declName reads and qualifies the declared name at p.i. Without one it
// reports "<what> without a name", skips the command and returns false.
func (p *parser) declName(kwIdx int, cmdCol int32, what string) (string, bool) {
	if p.kind(p.i) != TokIdent || p.isStarter(p.i, cmdCol) {
		p.diag(kwIdx, what+" without a name")
		p.skipTo(cmdCol)
		return "", false
	}
	full := p.qualify(p.text(p.i))
	p.i++
	return full, true
}

// structure parses `structure` and `class` declarations with their fields,
// constructor and parent projections.
func (p *parser) structure(m *modifiers, kwIdx int, cmdCol int32, kw string) {
	p.i++
	for p.i < len(p.toks) && p.is(p.i, "abbrev") {
		p.i++
	}
	full, ok := p.declName(kwIdx, cmdCol, kw)
	if !ok {
		return
	}
	headerStart := p.i
	term, _ := p.header(cmdCol, true, false)
	var parents []string
	if term >= 0 && p.is(term, "extends") {
		p.i++
		ps := p.i
		term, _ = p.header(cmdCol, false, false)
		depth := 0
		head := true
		for j := ps; j < p.i; j++ {
			switch {
			case isOpen(p, j):
				depth++
			case isClose(p, j):
				depth--
			case depth == 0 && p.is(j, ","):
				head = true
				continue
			case depth == 0 && p.is(j, ":"):
				head = false
			}
			if head && depth == 0 && p.kind(j) == TokIdent {
				parents = append(parents, p.text(j))
				head = false
			}
		}
	}
	headerEnd := p.i
	sd := Decl{Name: full, Kind: kw, Doc: m.doc, Attrs: m.attrs, Private: m.private, Protected: m.protected, Additive: m.additive, Scope: p.curScope()}
	locals := p.statement(&sd, kw+" "+full, "", headerStart, headerEnd)
	var fields []Decl
	ctor := "mk"
	ctorIdx := -1
	if term >= 0 && (p.is(term, "where") || p.is(term, ":=")) {
		p.i = term + 1
		j := p.i
		for p.kind(j) == TokDoc || p.is(j, "private") || p.is(j, "protected") {
			j++
		}
		if p.kind(j) == TokIdent && p.is(j+1, "::") {
			ctor = p.text(j)
			ctorIdx = j
			p.i = j + 2
		}
		fields = p.fields(full, cmdCol, locals)
	}
	if p.is(p.i, "deriving") {
		p.body(cmdCol, false)
	}
	sd.Range = p.rangeOf(m.start, p.i)
	var bodyRefs []string
	seenB := map[string]bool{}
	for _, f := range fields {
		for _, r := range f.StmtRefs {
			if !seenB[r] {
				seenB[r] = true
				bodyRefs = append(bodyRefs, r)
			}
		}
	}
	sd.ProofRefs = bodyRefs
	p.file.Decls = append(p.file.Decls, sd)
	cd := Decl{Name: full + "." + ctor, Kind: "constructor", Parent: full, Scope: sd.Scope, Range: sd.Range,
		Signature: "constructor " + full + "." + ctor, StmtRefs: []string{}}
	if ctorIdx >= 0 {
		cd.Range = p.rangeOf(ctorIdx, ctorIdx+1)
	}
	p.file.Decls = append(p.file.Decls, cd)
	for _, par := range parents {
		last := par
		if d := strings.LastIndexByte(last, '.'); d >= 0 {
			last = last[d+1:]
		}
		p.file.Decls = append(p.file.Decls, Decl{Name: full + ".to" + strings.Trim(last, "«»"), Kind: "field", Parent: full,
			Scope: sd.Scope, Range: sd.Range, Signature: "field " + full + ".to" + strings.Trim(last, "«»") + " : " + par, StmtRefs: []string{par}})
	}
	p.file.Decls = append(p.file.Decls, fields...)
}

// fields parses structure fields until the next command.
func (p *parser) fields(full string, cmdCol int32, outer map[string]bool) []Decl {
	var out []Decl
	fieldCol := int32(-1)
	for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) {
		start := p.i
		doc := ""
		var m modifiers
		for {
			if p.kind(p.i) == TokDoc {
				doc = commentText(p.text(p.i), 3)
				p.i++
			} else if p.is(p.i, "@[") {
				p.attributes(&m, cmdCol)
			} else if p.is(p.i, "protected") || p.is(p.i, "private") {
				if p.is(p.i, "protected") {
					m.protected = true
				} else {
					m.private = true
				}
				p.i++
			} else {
				break
			}
		}
		if p.i >= len(p.toks) || p.isStarter(p.i, cmdCol) {
			break
		}
		if p.is(p.i, "deriving") {
			return out
		}
		if fieldCol < 0 {
			fieldCol = p.toks[p.i].Col
		}
		var names []string
		itemStart := p.i
		bracket := false
		if open := p.text(p.i); closerOf(open) != "" && p.kind(p.i) == TokSymbol {
			bracket = true
			for j := p.i + 1; j < len(p.toks) && p.kind(j) == TokIdent; j++ {
				names = append(names, p.text(j))
			}
		} else {
			for p.kind(p.i) == TokIdent && !p.isStarter(p.i, cmdCol) {
				names = append(names, p.text(p.i))
				p.i++
			}
		}
		nameEnd := p.i
		depth := 0
		for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) {
			t := p.toks[p.i]
			if p.i > itemStart && depth == 0 && t.BOL && t.Col <= fieldCol {
				break
			}
			if isOpen(p, p.i) {
				depth++
			} else if isClose(p, p.i) && depth > 0 {
				depth--
				if bracket && depth == 0 {
					p.i++
					break // `(a b : T)`: one binder-style group per item
				}
			}
			p.i++
		}
		if p.i == start {
			p.i++
		}
		rest := p.normText(nameEnd, p.i, false)
		locals := map[string]bool{}
		for k, v := range outer {
			locals[k] = v
		}
		p.locals(nameEnd, p.i, true, locals)
		seen := map[string]bool{}
		for _, n := range names {
			seen[n] = true
		}
		refs := p.refs(nameEnd, p.i, locals, seen)
		ops := p.ops(nameEnd, p.i)
		for _, n := range names {
			fd := Decl{Name: full + "." + n, Kind: "field", Parent: full, Doc: doc, Attrs: m.attrs, Protected: m.protected,
				Private: m.private, Scope: p.curScope(), StmtRefs: refs, StmtOps: ops, Range: p.rangeOf(start, p.i)}
			fd.Signature = "field " + fd.Name
			if rest != "" {
				fd.Signature += " " + rest
			}
			out = append(out, fd)
		}
	}
	return out
}

// inductive parses `inductive` and `class inductive` with constructors.
func (p *parser) inductive(m *modifiers, kwIdx int, cmdCol int32, kind string) {
	for !p.is(p.i, "inductive") {
		p.i++
	}
	p.i++
	full, ok := p.declName(kwIdx, cmdCol, "inductive")
	if !ok {
		return
	}
	headerStart := p.i
	term, _ := p.header(cmdCol, false, true)
	headerEnd := p.i
	d := Decl{Name: full, Kind: kind, Doc: m.doc, Attrs: m.attrs, Private: m.private, Protected: m.protected, Additive: m.additive, Scope: p.curScope()}
	kw := "inductive"
	if kind == "class inductive" {
		kw = "class inductive"
	}
	locals := p.statement(&d, kw+" "+full, "", headerStart, headerEnd)
	if term >= 0 && (p.is(term, "where") || p.is(term, ":=")) {
		p.i = term + 1
	}
	var ctors []Decl
	doc := ""
	docIdx := -1
	for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) {
		switch {
		case p.kind(p.i) == TokDoc:
			doc = commentText(p.text(p.i), 3)
			docIdx = p.i
			p.i++
		case p.is(p.i, "deriving"):
			p.body(cmdCol, false)
		case p.is(p.i, "|"):
			start := p.i
			if docIdx >= 0 && docIdx == start-1 {
				start = docIdx
			}
			p.i++
			var cm modifiers
			for p.is(p.i, "@[") {
				p.attributes(&cm, cmdCol)
			}
			prot := false
			for p.is(p.i, "protected") || p.is(p.i, "private") {
				prot = prot || p.is(p.i, "protected")
				p.i++
			}
			if p.kind(p.i) != TokIdent || p.isStarter(p.i, cmdCol) {
				continue
			}
			name := p.text(p.i)
			p.i++
			rs := p.i
			depth := 0
			for p.i < len(p.toks) && !p.isStarter(p.i, cmdCol) {
				if depth == 0 && (p.is(p.i, "|") || p.kind(p.i) == TokDoc || p.is(p.i, "deriving")) {
					break
				}
				if isOpen(p, p.i) {
					depth++
				} else if isClose(p, p.i) && depth > 0 {
					depth--
				}
				p.i++
			}
			cl := map[string]bool{}
			for k, v := range locals {
				cl[k] = v
			}
			p.locals(rs, p.i, true, cl)
			cd := Decl{Name: full + "." + name, Kind: "constructor", Parent: full, Doc: doc, Attrs: cm.attrs, Protected: prot,
				Scope: d.Scope, Range: p.rangeOf(start, p.i), StmtRefs: p.refs(rs, p.i, cl, map[string]bool{full: true}), StmtOps: p.ops(rs, p.i)}
			cd.Signature = "constructor " + cd.Name
			if r := p.normText(rs, p.i, false); r != "" {
				cd.Signature += " " + r
			}
			ctors = append(ctors, cd)
			doc, docIdx = "", -1
		default:
			p.i++
		}
	}
	d.Range = p.rangeOf(m.start, p.i)
	p.file.Decls = append(p.file.Decls, d)
	p.file.Decls = append(p.file.Decls, ctors...)
}

// notation parses notation/infix/prefix/postfix commands into a symbol →
// constant mapping.
func (p *parser) notation(m *modifiers, kwIdx int, cmdCol int32) {
	kw := p.text(kwIdx)
	p.i = kwIdx + 1
	name := ""
	if p.is(p.i, ":") {
		p.i += 2
	}
	for p.is(p.i, "(") {
		if p.is(p.i+1, "name") && p.is(p.i+2, ":=") && p.kind(p.i+3) == TokIdent {
			name = p.text(p.i + 3)
		}
		for p.i < len(p.toks) && !p.is(p.i, ")") && !p.isStarter(p.i, cmdCol) {
			p.i++
		}
		p.i++
	}
	var pattern []string
	var atoms []string
	var gen strings.Builder
	gen.WriteString("term")
	args := map[string]bool{}
	for p.i < len(p.toks) && !p.is(p.i, "=>") && !p.isStarter(p.i, cmdCol) {
		switch p.kind(p.i) {
		case TokString:
			a := strings.TrimSpace(unquote(p.text(p.i)))
			if a != "" {
				atoms = append(atoms, a)
				pattern = append(pattern, a)
				gen.WriteString(a)
			}
		case TokIdent:
			a := p.text(p.i)
			args[a] = true
			pattern = append(pattern, a)
			gen.WriteString("_")
			if p.is(p.i+1, ":") {
				p.i += 2 // precedence
				continue
			}
		}
		p.i++
	}
	if !p.is(p.i, "=>") {
		p.skipTo(cmdCol)
		return
	}
	p.i++
	rs := p.i
	p.body(cmdCol, false)
	symbol := strings.Join(pattern, " ")
	switch kw {
	case "infix", "infixl", "infixr":
		symbol = strings.Join(pattern, " ")
		name2 := "term_" + symbol + "_"
		if name == "" {
			name = "«" + name2 + "»"
		}
	case "prefix":
		if name == "" {
			name = "«term" + symbol + "_»"
		}
	case "postfix":
		if name == "" {
			name = "«term_" + symbol + "»"
		}
	default:
		if name == "" {
			name = "«" + gen.String() + "»"
		}
	}
	if symbol == "" {
		return
	}
	locals := map[string]bool{}
	for a := range args {
		locals[a] = true
	}
	p.locals(rs, p.i, false, locals)
	full := p.qualify(name)
	if m.scopedNS != "" {
		full = m.scopedNS + "." + name
	}
	d := Decl{Name: full, Kind: "notation", Symbol: symbol, Atoms: atoms, Local: m.local, Scoped: m.scoped, Doc: m.doc, Attrs: m.attrs, Scope: p.curScope(),
		Signature: p.normText(kwIdx, p.i, false), StmtRefs: p.refs(rs, p.i, locals, map[string]bool{}), Range: p.rangeOf(m.start, p.i)}
	if len(d.Signature) > 300 {
		d.Signature = d.Signature[:300]
	}
	p.file.Decls = append(p.file.Decls, d)
}

// alias parses `alias name := target` and `alias ⟨a, b⟩ := target`.
func (p *parser) alias(m *modifiers, kwIdx int, cmdCol int32) {
	p.i = kwIdx + 1
	var names []string
	if p.is(p.i, "⟨") {
		p.i++
		for p.i < len(p.toks) && !p.is(p.i, "⟩") && !p.isStarter(p.i, cmdCol) {
			if p.kind(p.i) == TokIdent && p.text(p.i) != "_" {
				names = append(names, p.text(p.i))
			}
			p.i++
		}
		p.i++
	} else if p.kind(p.i) == TokIdent && !p.isStarter(p.i, cmdCol) {
		names = append(names, p.text(p.i))
		p.i++
	}
	if !p.is(p.i, ":=") || p.kind(p.i+1) != TokIdent {
		p.skipTo(cmdCol)
		return
	}
	target := p.text(p.i + 1)
	p.i += 2
	p.skipTo(cmdCol)
	for _, n := range names {
		d := Decl{Name: p.qualify(n), Kind: "alias", Parent: target, Doc: m.doc, Attrs: m.attrs, Private: m.private,
			Protected: m.protected, Additive: m.additive, Scope: p.curScope(), StmtRefs: []string{target},
			Range: p.rangeOf(m.start, p.i)}
		d.Signature = "alias " + d.Name + " := " + target
		p.file.Decls = append(p.file.Decls, d)
	}
}
