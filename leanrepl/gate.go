package leanrepl

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxStubBytes is the largest stub the gate accepts.
const MaxStubBytes = 64 << 10

// AllowedAttributes are the attributes a stub may carry; everything else
// (extern, implemented_by, init, macro, …) is rejected.
var AllowedAttributes = map[string]bool{
	"simp": true, "norm_cast": true, "push_cast": true, "ext": true, "gcongr": true, "mono": true,
	"continuity": true, "measurability": true, "fun_prop": true, "to_additive": true, "nolint": true,
}

// Binder is one bracketed (or bare) binder of a stub's signature.
type Binder struct {
	// Bracket is "(", "{", "[", "⦃", "{{" or "" for a bare name.
	Bracket string
	// Names are the bound names ("_" for anonymous; empty for an instance
	// binder such as [Group G]).
	Names []string
	// Type is the binder's type text ("" when omitted).
	Type string
	// Default is the text after := in a default-argument binder (x : T := v).
	Default string
	// Start and End are the binder's byte range in the stub.
	Start, End int
}

// Stub is a statement that passed the gate: one theorem, lemma or example
// whose proof is exactly `sorry`.
type Stub struct {
	// Text is the stub, trimmed of surrounding whitespace.
	Text string
	// Keyword is "theorem", "lemma" or "example".
	Keyword string
	// Name is the declared name ("" for example); NameStart/NameEnd its range.
	Name               string
	NameStart, NameEnd int
	// Doc is the doc comment, including its delimiters, or "".
	Doc string
	// Attrs are the attribute names, in order.
	Attrs []string
	// Modifiers are `private` or `protected` when present.
	Modifiers []string
	Binders   []Binder
	// Type is the statement after the signature's colon; TypeStart/TypeEnd
	// its byte range in Text.
	Type               string
	TypeStart, TypeEnd int
	// ProofStart is the offset of the `:=` that starts the proof.
	ProofStart int

	toks []token
}

// GateError explains why the gate rejected a stub.
type GateError struct {
	// Reason is a short, specific explanation.
	Reason string
	// Offset is the byte offset in the trimmed stub the reason refers to
	// (-1 when it concerns the whole stub).
	Offset int
}

// Error implements error.
func (e *GateError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("rejected by the safety gate at byte %d: %s", e.Offset, e.Reason)
	}
	return "rejected by the safety gate: " + e.Reason
}

func reject(off int, format string, args ...any) error {
	return &GateError{Reason: fmt.Sprintf(format, args...), Offset: off}
}

// rule is the safety policy for one word: why it may not appear in a stub
// and whether it could run code or change the environment anywhere in
// generated text (runsCode) or only breaks the one-declaration shape.
type rule struct {
	why      string
	runsCode bool
}

// forbidden is THE safety policy for words in generated Lean: the gate
// rejects every one of them in a stub, and Screen rejects those that run
// code anywhere in a model's answer.
var forbidden = map[string]rule{
	"def": {"a definition", false}, "abbrev": {"a definition", false}, "instance": {"an instance", true},
	"axiom": {"an axiom", true}, "opaque": {"an opaque constant", true}, "structure": {"a structure", false},
	"class": {"a class", false}, "inductive": {"an inductive type", false}, "open": {"an `open` command", false},
	"import": {"an import", false}, "namespace": {"a namespace", false}, "section": {"a section", false},
	"end": {"an `end` command", false}, "variable": {"a variable command", false}, "universe": {"a universe command", false},
	"set_option": {"set_option", true}, "attribute": {"an attribute command", true}, "macro": {"a macro", true},
	"macro_rules": {"macro_rules", true}, "syntax": {"a syntax declaration", true}, "elab": {"an elaborator", true},
	"elab_rules": {"elab_rules", true}, "notation": {"a notation", true}, "infix": {"a notation", true},
	"infixl": {"a notation", true}, "infixr": {"a notation", true}, "prefix": {"a notation", true},
	"postfix": {"a notation", true}, "initialize": {"an initializer", true}, "builtin_initialize": {"an initializer", true},
	"run_cmd": {"run_cmd", true}, "run_tac": {"run_tac", true}, "run_elab": {"run_elab", true}, "run_meta": {"run_meta", true},
	"unsafe": {"unsafe code", true}, "partial": {"a partial definition", false}, "noncomputable": {"noncomputable", false},
	"mutual": {"a mutual block", false}, "termination_by": {"termination_by", false}, "decreasing_by": {"decreasing_by", false},
	"export": {"an export command", false}, "declare_syntax_cat": {"a syntax category", true}, "by_elab": {"a by_elab term", true},
	"deriving": {"a deriving clause", false}, "where": {"a where clause", false}, "do": {"do-notation", false},
	"omit": {"an omit command", false}, "include": {"an include command", false}, "theorem": {"a second declaration", false},
	"lemma": {"a second declaration", false}, "example": {"a second declaration", false}, "nonrec": {"nonrec", false},
}

