package leansrc

import (
	"errors"
	"fmt"
	"strings"
)

// StubBinder is one bracketed (or bare) binder of a stub's signature.
type StubBinder struct {
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

// Stub is one theorem, lemma or example read from text: an optional doc
// comment, attributes and modifiers, the keyword, the name, binders, the
// statement's type and, after `:=`, the proof.
type Stub struct {
	// Text is the stub as parsed.
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
	// Binders are the signature's binders, before its colon.
	Binders []StubBinder
	// Type is the statement after the signature's colon; TypeStart/TypeEnd
	// its byte range in Text.
	Type               string
	TypeStart, TypeEnd int
	// ProofStart is the offset of the `:=` that starts the proof.
	ProofStart int
	// Lexemes are the lexemes of Text.
	Lexemes []Lexeme
}

// StubRules is a policy on what a stub may hold, consulted while ParseStub
// reads it, in the order of the text; a method returns a non-nil error to
// reject the stub, and ParseStub returns that error unchanged.
type StubRules interface {
	// Lexeme checks toks[i], a lexeme before the keyword or of the binders
	// or the type.
	Lexeme(toks []Lexeme, i int) error
	// Attribute checks toks[i], the name of an attribute in @[…].
	Attribute(toks []Lexeme, i int) error
	// AttributeArg checks toks[i], a lexeme of an attribute's arguments.
	AttributeArg(toks []Lexeme, i int) error
	// Proof checks the proof of s, the lexemes toks[i:] after its `:=`.
	Proof(s *Stub, toks []Lexeme, i int) error
}

// StubError says why text is not a stub.
type StubError struct {
	// Reason is a short, specific explanation.
	Reason string
	// Offset is the byte offset in the text the reason refers to (-1 when
	// it concerns the whole text).
	Offset int
}

// Error implements error.
func (e *StubError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("at byte %d: %s", e.Offset, e.Reason)
	}
	return e.Reason
}