// codeAttributes are attributes that make Lean run or link code; Screen
// rejects them anywhere (the gate admits only AllowedAttributes anyway).
var codeAttributes = map[string]bool{"extern": true, "implemented_by": true, "init": true, "builtin_init": true, "export": true}

// Screen rejects Lean text from an untrusted source (a model's answer)
// that holds, anywhere, a construct that could run code or change the
// environment: a hash command (#eval, #print, …), run_cmd and its kin,
// macros, elaborators, syntax and notations, initializers, set_option,
// attribute commands, instances, axioms, unsafe code, or an attribute such
// as extern or implemented_by. Declarations, imports and `open`s are left
// to the gate, which every stub passes before Lean sees it. The error is a
// *GateError.
func Screen(code string) error {
	toks, _ := lex(code)
	for i, t := range toks {
		switch t.kind {
		case tHash:
			return reject(t.start, "the command %s", t.text)
		case tKeyword:
			if r, ok := forbidden[t.text]; ok && r.runsCode {
				return reject(t.start, "%s (`%s`) is not allowed in generated Lean", r.why, t.text)
			}
		}
		if (t.kind == tIdent || t.kind == tKeyword) && codeAttributes[t.text] && i > 0 && (toks[i-1].text == "@[" || toks[i-1].text == ",") {
			return reject(t.start, "the attribute %q is not allowed in generated Lean", t.text)
		}
	}
	return nil
}

// Gate checks that stub is exactly one `theorem`, `lemma` or `example` — an
// optional doc comment, attributes from AllowedAttributes, binders and a
// type — whose proof is exactly `sorry` (`:= sorry` or `:= by sorry`). It
// returns the parsed stub, or a *GateError saying why it was rejected.
func Gate(stub string) (*Stub, error) {
	if !utf8.ValidString(stub) {
		return nil, reject(-1, "the stub is not valid UTF-8")
	}
	if len(stub) > MaxStubBytes {
		return nil, reject(-1, "the stub is %d bytes, more than the limit of %d", len(stub), MaxStubBytes)
	}
	text := strings.TrimSpace(stub)
	if text == "" {
		return nil, reject(-1, "the stub is empty")
	}
	for i, r := range text {
		if (r < 0x20 && r != '\n' && r != '\t' && r != '\r') || r == 0x7f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return nil, reject(i, "invisible control character U+%04X", r)
		}
	}
	toks, err := lex(text)
	if err != nil {
		var le *lexError
		if errors.As(err, &le) {
			return nil, reject(le.pos, "%s", le.msg)
		}
		return nil, reject(-1, "%v", err)
	}
	s := &Stub{Text: text, toks: toks}
	p := &gateParser{s: s, toks: toks}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return s, nil
}

type gateParser struct {
	s    *Stub
	toks []token
	i    int
}

func (p *gateParser) peek() *token {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *gateParser) end() int {
	if p.i < len(p.toks) {
		return p.toks[p.i].start
	}
	return len(p.s.Text)
}