func stubErr(off int, format string, args ...any) error {
	return &StubError{Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// ParseStub reads text as one theorem, lemma or example whose proof starts
// at the first top-level `:=` of the statement. rules, when not nil, is
// consulted on every part it polices. A syntax problem is a *StubError.
func ParseStub(text string, rules StubRules) (*Stub, error) {
	return parseStub(text, rules, false)
}

// ParseDefStub reads text as ParseStub does, and also takes one `def`
// (a definition stub: `def NAME BINDERS : TYPE := sorry`); Keyword is then
// "def".
func ParseDefStub(text string, rules StubRules) (*Stub, error) {
	return parseStub(text, rules, true)
}

func parseStub(text string, rules StubRules, defs bool) (*Stub, error) {
	toks, err := Lex(text)
	if err != nil {
		var le *LexError
		if errors.As(err, &le) {
			return nil, stubErr(le.Offset, "%s", le.Msg)
		}
		return nil, stubErr(-1, "%v", err)
	}
	s := &Stub{Text: text, Lexemes: toks}
	p := &stubParser{s: s, toks: toks, rules: rules, defs: defs}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return s, nil
}

// IsStubKeyword reports whether word starts a stub: theorem, lemma or example.
func IsStubKeyword(word string) bool {
	return word == "theorem" || word == "lemma" || word == "example"
}

type stubParser struct {
	s     *Stub
	toks  []Lexeme
	i     int
	rules StubRules
	defs  bool // a `def` is taken too
}

func (p *stubParser) peek() *Lexeme {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *stubParser) end() int {
	if p.i < len(p.toks) {
		return p.toks[p.i].Start
	}
	return len(p.s.Text)
}

// check consults the rules on toks[i].
func (p *stubParser) check(i int) error {
	if p.rules == nil {
		return nil
	}
	return p.rules.Lexeme(p.toks, i)
}

func (p *stubParser) parse() error {
	s := p.s
	// Leading lexemes: doc comment, attributes, modifiers.
	if t := p.peek(); t != nil && t.Kind == LexDoc {
		s.Doc = t.Text
		p.i++
	}
	if t := p.peek(); t != nil && t.Kind == LexSymbol && t.Text == "@[" {
		if err := p.attributes(); err != nil {
			return err
		}
	}
	for t := p.peek(); t != nil && t.Kind == LexKeyword && (t.Text == "private" || t.Text == "protected"); t = p.peek() {
		s.Modifiers = append(s.Modifiers, t.Text)
		p.i++
	}
	t := p.peek()
	if t == nil {
		return stubErr(-1, "no theorem, lemma or example")
	}
	if t.Kind != LexKeyword || !(IsStubKeyword(t.Text) || p.defs && t.Text == "def") {
		if err := p.check(p.i); err != nil {
			return err
		}
		return stubErr(t.Start, "expected theorem, lemma or example, found %q", t.Text)
	}
	s.Keyword = t.Text
	p.i++
	if s.Keyword != "example" {
		n := p.peek()
		if n == nil || n.Kind != LexIdent {
			return stubErr(p.end(), "expected a theorem name after %q", s.Keyword)
		}
		s.Name, s.NameStart, s.NameEnd = n.Text, n.Start, n.End
		p.i++
	}
	// Binders up to the signature's colon.
	for {
		t := p.peek()
		if t == nil {
			return stubErr(-1, "the statement has no type (expected `:`)")
		}
		if t.Kind == LexSymbol && t.Text == ":" {
			p.i++
			break
		}
		if t.Kind == LexSymbol && t.Text == ":=" {
			return stubErr(t.Start, "the statement has no type (expected `:` before `:=`)")
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
		if err := p.check(p.i); err != nil {
			return err
		}
	}
	switch {
	case at < 0 && bad >= 0:
		return stubErr(p.toks[bad].Start, "unbalanced %q", p.toks[bad].Text)
	case at < 0:
		return stubErr(-1, "no proof: a stub must end with `:= sorry` or `:= by sorry`")
	}
	if p.i == typeStart {
		return stubErr(p.end(), "the statement's type is empty")
	}
	s.TypeStart, s.TypeEnd = p.toks[typeStart].Start, p.toks[p.i-1].End
	s.Type = s.Text[s.TypeStart:s.TypeEnd]
	s.ProofStart = p.toks[p.i].Start
	p.i++
	if p.rules != nil {
		return p.rules.Proof(s, p.toks, p.i)
	}
	return nil
}

// isOpenBinder reports whether s is a bracket that opens a binder.
func isOpenBinder(s string) bool {
	return s == "(" || s == "{" || s == "[" || s == "⦃" || s == "{{"
}

// proofAt returns the index of the lexeme that starts the proof of a
// declaration whose signature starts at toks[from]: the first `:=` outside
// brackets that does not belong to a let/have term, or, with alts, a `|`
// that begins a line (pattern-matching alternatives) or `where`; -1 when
// there is none. Scanning stops at a closing bracket without an opener,
// whose index is returned as unbalanced (else -1).
func proofAt(src string, toks []Lexeme, from int, alts bool) (at, unbalanced int) {
	depth, lets := 0, 0 // lets: let/have terms whose := is still to come
	for i := from; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == LexSymbol && isOpenBinder(t.Text), t.Kind == LexSymbol && (t.Text == "⟨" || t.Text == "#[" || t.Text == "%[" || t.Text == "@["):
			depth++
		case t.Kind == LexSymbol && (t.Text == ")" || t.Text == "]" || t.Text == "}" || t.Text == "⦄" || t.Text == "⟩" || t.Text == "}}"):
			if depth--; depth < 0 {
				return -1, i
			}
		case t.Kind == LexSymbol && t.Text == ":=" && depth == 0:
			if lets == 0 {
				return i, -1
			}
			lets--
		case t.Kind == LexKeyword && (t.Text == "let" || t.Text == "have"):
			lets++
		case alts && depth == 0 && t.Kind == LexKeyword && t.Text == "where":
			return i, -1
		case alts && depth == 0 && t.Kind == LexSymbol && t.Text == "|" && t.End < len(src) && src[t.End] == ' ' &&
			strings.TrimLeft(src[strings.LastIndexByte(src[:t.Start], '\n')+1:t.Start], " \t") == "":
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
	toks, _ := Lex(decl)
	at, _ := proofAt(decl, toks, 0, true)
	if at < 0 {
		return decl, "", false
	}
	start := toks[at].Start
	proof = decl[start:]
	if toks[at].Text == ":=" {
		proof = decl[toks[at].End:]
	}
	return strings.TrimRight(decl[:start], " \t\r\n"), proof, true
}

// attributes parses @[a, b args, …] at p.i.
func (p *stubParser) attributes() error {
	open := p.toks[p.i]
	p.i++
	expectName := true
	depth := 0
	for {
		t := p.peek()
		if t == nil {
			return stubErr(open.Start, "unterminated attribute list")
		}
		p.i++
		switch {
		case t.Kind == LexSymbol && t.Text == "]" && depth == 0:
			if expectName {
				return stubErr(t.Start, "empty attribute")
			}
			return nil
		case t.Kind == LexSymbol && t.Text == "," && depth == 0:
			expectName = true
		case expectName:
			if p.rules != nil {
				if err := p.rules.Attribute(p.toks, p.i-1); err != nil {
					return err
				}
			}
			p.s.Attrs = append(p.s.Attrs, t.Text)
			expectName = false
		default:
			if p.rules != nil {
				if err := p.rules.AttributeArg(p.toks, p.i-1); err != nil {
					return err
				}
			}
			switch {
			case t.Kind == LexSymbol && (t.Text == "(" || t.Text == "["):
				depth++
			case t.Kind == LexSymbol && (t.Text == ")" || t.Text == "]"):
				depth--
			}
		}
	}
}

// binderClosers maps a binder's opening bracket to its closing one.
var binderClosers = map[string]string{"(": ")", "{": "}", "[": "]", "⦃": "⦄", "{{": "}}"}

// binder parses one binder of the signature at p.i.
func (p *stubParser) binder() error {
	t := p.toks[p.i]
	if err := p.check(p.i); err != nil {
		return err
	}
	if t.Kind == LexIdent || (t.Kind == LexSymbol && t.Text == "_") {
		p.s.Binders = append(p.s.Binders, StubBinder{Names: []string{t.Text}, Start: t.Start, End: t.End})
		p.i++
		return nil
	}
	closer, ok := binderClosers[t.Text]
	if t.Kind != LexSymbol || !ok {
		return stubErr(t.Start, "unexpected %q in the signature (expected a binder or `:`)", t.Text)
	}
	b := StubBinder{Bracket: t.Text, Start: t.Start}
	p.i++
	// Names up to ':' (or the closer).
	var names []string
	nameEnd := p.i
	for ; p.i < len(p.toks); p.i++ {
		n := p.toks[p.i]
		if n.Kind == LexIdent || (n.Kind == LexSymbol && n.Text == "_") {
			names = append(names, n.Text)
			continue
		}
		break
	}
	colon := p.peek()
	switch {
	case colon != nil && colon.Kind == LexSymbol && colon.Text == ":":
		b.Names = names
		p.i++
	case colon != nil && colon.Kind == LexSymbol && colon.Text == ":=" && b.Bracket == "(":
		b.Names = names
	case b.Bracket == "[":
		// [Group G]: no names; the whole content is the type.
		p.i = nameEnd
	case colon != nil && colon.Kind == LexSymbol && colon.Text == closer:
		b.Names = names
	default:
		if colon == nil {
			return stubErr(t.Start, "unterminated binder")
		}
		return stubErr(colon.Start, "unexpected %q in a binder", colon.Text)
	}
	typeStart := p.i
	depth := 0
	defaultAt := -1
	for ; ; p.i++ {
		c := p.peek()
		if c == nil {
			return stubErr(t.Start, "unterminated binder")
		}
		if err := p.check(p.i); err != nil {
			return err
		}
		if c.Kind != LexSymbol {
			continue
		}
		switch c.Text {
		case "(", "[", "{", "⦃", "⟨", "{{", "#[":
			depth++
		case ")", "]", "}", "⦄", "⟩", "}}":
			if depth == 0 {
				if c.Text != closer {
					return stubErr(c.Start, "%q closes a binder opened with %q", c.Text, t.Text)
				}
				end := c.Start
				if defaultAt >= 0 {
					b.Default = strings.TrimSpace(p.s.Text[p.toks[defaultAt].End:end])
					end = p.toks[defaultAt].Start
				}
				if typeStart < len(p.toks) && p.toks[typeStart].Start < end {
					b.Type = strings.TrimSpace(p.s.Text[p.toks[typeStart].Start:end])
				}
				b.End = c.End
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

// commandModifiers are the words CommandWord reads past before a command.
var commandModifiers = map[string]bool{"private": true, "protected": true, "noncomputable": true, "nonrec": true, "partial": true}

// maxHead bounds the text scanned for a line's command word or a name:
// what is read there lies at the start.
const maxHead = 1 << 10

// headOf returns the first maxHead bytes of s.
func headOf(s string) string { return s[:min(len(s), maxHead)] }

// CommandWord returns the word a line of Lean starts with, after attributes
// (@[…]) and modifiers (private, noncomputable, …); "" when the line starts
// with something else. Only the line's first KiB is read.
func CommandWord(line string) string {
	line = headOf(strings.TrimSpace(line))
	toks, _ := Scan([]byte(line))
	depth := 0
	for _, t := range toks {
		w := line[t.Start:t.End]
		switch {
		case w == "@[" || depth > 0 && w == "[":
			depth++
		case depth > 0 && w == "]":
			depth--
		case depth > 0:
		case t.Kind == TokIdent && commandModifiers[w]:
		case t.Kind == TokIdent:
			return w
		default:
			return ""
		}
	}
	return ""
}

// StubKeyword finds the `theorem`, `lemma` or `example` of a declaration:
// the first such word outside attributes.
func StubKeyword(text string) (start, end int, ok bool) {
	toks, _ := Scan([]byte(text))
	depth := 0
	for _, t := range toks {
		w := text[t.Start:t.End]
		switch {
		case t.Kind == TokSymbol && (w == "@[" || w == "["):
			depth++
		case t.Kind == TokSymbol && w == "]":
			depth--
		case depth <= 0 && t.Kind == TokIdent && IsStubKeyword(w):
			return int(t.Start), int(t.End), true
		}
	}
	return 0, 0, false
}

// LeadingName splits "name rest": the name is the identifier (possibly
// dotted, «quoted») that s starts with; "" when s does not start with one.
func LeadingName(s string) (name, rest string) {
	toks, _ := Scan([]byte(headOf(s)))
	if len(toks) == 0 || toks[0].Kind != TokIdent || toks[0].Start != 0 {
		return "", s
	}
	return s[:toks[0].End], s[toks[0].End:]
}

// Statement returns the lexemes of the statement: after the keyword and the
// name, up to the `:=` of the proof.
func (s *Stub) Statement() []Lexeme {
	first, last := 0, len(s.Lexemes)
	for i, t := range s.Lexemes {
		if t.Kind == LexKeyword && t.Text == s.Keyword && first == 0 {
			first = i + 1
			if s.Name != "" {
				first++
			}
		}
		if t.Start == s.ProofStart && t.Text == ":=" {
			last = i
			break
		}
	}
	return s.Lexemes[first:last]
}

// IsDeclCommand reports whether word starts a declaration: def, theorem,
// lemma, example, abbrev, instance, structure, class, inductive, …
func IsDeclCommand(word string) bool {
	_, ok := declKinds[word]
	return ok || word == "structure" || word == "class" || word == "inductive"
}