func (p *gateParser) parse() error {
	s := p.s
	// Leading tokens: doc comment, attributes, modifiers.
	if t := p.peek(); t != nil && t.kind == tDoc {
		s.Doc = t.text
		p.i++
	}
	if t := p.peek(); t != nil && t.kind == tSymbol && t.text == "@[" {
		if err := p.attributes(); err != nil {
			return err
		}
	}
	for t := p.peek(); t != nil && t.kind == tKeyword && (t.text == "private" || t.text == "protected"); t = p.peek() {
		s.Modifiers = append(s.Modifiers, t.text)
		p.i++
	}
	t := p.peek()
	if t == nil {
		return reject(-1, "no theorem, lemma or example")
	}
	if err := p.forbiddenToken(t); err != nil && t.text != "theorem" && t.text != "lemma" && t.text != "example" {
		return err
	}
	if t.kind != tKeyword || (t.text != "theorem" && t.text != "lemma" && t.text != "example") {
		return reject(t.start, "expected theorem, lemma or example, found %q", t.text)
	}
	s.Keyword = t.text
	p.i++
	if s.Keyword != "example" {
		n := p.peek()
		if n == nil || n.kind != tIdent {
			return reject(p.end(), "expected a theorem name after %q", s.Keyword)
		}
		s.Name, s.NameStart, s.NameEnd = n.text, n.start, n.end
		p.i++
	}
	// Binders up to the signature's colon.
	for {
		t := p.peek()
		if t == nil {
			return reject(-1, "the statement has no type (expected `:`)")
		}
		if t.kind == tSymbol && t.text == ":" {
			p.i++
			break
		}
		if t.kind == tSymbol && t.text == ":=" {
			return reject(t.start, "the statement has no type (expected `:` before `:=`)")
		}
		if err := p.binder(); err != nil {
			return err
		}
	}
	// The type, up to the top-level := .
	typeStart := p.i
	at, bad := proofAt(s.Text, p.toks, typeStart, false)
	end := len(p.toks)
	switch {
	case at >= 0:
		end = at
	case bad >= 0:
		end = bad
	}
	for ; p.i < end; p.i++ {
		t := &p.toks[p.i]
		if err := p.forbiddenToken(t); err != nil {
			return err
		}
		if t.kind == tKeyword && t.text == "by" {
			if err := p.bySorry(); err != nil {
				return err
			}
		}
	}
	switch {
	case at < 0 && bad >= 0:
		return reject(p.toks[bad].start, "unbalanced %q", p.toks[bad].text)
	case at < 0:
		return reject(-1, "no proof: a stub must end with `:= sorry` or `:= by sorry`")
	}
	if p.i == typeStart {
		return reject(p.end(), "the statement's type is empty")
	}
	s.TypeStart, s.TypeEnd = p.toks[typeStart].start, p.toks[p.i-1].end
	s.Type = s.Text[s.TypeStart:s.TypeEnd]
	s.ProofStart = p.toks[p.i].start
	p.i++
	t = p.peek()
	if t != nil && t.kind == tKeyword && t.text == "by" {
		p.i++
		t = p.peek()
	}
	if t == nil || t.kind != tKeyword || t.text != "sorry" {
		where := len(s.Text)
		if t != nil {
			where = t.start
		}
		return reject(where, "the proof must be exactly `sorry` (`:= sorry` or `:= by sorry`)")
	}
	p.i++
	if t := p.peek(); t != nil {
		var ge *GateError
		if err := p.forbiddenToken(t); errors.As(err, &ge) {
			return reject(t.start, "text after the declaration: %s", ge.Reason)
		}
		return reject(t.start, "text after the declaration: %q", clipString(s.Text[t.start:], 40))
	}
	return nil
}

// proofAt returns the index of the token that starts the proof of a
// declaration whose signature starts at toks[from]: the first `:=` outside
// brackets that does not belong to a let/have term, or, with alts, a `|`
// that begins a line (pattern-matching alternatives) or `where`; -1 when
// there is none. Scanning stops at a closing bracket without an opener,
// whose index is returned as unbalanced (else -1).
func proofAt(src string, toks []token, from int, alts bool) (at, unbalanced int) {
	depth, lets := 0, 0 // lets: let/have terms whose := is still to come
	for i := from; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tSymbol && isOpenBracket(t.text), t.kind == tSymbol && (t.text == "⟨" || t.text == "#[" || t.text == "%[" || t.text == "@["):
			depth++
		case t.kind == tSymbol && (t.text == ")" || t.text == "]" || t.text == "}" || t.text == "⦄" || t.text == "⟩" || t.text == "}}"):
			if depth--; depth < 0 {
				return -1, i
			}
		case t.kind == tSymbol && t.text == ":=" && depth == 0:
			if lets == 0 {
				return i, -1
			}
			lets--
		case t.kind == tKeyword && (t.text == "let" || t.text == "have"):
			lets++
		case alts && depth == 0 && t.kind == tKeyword && t.text == "where":
			return i, -1
		case alts && depth == 0 && t.kind == tSymbol && t.text == "|" && t.end < len(src) && src[t.end] == ' ' &&
			strings.TrimLeft(src[strings.LastIndexByte(src[:t.start], '\n')+1:t.start], " \t") == "":
			return i, -1
		}
	}
	return -1, -1
}

// SplitProof splits the text of a declaration at the start of its proof:
// the first `:=` outside brackets that does not belong to a let/have term,
// or else a `|` beginning a line (pattern-matching alternatives) or
// `where`. It returns the text before (trailing white space removed) and
// from there; ok is false when the declaration has no proof.
func SplitProof(decl string) (statement, proof string, ok bool) {
	toks, _ := lex(decl)
	at, _ := proofAt(decl, toks, 0, true)
	if at < 0 {
		return decl, "", false
	}
	start := toks[at].start
	proof = decl[start:]
	if toks[at].text == ":=" {
		proof = decl[toks[at].end:]
	}
	return strings.TrimRight(decl[:start], " \t\r\n"), proof, true
}

// bySorry accepts a `by` inside the statement only when its block is just
// `sorry`; p.i is at the `by`.
func (p *gateParser) bySorry() error {
	by := p.toks[p.i]
	if p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tKeyword && p.toks[p.i+1].text == "sorry" {
		p.i++
		return nil
	}
	return reject(by.start, "a tactic block other than `by sorry` in the statement")
}

// forbiddenToken rejects commands and constructs that must not reach Lean.
func (p *gateParser) forbiddenToken(t *token) error {
	switch t.kind {
	case tHash:
		return reject(t.start, "the command %s", t.text)
	case tDoc:
		return reject(t.start, "a doc comment in the middle of the stub (a second declaration?)")
	case tBacktick:
		return reject(t.start, "a name literal or syntax quotation")
	case tKeyword:
		if r, bad := forbidden[t.text]; bad {
			return reject(t.start, "%s (`%s`) is not allowed in a stub", r.why, t.text)
		}
	case tSymbol:
		switch t.text {
		case "@[":
			return reject(t.start, "attributes inside the statement")
		case "%[":
			return reject(t.start, "unexpected %q", t.text)
		}
	}
	return nil
}

// attributes parses @[a, b args, …] at p.i.
func (p *gateParser) attributes() error {
	open := p.toks[p.i]
	p.i++
	expectName := true
	depth := 0
	for {
		t := p.peek()
		if t == nil {
			return reject(open.start, "unterminated attribute list")
		}
		p.i++
		switch {
		case t.kind == tSymbol && t.text == "]" && depth == 0:
			if expectName {
				return reject(t.start, "empty attribute")
			}
			return nil
		case t.kind == tSymbol && t.text == "," && depth == 0:
			expectName = true
		case expectName:
			name := t.text
			if t.kind == tKeyword && (name == "local" || name == "scoped") {
				return reject(t.start, "%s attributes are not allowed in a stub", name)
			}
			if t.kind != tIdent || !AllowedAttributes[name] {
				return reject(t.start, "the attribute %q is not allowed in a stub (allowed: %s)", name, allowedList())
			}
			p.s.Attrs = append(p.s.Attrs, name)
			expectName = false
		default:
			// Arguments of an allowed attribute: names, strings, numbers and
			// simple punctuation only.
			if err := p.forbiddenToken(t); err != nil {
				return err
			}
			switch {
			case t.kind == tSymbol && (t.text == "(" || t.text == "["):
				depth++
			case t.kind == tSymbol && (t.text == ")" || t.text == "]"):
				depth--
			case t.kind == tIdent || t.kind == tString || t.kind == tNumber || t.kind == tSymbol:
			default:
				return reject(t.start, "unexpected %q in attribute arguments", t.text)
			}
		}
	}
}

func allowedList() string {
	names := []string{"simp", "norm_cast", "push_cast", "ext", "gcongr", "mono", "continuity", "measurability", "fun_prop", "to_additive", "nolint"}
	return strings.Join(names, ", ")
}

// binder parses one binder of the signature at p.i.
func (p *gateParser) binder() error {
	t := p.toks[p.i]
	if err := p.forbiddenToken(&t); err != nil {
		return err
	}
	if t.kind == tIdent || (t.kind == tSymbol && t.text == "_") {
		p.s.Binders = append(p.s.Binders, Binder{Names: []string{t.text}, Start: t.start, End: t.end})
		p.i++
		return nil
	}
	closers := map[string]string{"(": ")", "{": "}", "[": "]", "⦃": "⦄", "{{": "}}"}
	closer, ok := closers[t.text]
	if t.kind != tSymbol || !ok {
		return reject(t.start, "unexpected %q in the signature (expected a binder or `:`)", t.text)
	}
	b := Binder{Bracket: t.text, Start: t.start}
	p.i++
	// Names up to ':' (or the closer).
	var names []string
	nameEnd := p.i
	for ; p.i < len(p.toks); p.i++ {
		n := p.toks[p.i]
		if n.kind == tIdent || (n.kind == tSymbol && n.text == "_") {
			names = append(names, n.text)
			continue
		}
		break
	}
	colon := p.peek()
	switch {
	case colon != nil && colon.kind == tSymbol && colon.text == ":":
		b.Names = names
		p.i++
	case colon != nil && colon.kind == tSymbol && colon.text == ":=" && b.Bracket == "(":
		b.Names = names
	case b.Bracket == "[":
		// [Group G]: no names; the whole content is the type.
		p.i = nameEnd
	case colon != nil && colon.kind == tSymbol && colon.text == closer:
		b.Names = names
	default:
		if colon == nil {
			return reject(t.start, "unterminated binder")
		}
		return reject(colon.start, "unexpected %q in a binder", colon.text)
	}
	typeStart := p.i
	depth := 0
	defaultAt := -1
	for ; ; p.i++ {
		c := p.peek()
		if c == nil {
			return reject(t.start, "unterminated binder")
		}
		if err := p.forbiddenToken(c); err != nil {
			return err
		}
		if c.kind == tKeyword && c.text == "by" {
			if err := p.bySorry(); err != nil {
				return err
			}
			continue
		}
		if c.kind != tSymbol {
			continue
		}
		switch c.text {
		case "(", "[", "{", "⦃", "⟨", "{{", "#[":
			depth++
		case ")", "]", "}", "⦄", "⟩", "}}":
			if depth == 0 {
				if c.text != closer {
					return reject(c.start, "%q closes a binder opened with %q", c.text, t.text)
				}
				end := c.start
				if defaultAt >= 0 {
					b.Default = strings.TrimSpace(p.s.Text[p.toks[defaultAt].end:end])
					end = p.toks[defaultAt].start
				}
				if typeStart < len(p.toks) && p.toks[typeStart].start < end {
					b.Type = strings.TrimSpace(p.s.Text[p.toks[typeStart].start:end])
				}
				b.End = c.end
				p.i++
				p.s.Binders = append(p.s.Binders, b)
				return nil
			}
			depth--
		case ":=":
			if depth == 0 && b.Bracket == "(" && defaultAt < 0 {
				defaultAt = p.i
			}
		}
	}
}

func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
