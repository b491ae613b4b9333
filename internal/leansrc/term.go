package leansrc

import (
	"strings"
	"unicode/utf8"
)

// TermKind classifies a node of a parsed Lean term.
type TermKind uint8

// The term kinds produced by ParseTerm.
const (
	TermUnsupported  TermKind = iota // a construct outside the parsed fragment; Text holds its source
	TermIdent                        // an identifier (Text), possibly dotted
	TermNum                          // a numeral (Text): 12, 2.5, 1e3
	TermApp                          // application: Args[0] applied to Args[1:]
	TermInfix                        // binary operator Text on Args[0], Args[1]
	TermPrefix                       // prefix operator Text ("¬", "-", "↑", "!") on Args[0]
	TermPostfix                      // postfix operator Text ("!") on Args[0]
	TermAscribe                      // (Args[0] : Args[1])
	TermAbs                          // |Args[0]|
	TermAnon                         // ⟨Args…⟩
	TermTuple                        // (Args[0], Args[1], …)
	TermList                         // [Args…]
	TermSetLit                       // {Args…}
	TermSetBuilder                   // {Binders[0] | Args[0]}
	TermLambda                       // fun Binders => Args[0]
	TermForall                       // ∀ Binders, Args[0]
	TermExists                       // ∃ Binders, Args[0]
	TermExistsUnique                 // ∃! Binders, Args[0]
	TermBigOp                        // Text ("∑", "∏", or "∑'", "∏'" over a whole type) Binders, Args[0]; Args[1] is the `with` filter when present
	TermIf                           // if Args[0] then Args[1] else Args[2]; Text is the hypothesis name of `if h : c`
	TermModEq                        // Args[0] ≡ Args[1] [Text Args[2]], Text "MOD" or "ZMOD"
	TermProj                         // Args[0].Text (a field name or a number)
	TermCDot                         // · (only inside a parenthesised lambda; ParseTerm rewrites those)
)

// Binder is one group of names bound by a quantifier, lambda, big operator
// or set-builder: `x y : T`, `(x : T)`, `x ∈ s`, `x < n`.
type Binder struct {
	Names []string
	// Type is the bound names' type (nil when not written).
	Type *Term
	// Bracket is '(', '{', '[', '⦃' or 0 for a bare binder.
	Bracket rune
	// Pred and Bound are a binder predicate such as "∈" s or "<" n ("" when none).
	Pred  string
	Bound *Term
}

// Term is a node of a parsed Lean term; Start and End are byte offsets into
// the parsed text.
type Term struct {
	Kind       TermKind
	Start, End int
	Text       string
	Args       []*Term
	Binders    []Binder
}

// Fixity says how a notation symbol combines with its operands.
type Fixity uint8

// The fixities of notations.
const (
	Infix   Fixity = iota + 1 // non-associative binary
	Infixl                    // left-associative binary
	Infixr                    // right-associative binary
	Prefix                    // unary, before its operand
	Postfix                   // unary, after its operand
	// Nullary is a notation of no operands that is one token standing for a term
	// (Mathlib's `notation "ℝ≥0" => NNReal`): Lean's tokenizer reads it as
	// one token where the scanner splits it (ℝ, ≥, 0), so the parser reads
	// those adjacent pieces as one identifier whose Text is the token.
	Nullary
)

// Operator is a notation symbol's fixity and precedence.
type Operator struct {
	Fixity Fixity
	Prec   int
}

// maxPrec is Lean's `max` precedence (arguments of applications).
const maxPrec = 1024

// builtinOps are the infix operators of Lean core and Mathlib that terms in
// statements use, with their Lean precedences.
var builtinOps = map[string]Operator{
	"↔": {Infix, 20}, "<->": {Infix, 20}, "→": {Infixr, 25}, "->": {Infixr, 25},
	"∨": {Infixr, 30}, "\\/": {Infixr, 30}, "||": {Infixl, 30}, "∧": {Infixr, 35}, "/\\": {Infixr, 35}, "&&": {Infixl, 35},
	"=": {Infix, 50}, "≠": {Infix, 50}, "!=": {Infix, 50}, "==": {Infix, 50}, "<": {Infix, 50}, "≤": {Infix, 50}, "<=": {Infix, 50},
	">": {Infix, 50}, "≥": {Infix, 50}, ">=": {Infix, 50}, "∣": {Infix, 50}, "∈": {Infix, 50}, "∉": {Infix, 50},
	"⊆": {Infix, 50}, "⊂": {Infix, 50}, "≃": {Infixr, 25}, "×": {Infixr, 35}, "∘": {Infixr, 90},
	"+": {Infixl, 65}, "-": {Infixl, 65}, "∪": {Infixl, 65}, "++": {Infixl, 65}, "::": {Infixr, 67},
	"*": {Infixl, 70}, "/": {Infixl, 70}, "%": {Infixl, 70}, "∩": {Infixl, 70}, "\\": {Infixl, 70}, "•": {Infixr, 73},
	"^": {Infixr, 75}, "⁻¹": {Postfix, maxPrec + 1}, "ᶜ": {Postfix, maxPrec + 1}, "<|": {Infixr, 10}, "|>": {Infixl, 10}, "$": {Infixr, 10},
}

// BuiltinOperator reports whether sym is an infix or postfix operator of
// Lean core or one Mathlib declares globally that statements use (builtinOps).
func BuiltinOperator(sym string) bool {
	_, ok := builtinOps[sym]
	return ok
}

// binderPreds are the relations allowed in binder predicates (∀ x < n, …).
var binderPreds = map[string]bool{"∈": true, "∉": true, "<": true, "≤": true, ">": true, "≥": true, "≠": true, "⊆": true, "⊂": true}

// ptok is a token with its text, adjacency to the next token and kind.
type ptok struct {
	kind       TokenKind
	text       string
	start, end int
}

// termParser holds the state of one ParseTerm call.
type termParser struct {
	src  string
	toks []ptok
	i    int
	ops  func(symbol string) (Operator, bool)
	fail bool // an unrecoverable construct: the whole term is unsupported
	// chain is the first relation written after another of its level
	// (a < b ≤ c), which Lean's non-associative notation rejects.
	chain *Chain
	// depth bounds recursion on adversarial input.
	depth int
}

// maxTermDepth bounds the nesting ParseTerm follows.
const maxTermDepth = 200

// ParseTerm parses a Lean 4 term as it appears in theorem statements (the
// type of a binder or the statement after its colon). ops, when not nil,
// gives the fixity and precedence of workspace notation symbols. Constructs
// outside the fragment become TermUnsupported nodes; a term that cannot be
// delimited at all is returned as one TermUnsupported node. It never panics.
func ParseTerm(src string, ops func(symbol string) (Operator, bool)) *Term {
	toks, errs := Scan([]byte(src))
	p := &termParser{src: src, ops: ops}
	for _, t := range toks {
		if t.Kind == TokDoc || t.Kind == TokModDoc || t.Kind == TokComment {
			continue
		}
		p.toks = append(p.toks, ptok{kind: t.Kind, text: src[t.Start:t.End], start: int(t.Start), end: int(t.End)})
	}
	whole := &Term{Kind: TermUnsupported, Start: 0, End: len(src), Text: strings.TrimSpace(src)}
	if len(errs) > 0 || len(p.toks) == 0 {
		return whole
	}
	t := p.term(0)
	if p.fail || p.i < len(p.toks) || t == nil {
		return whole
	}
	return t
}

func (p *termParser) peek(k int) *ptok {
	if p.i+k < len(p.toks) {
		return &p.toks[p.i+k]
	}
	return nil
}

// is reports whether the token k ahead is the symbol or keyword s.
func (p *termParser) is(k int, s string) bool {
	t := p.peek(k)
	return t != nil && t.text == s && t.kind != TokString && t.kind != TokChar
}

func (p *termParser) end() int {
	if p.i > 0 && p.i <= len(p.toks) {
		return p.toks[p.i-1].end
	}
	return 0
}

// symbolRun returns the longest operator spelled by adjacent symbol tokens
// starting k ahead, and how many tokens it spans ("" when none); a
// workspace operator may also take in identifier pieces (Mathlib's `≃o`).
func (p *termParser) symbolRun(k int) (string, int, Operator, bool) {
	t := p.peek(k)
	if t == nil || t.kind != TokSymbol || isBracket(t.text) {
		return "", 0, Operator{}, false
	}
	n, symbols := 1, 1
	for {
		a, b := p.peek(k+n-1), p.peek(k+n)
		if b == nil || b.kind != TokSymbol && b.kind != TokIdent || a.end != b.start || isBracket(b.text) || n >= 6 {
			break
		}
		if b.kind == TokSymbol && symbols == n {
			symbols++
		}
		n++
	}
	if p.ops == nil {
		n = symbols
	}
	for ; n > 0; n-- {
		var sb strings.Builder
		for j := 0; j < n; j++ {
			sb.WriteString(p.toks[p.i+k+j].text)
		}
		s := sb.String()
		if n > symbols {
			if op, ok := p.ops(s); ok && op.Fixity != Nullary {
				return s, n, op, true
			}
			continue
		}
		if op, ok := builtinOps[s]; ok {
			return s, n, op, true
		}
		if p.ops != nil {
			if op, ok := p.ops(s); ok && op.Fixity != Nullary {
				return s, n, op, true
			}
		}
	}
	return "", 0, Operator{}, false
}

// scalarArrowPrec is the precedence of Mathlib's arrows of bundled maps
// over a ring written with it in brackets (`M →ₗ[R] M₂`, `A ≃ₐ[R] B`,
// `E →L[𝕜] F`), as of its other arrows.
const scalarArrowPrec = 25

// scalarArrow reports whether the tokens ahead are such an arrow's opening
// part: → or ≃, the marks glued to it (letters and symbols, no space), and
// a glued `[`. It returns the arrow without the bracket (`→ₗ`) and how
// many tokens the opening part spans, bracket included. The term is then
// TermInfix with three arguments: the two operands and the ring.
func (p *termParser) scalarArrow() (string, int, bool) {
	t := p.peek(0)
	if t == nil || t.kind != TokSymbol || !strings.HasPrefix(t.text, "→") && !strings.HasPrefix(t.text, "≃") {
		return "", 0, false
	}
	var sb strings.Builder
	sb.WriteString(t.text)
	for n := 1; n <= 4; n++ {
		a, b := p.peek(n-1), p.peek(n)
		if b == nil || a.end != b.start {
			return "", 0, false
		}
		if b.text == "[" {
			return sb.String(), n + 1, true
		}
		if b.kind != TokSymbol && b.kind != TokIdent || isBracket(b.text) {
			return "", 0, false
		}
		sb.WriteString(b.text)
	}
	return "", 0, false
}

func isBracket(s string) bool {
	switch s {
	case "(", ")", "[", "]", "{", "}", "⟨", "⟩", ",", "|", "⦃", "⦄", "·", "↑", "¬", ":", ":=", "=>", "@[", "⌊", "⌋", "⌈", "⌉", "√":
		return true
	}
	return false
}

// term parses a term whose operators bind at least as tightly as minPrec.
func (p *termParser) term(minPrec int) *Term {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxTermDepth {
		p.fail = true
		return nil
	}
	first := p.i
	lhs := p.prefix()
	if lhs == nil || p.fail {
		p.fail = true
		return nil
	}
	lhsPrec := prefixPrec(lhs)
	if p.toks[first].text == "(" {
		lhsPrec = maxPrec // a parenthesised lambda or quantifier takes arguments
	}
	for !p.fail && p.i < len(p.toks) {
		t := p.peek(0)
		// application: an argument follows at max precedence, or a
		// trailing lambda (`Finset.sum s fun i => f i`), which takes the
		// rest of the term
		trailing := minPrec <= maxPrec && lhsPrec >= maxPrec && (p.is(0, "fun") || p.is(0, "λ"))
		if minPrec <= maxPrec && lhsPrec >= maxPrec && p.startsArg() || trailing {
			arg := p.arg()
			if trailing {
				arg = p.prefix()
			}
			if arg == nil {
				p.fail = true
				return nil
			}
			if lhs.Kind == TermApp {
				lhs.Args = append(lhs.Args, arg)
				lhs.End = p.end()
			} else {
				lhs = &Term{Kind: TermApp, Start: lhs.Start, End: p.end(), Args: []*Term{lhs, arg}}
			}
			continue
		}
		if p.isFactorial() {
			p.i++
			lhs = &Term{Kind: TermPostfix, Text: "!", Start: lhs.Start, End: t.end, Args: []*Term{lhs}}
			lhsPrec = maxPrec
			continue
		}
		if t.text == "≡" && minPrec <= 50 && lhsPrec >= 51 {
			m := p.modEq(lhs)
			if m == nil {
				return nil
			}
			lhs, lhsPrec = m, 50
			continue
		}
		if sym, n, ok := p.scalarArrow(); ok {
			// M →ₗ[R] M₂: notation:25, its right operand at 0 (infixr)
			if minPrec > scalarArrowPrec || lhsPrec <= scalarArrowPrec {
				break
			}
			p.i += n
			scalar := p.term(0)
			if scalar == nil || !p.is(0, "]") {
				p.fail = true
				return nil
			}
			p.i++
			rhs := p.term(scalarArrowPrec)
			if rhs == nil {
				p.fail = true
				return nil
			}
			if sym == "→" || sym == "≃" {
				sym += "[]" // X →[M] Y, a MulActionHom: no plain function
			}
			lhs = &Term{Kind: TermInfix, Text: sym, Start: lhs.Start, End: p.end(), Args: []*Term{lhs, rhs, scalar}}
			lhsPrec = scalarArrowPrec
			continue
		}
		sym, n, op, ok := p.symbolRun(0)
		if !ok {
			break
		}
		switch op.Fixity {
		case Postfix:
			if op.Prec < minPrec {
				return lhs
			}
			p.i += n
			lhs = &Term{Kind: TermPostfix, Text: sym, Start: lhs.Start, End: p.end(), Args: []*Term{lhs}}
			lhsPrec = op.Prec
			continue
		case Prefix:
			return lhs
		}
		leftReq, rightPrec := op.Prec+1, op.Prec+1
		switch op.Fixity {
		case Infixl:
			leftReq = op.Prec
		case Infixr:
			rightPrec = op.Prec
		}
		if op.Prec < minPrec || lhsPrec < leftReq {
			if op.Fixity == Infix && op.Prec >= minPrec && lhsPrec == op.Prec && p.chain == nil && chainable[sym] && p.startsTerm(n) {
				t := p.peek(0)
				p.chain = &Chain{Symbol: sym, Start: t.start, End: t.start + len(sym)}
			}
			break
		}
		p.i += n
		rhs := p.term(rightPrec)
		if rhs == nil {
			p.fail = true
			return nil
		}
		lhs = &Term{Kind: TermInfix, Text: canonicalOp(sym), Start: lhs.Start, End: p.end(), Args: []*Term{lhs, rhs}}
		lhsPrec = op.Prec
	}
	return lhs
}

// prefixPrec is the precedence of a term as the left operand of what
// follows it: quantifiers, lambdas and if-then-else extend as far as
// possible (lowest), big operators end at their body's precedence 67.
func prefixPrec(t *Term) int {
	switch t.Kind {
	case TermLambda, TermForall, TermExists, TermExistsUnique, TermIf:
		return 0
	case TermBigOp:
		return 67
	case TermPrefix:
		if t.Text == "-" {
			return 75
		}
	}
	return maxPrec
}

// canonicalOp maps ASCII spellings to the Unicode operator.
func canonicalOp(s string) string {
	switch s {
	case "<->":
		return "↔"
	case "->":
		return "→"
	case "<=":
		return "≤"
	case ">=":
		return "≥"
	case "!=":
		return "≠"
	case "\\/":
		return "∨"
	case "/\\":
		return "∧"
	}
	return s
}

// startsArg reports whether the next token can start an application argument.
func (p *termParser) startsArg() bool {
	t := p.peek(0)
	if t == nil {
		return false
	}
	switch t.kind {
	case TokIdent:
		switch t.text {
		case "then", "else", "with", "in", "at", "fun", "λ", "if", "do", "from", "by", "using":
			return false
		}
		return true
	case TokNumber, TokString, TokChar:
		return true
	case TokSymbol:
		switch t.text {
		case "[":
			kw := p.peek(1)
			return kw == nil || (kw.text != "MOD" && kw.text != "ZMOD")
		case "(", "⟨", "·", "↑", "{", "⌊", "⌈", "√":
			return true
		case "!":
			return false
		}
		return p.tokenLen() > 0
	}
	return false
}

// arg parses an application argument: an atom with its projections.
func (p *termParser) arg() *Term {
	if p.is(0, "↑") || p.is(0, "√") {
		return p.prefix()
	}
	a := p.projections(p.atom())
	// `n !` (notation:10000) binds tighter than application: f n ! m is f (n !) m
	for a != nil && p.isFactorial() {
		p.i++
		a = &Term{Kind: TermPostfix, Text: "!", Start: a.Start, End: p.end(), Args: []*Term{a}}
	}
	// so does a postfix above max (`⁻¹`): orderOf x⁻¹ is orderOf (x⁻¹)
	for a != nil {
		sym, n, op, ok := p.symbolRun(0)
		if !ok || op.Fixity != Postfix || op.Prec <= maxPrec {
			break
		}
		p.i += n
		a = &Term{Kind: TermPostfix, Text: sym, Start: a.Start, End: p.end(), Args: []*Term{a}}
	}
	return a
}

// isFactorial reports whether the next token is a postfix `!` (not `!=`).
func (p *termParser) isFactorial() bool {
	t := p.peek(0)
	return t != nil && t.kind == TokSymbol && t.text == "!" && !(p.is(1, "=") && p.peek(1).start == t.end)
}

// projections parses trailing `.field` and `.1` after an atom.
func (p *termParser) projections(a *Term) *Term {
	for a != nil && p.is(0, ".") && p.peek(0).start == p.end() {
		f := p.peek(1)
		if f == nil || f.start != p.peek(0).end || (f.kind != TokIdent && f.kind != TokNumber) {
			break
		}
		p.i += 2
		a = &Term{Kind: TermProj, Text: f.text, Start: a.Start, End: f.end, Args: []*Term{a}}
	}
	return a
}

// prefix parses a leading construct: an atom, a prefix operator, a binder
// construct or an if-then-else.
func (p *termParser) prefix() *Term {
	t := p.peek(0)
	p.depth++
	defer func() { p.depth-- }()
	if t == nil || p.depth > maxTermDepth {
		p.fail = true
		return nil
	}
	start := t.start
	if t.kind == TokIdent {
		switch t.text {
		case "fun", "λ":
			p.i++
			return p.binderTerm(TermLambda, "", start)
		case "if":
			return p.ifThenElse()
		case "then", "else", "with", "in", "at", "by", "do":
			return nil
		}
	}
	if t.kind == TokSymbol && p.tokenLen() > 0 {
		return p.projections(p.atom())
	}
	if t.kind == TokSymbol {
		switch t.text {
		case "λ":
			p.i++
			return p.binderTerm(TermLambda, "", start)
		case "¬":
			p.i++
			a := p.term(40)
			if a == nil {
				return nil
			}
			return &Term{Kind: TermPrefix, Text: "¬", Start: start, End: p.end(), Args: []*Term{a}}
		case "-":
			p.i++
			a := p.term(75)
			if a == nil {
				return nil
			}
			return &Term{Kind: TermPrefix, Text: "-", Start: start, End: p.end(), Args: []*Term{a}}
		case "↑":
			p.i++
			a := p.arg()
			if a == nil {
				return nil
			}
			return &Term{Kind: TermPrefix, Text: "↑", Start: start, End: p.end(), Args: []*Term{a}}
		case "√": // prefix:max "√" => Real.sqrt
			p.i++
			a := p.arg()
			if a == nil {
				return nil
			}
			fn := &Term{Kind: TermIdent, Text: "Real.sqrt", Start: start, End: t.end}
			return &Term{Kind: TermApp, Start: start, End: p.end(), Args: []*Term{fn, a}}
		case "!":
			p.i++
			a := p.term(maxPrec)
			if a == nil {
				return nil
			}
			return &Term{Kind: TermPrefix, Text: "!", Start: start, End: p.end(), Args: []*Term{a}}
		case "∀", "Π":
			p.i++
			return p.binderTerm(TermForall, "", start)
		case "∃":
			p.i++
			if p.is(0, "!") && p.peek(0).start == t.end {
				p.i++
				return p.binderTerm(TermExistsUnique, "", start)
			}
			return p.binderTerm(TermExists, "", start)
		case "∑", "∏":
			p.i++
			text := t.text
			if p.is(0, "'") && p.peek(0).start == t.end {
				// ∑' (tsum), ∏' (tprod): over all of the binder's type
				p.i++
				text += "'"
			}
			return p.binderTerm(TermBigOp, text, start)
		case "|":
			p.i++
			a := p.term(0)
			if a == nil || !p.is(0, "|") {
				return nil
			}
			p.i++
			return p.projections(&Term{Kind: TermAbs, Start: start, End: p.end(), Args: []*Term{a}})
		}
		if sym, n, op, ok := p.symbolRun(0); ok && op.Fixity == Prefix {
			p.i += n
			a := p.term(op.Prec)
			if a == nil {
				return nil
			}
			return &Term{Kind: TermPrefix, Text: sym, Start: start, End: p.end(), Args: []*Term{a}}
		}
	}
	return p.projections(p.atom())
}

// maxTokenPieces bounds the scanner tokens a notation token may span.
const maxTokenPieces = 6

// tokenLen returns how many adjacent scanner tokens, from the next one on,
// spell a notation of fixity Nullary (the longest such run, as Lean's
// tokenizer takes the longest token), 0 when none. A single scanner token
// counts only when it is a symbol (`⊤`, `⊥`: Top.top, Bot.bot); an
// identifier is read as it is.
func (p *termParser) tokenLen() int {
	if p.ops == nil {
		return 0
	}
	n := 1
	for n < maxTokenPieces {
		a, b := p.peek(n-1), p.peek(n)
		if b == nil || a.end != b.start {
			break
		}
		n++
	}
	for ; n >= 1; n-- {
		first, last := p.peek(0), p.peek(n-1)
		if n == 1 && first.kind != TokSymbol {
			break
		}
		if op, ok := p.ops(p.src[first.start:last.end]); ok && op.Fixity == Nullary {
			return n
		}
	}
	return 0
}

// atom parses an identifier, numeral, notation token, or bracketed term.
func (p *termParser) atom() *Term {
	t := p.peek(0)
	if t == nil {
		return nil
	}
	if n := p.tokenLen(); n > 0 {
		end := p.peek(n - 1).end
		p.i += n
		return &Term{Kind: TermIdent, Text: p.src[t.start:end], Start: t.start, End: end}
	}
	switch t.kind {
	case TokIdent:
		switch t.text {
		case "fun", "λ", "if", "then", "else", "with", "in", "at", "by", "do":
			return nil
		}
		p.i++
		return &Term{Kind: TermIdent, Text: t.text, Start: t.start, End: t.end}
	case TokNumber:
		p.i++
		return &Term{Kind: TermNum, Text: t.text, Start: t.start, End: t.end}
	case TokString, TokChar, TokNameLit, TokQuote:
		p.i++
		return &Term{Kind: TermUnsupported, Text: t.text, Start: t.start, End: t.end}
	}
	switch t.text {
	case "·":
		p.i++
		return &Term{Kind: TermCDot, Start: t.start, End: t.end}
	case "(":
		return p.paren()
	case "⟨":
		return p.group(TermAnon, "⟩")
	case "[":
		return p.group(TermList, "]")
	case "{":
		return p.brace()
	case "⌊", "⌈", "‖":
		return p.enclosed()
	}
	return nil
}

// enclosingNotations are the notations that enclose a term and apply a
// function to it: the function, and the one a glued ₊ after the closing
// token gives (⌊a⌋ is Int.floor a, ⌊a⌋₊ Nat.floor a; ‖a‖ is Norm.norm a,
// the notation's hygienic right side wherever it is used, ‖a‖₊
// NNNorm.nnnorm a).
var enclosingNotations = map[string]struct{ close, fn, plus string }{
	"⌊": {"⌋", "Int.floor", "Nat.floor"}, "⌈": {"⌉", "Int.ceil", "Nat.ceil"}, "‖": {"‖", "Norm.norm", "NNNorm.nnnorm"},
}

// enclosed parses an enclosing notation at p.i (enclosingNotations).
func (p *termParser) enclosed() *Term {
	open := p.peek(0)
	n := enclosingNotations[open.text]
	p.i++
	a := p.term(0)
	if a == nil || !p.is(0, n.close) {
		return nil
	}
	p.i++
	fn := n.fn
	if t := p.peek(0); t != nil && t.text == "₊" && t.start == p.end() {
		p.i++
		fn = n.plus
	}
	f := &Term{Kind: TermIdent, Text: fn, Start: open.start, End: open.end}
	return &Term{Kind: TermApp, Start: open.start, End: p.end(), Args: []*Term{f, a}}
}

// skipGroup skips from the opening bracket at p.i to its matching close and
// returns an unsupported node for the group (nil when it is unbalanced).
func (p *termParser) skipGroup() *Term {
	open := p.i
	depth := 0
	for p.i < len(p.toks) {
		switch p.toks[p.i].text {
		case "(", "[", "{", "⟨", "⦃", "@[", "⌊", "⌈":
			if p.toks[p.i].kind == TokSymbol {
				depth++
			}
		case ")", "]", "}", "⟩", "⦄", "⌋", "⌉":
			if p.toks[p.i].kind == TokSymbol {
				depth--
			}
		}
		p.i++
		if depth == 0 {
			s, e := p.toks[open].start, p.toks[p.i-1].end
			return &Term{Kind: TermUnsupported, Text: p.src[s:e], Start: s, End: e}
		}
	}
	return nil
}

// sub runs f on a sub-parser; when f fails, the bracketed group at the
// starting position becomes an unsupported node instead.
func (p *termParser) sub(f func() *Term) *Term {
	save := p.i
	t := f()
	if t != nil && !p.fail {
		return t
	}
	p.fail = false
	p.i = save
	return p.skipGroup()
}

// paren parses (e), (e : T), (a, b), () and (· + 1).
func (p *termParser) paren() *Term {
	return p.sub(func() *Term {
		start := p.peek(0).start
		p.i++
		if p.is(0, ")") {
			p.i++
			return &Term{Kind: TermTuple, Start: start, End: p.end()}
		}
		e := p.term(0)
		if e == nil {
			return nil
		}
		switch {
		case p.is(0, ":"):
			p.i++
			ty := p.term(0)
			if ty == nil || !p.is(0, ")") {
				return nil
			}
			p.i++
			return p.cdots(&Term{Kind: TermAscribe, Start: start, End: p.end(), Args: []*Term{e, ty}})
		case p.is(0, ","):
			tup := &Term{Kind: TermTuple, Start: start, Args: []*Term{e}}
			for p.is(0, ",") {
				p.i++
				x := p.term(0)
				if x == nil {
					return nil
				}
				tup.Args = append(tup.Args, x)
			}
			if !p.is(0, ")") {
				return nil
			}
			p.i++
			tup.End = p.end()
			return p.cdots(tup)
		case p.is(0, ")"):
			p.i++
			// the parentheses are transparent; the node spans them
			e.Start, e.End = start, p.end()
			return p.cdots(e)
		}
		return nil
	})
}

// cdots turns a parenthesised term holding `·` into a lambda, as Lean does.
func (p *termParser) cdots(t *Term) *Term {
	var names []string
	var walk func(x *Term)
	walk = func(x *Term) {
		if x == nil {
			return
		}
		if x.Kind == TermCDot {
			x.Kind = TermIdent
			x.Text = "·" + string(rune('a'+len(names)%26)) + strings.Repeat("'", len(names)/26)
			names = append(names, x.Text)
			return
		}
		if x.Kind == TermLambda {
			return // a nested (· …) was already rewritten
		}
		for _, a := range x.Args {
			walk(a)
		}
		for _, b := range x.Binders {
			walk(b.Type)
			walk(b.Bound)
		}
	}
	walk(t)
	if len(names) == 0 {
		return t
	}
	return &Term{Kind: TermLambda, Start: t.Start, End: t.End, Binders: []Binder{{Names: names}}, Args: []*Term{t}}
}

// group parses a comma-separated list up to close.
func (p *termParser) group(kind TermKind, close string) *Term {
	return p.sub(func() *Term {
		g := &Term{Kind: kind, Start: p.peek(0).start}
		p.i++
		for !p.is(0, close) {
			x := p.term(0)
			if x == nil {
				return nil
			}
			g.Args = append(g.Args, x)
			if p.is(0, ",") {
				p.i++
			} else if !p.is(0, close) {
				return nil
			}
		}
		p.i++
		g.End = p.end()
		return g
	})
}

// brace parses {a, b}, {x | p}, {x : T | p} and {x ∈ s | p}.
func (p *termParser) brace() *Term {
	return p.sub(func() *Term {
		start := p.peek(0).start
		// set-builder: an identifier, optional binder predicate or type, then "|"
		if t := p.peek(1); t != nil && t.kind == TokIdent {
			save := p.i
			p.i += 2
			b := Binder{Names: []string{t.text}}
			ok := true
			if p.is(0, ":") {
				p.i++
				b.Type = p.term(0)
				ok = b.Type != nil
			} else if sym, n, _, isOp := p.symbolRun(0); isOp && binderPreds[sym] {
				p.i += n
				b.Pred, b.Bound = sym, p.term(51)
				ok = b.Bound != nil
			}
			if ok && p.is(0, "|") {
				p.i++
				body := p.term(0)
				if body == nil || !p.is(0, "}") {
					return nil
				}
				p.i++
				return &Term{Kind: TermSetBuilder, Start: start, End: p.end(), Binders: []Binder{b}, Args: []*Term{body}}
			}
			p.fail = false
			p.i = save
		}
		return p.group(TermSetLit, "}")
	})
}

// modEq parses the rest of `a ≡ b [MOD n]` after a.
func (p *termParser) modEq(a *Term) *Term {
	p.i++
	b := p.term(51)
	if b == nil || !p.is(0, "[") {
		p.fail = true
		return nil
	}
	kw := p.peek(1)
	if kw == nil || (kw.text != "MOD" && kw.text != "ZMOD") {
		p.fail = true
		return nil
	}
	p.i += 2
	n := p.term(0)
	if n == nil || !p.is(0, "]") {
		p.fail = true
		return nil
	}
	p.i++
	return &Term{Kind: TermModEq, Text: kw.text, Start: a.Start, End: p.end(), Args: []*Term{a, b, n}}
}

// ifThenElse parses `if c then a else b` and `if h : c then a else b`.
func (p *termParser) ifThenElse() *Term {
	start := p.peek(0).start
	p.i++
	name := ""
	if t := p.peek(0); t != nil && t.kind == TokIdent && p.is(1, ":") {
		name = t.text
		p.i += 2
	}
	c := p.term(0)
	if c == nil || !p.is(0, "then") {
		return nil
	}
	p.i++
	a := p.term(0)
	if a == nil || !p.is(0, "else") {
		return nil
	}
	p.i++
	b := p.term(0)
	if b == nil {
		return nil
	}
	return &Term{Kind: TermIf, Text: name, Start: start, End: p.end(), Args: []*Term{c, a, b}}
}

// binderTerm parses the binders and body of ∀, ∃, ∃!, fun and ∑/∏ after
// the keyword.
func (p *termParser) binderTerm(kind TermKind, text string, start int) *Term {
	t := &Term{Kind: kind, Text: text, Start: start}
	sep := ","
	if kind == TermLambda {
		sep = "=>"
	}
	for !p.fail {
		tok := p.peek(0)
		if tok == nil {
			return nil
		}
		switch {
		case tok.kind == TokIdent && tok.text != "in" && tok.text != "with" || tok.text == "_":
			// bare names, then an optional `: T` or binder predicate
			var names []string
			for p.peek(0) != nil && p.peek(0).kind == TokIdent && p.peek(0).text != "in" && p.peek(0).text != "with" {
				names = append(names, p.peek(0).text)
				p.i++
			}
			b := Binder{Names: names}
			if p.is(0, ":") {
				p.i++
				b.Type = p.term(0)
				if b.Type == nil {
					return nil
				}
			} else if p.is(0, "in") && kind == TermBigOp {
				p.i++
				b.Pred, b.Bound = "∈", p.term(51)
				if b.Bound == nil {
					return nil
				}
			} else if sym, n, _, ok := p.symbolRun(0); ok && binderPreds[sym] && kind != TermLambda {
				p.i += n
				b.Pred, b.Bound = sym, p.term(51)
				if b.Bound == nil {
					return nil
				}
			}
			t.Binders = append(t.Binders, b)
		case tok.text == "(" || tok.text == "{" || tok.text == "[" || tok.text == "⦃":
			b, ok := p.bracketBinder()
			if !ok {
				return nil
			}
			t.Binders = append(t.Binders, b)
		default:
			return nil
		}
		if len(t.Binders) > 0 && (p.is(0, sep) || p.is(0, "with")) {
			break
		}
		if kind == TermLambda && p.is(0, ",") {
			return nil
		}
		if p.peek(0) == nil {
			return nil
		}
		// a binder predicate or a type ends the binder list
		last := t.Binders[len(t.Binders)-1]
		if (last.Type != nil || last.Pred != "") && last.Bracket == 0 {
			return nil
		}
	}
	if p.fail || len(t.Binders) == 0 {
		return nil
	}
	var filter *Term
	if kind == TermBigOp && p.is(0, "with") {
		p.i++
		filter = p.term(0)
		if filter == nil {
			return nil
		}
	}
	if !p.is(0, sep) {
		return nil
	}
	p.i++
	prec := 0
	if kind == TermBigOp {
		prec = 67
	}
	body := p.term(prec)
	if body == nil {
		return nil
	}
	t.Args = []*Term{body}
	if filter != nil {
		t.Args = append(t.Args, filter)
	}
	t.End = p.end()
	return t
}

// bracketBinder parses (x y : T), {x : T}, [inst] and ⦃x : T⦄.
func (p *termParser) bracketBinder() (Binder, bool) {
	open := p.peek(0).text
	r, _ := utf8.DecodeRuneInString(open)
	close := map[string]string{"(": ")", "{": "}", "[": "]", "⦃": "⦄"}[open]
	p.i++
	b := Binder{Bracket: r}
	if open == "[" {
		// [inst] or [name : C]
		if t := p.peek(0); t != nil && t.kind == TokIdent && p.is(1, ":") {
			b.Names = []string{t.text}
			p.i += 2
		}
		b.Type = p.term(0)
		if b.Type == nil || !p.is(0, close) {
			return b, false
		}
		p.i++
		return b, true
	}
	for p.peek(0) != nil && p.peek(0).kind == TokIdent {
		b.Names = append(b.Names, p.peek(0).text)
		p.i++
	}
	if len(b.Names) == 0 {
		return b, false
	}
	if p.is(0, ":") {
		p.i++
		b.Type = p.term(0)
		if b.Type == nil {
			return b, false
		}
	} else if sym, n, _, ok := p.symbolRun(0); ok && binderPreds[sym] {
		p.i += n
		b.Pred, b.Bound = sym, p.term(51)
		if b.Bound == nil {
			return b, false
		}
	}
	if !p.is(0, close) {
		return b, false
	}
	p.i++
	return b, true
}

// ReplaceTokens renames the identifiers of t (its binders' types and bounds
// included) that constant maps: a notation token to the constant it stands
// for (Mathlib's ℝ≥0 to NNReal).
func ReplaceTokens(t *Term, constant func(tok string) (string, bool)) {
	if t == nil {
		return
	}
	if t.Kind == TermIdent {
		if c, ok := constant(t.Text); ok {
			t.Text = c
		}
	}
	for _, a := range t.Args {
		ReplaceTokens(a, constant)
	}
	for _, b := range t.Binders {
		ReplaceTokens(b.Type, constant)
		ReplaceTokens(b.Bound, constant)
	}
}

// String renders the term as an S-expression with its structure explicit,
// for tests and diagnostics: (+ a (* b c)), (∀ [x : ℕ] body).
func (t *Term) String() string {
	var sb strings.Builder
	t.write(&sb)
	return sb.String()
}

func (t *Term) write(sb *strings.Builder) {
	if t == nil {
		sb.WriteString("<nil>")
		return
	}
	switch t.Kind {
	case TermIdent, TermNum:
		sb.WriteString(t.Text)
		return
	case TermUnsupported:
		sb.WriteString("?{" + t.Text + "}")
		return
	}
	sb.WriteString("(")
	sb.WriteString(termKindNames[t.Kind])
	if t.Text != "" {
		sb.WriteString(" " + t.Text)
	}
	for _, b := range t.Binders {
		sb.WriteString(" [" + strings.Join(b.Names, " "))
		if b.Type != nil {
			sb.WriteString(" : ")
			b.Type.write(sb)
		}
		if b.Pred != "" {
			sb.WriteString(" " + b.Pred + " ")
			b.Bound.write(sb)
		}
		sb.WriteString("]")
	}
	for _, a := range t.Args {
		sb.WriteString(" ")
		a.write(sb)
	}
	sb.WriteString(")")
}

var termKindNames = [...]string{TermUnsupported: "?", TermIdent: "id", TermNum: "num", TermApp: "app", TermInfix: "op",
	TermPrefix: "pre", TermPostfix: "post", TermAscribe: "as", TermAbs: "abs", TermAnon: "anon", TermTuple: "tuple",
	TermList: "list", TermSetLit: "set", TermSetBuilder: "setOf", TermLambda: "fun", TermForall: "∀", TermExists: "∃",
	TermExistsUnique: "∃!", TermBigOp: "big", TermIf: "if", TermModEq: "≡", TermProj: "proj", TermCDot: "·"}

// ParseHeader parses a declaration header after its name: bracketed
// binders, then an optional `: type` (nil when absent). A binder or type
// outside the fragment gets a TermUnsupported type; ok is false only when
// the text is not of that shape (unbalanced brackets, no colon before the
// type).
func ParseHeader(src string, ops func(symbol string) (Operator, bool)) (binders []Binder, typ *Term, ok bool) {
	binders, typ, _, ok = ParseHeaderChain(src, ops)
	return binders, typ, ok
}

// chainable are the relations a chain is reported for: those whose
// symbol no other notation starts with (unlike ∈ in 𝔼 i ∈ s, or < in <$>),
// and divisibility, whose longer notations (∣_, ∣[) are tokens of their
// own or start no term.
var chainable = map[string]bool{"<": true, "≤": true, ">": true, "≥": true, "=": true, "≠": true, "∣": true}

// startsTerm reports whether the token after the n tokens of a symbol
// starts a term: a name, a numeral, a parenthesis, a big operator, a floor
// or ceiling or a root (not `$>` of `<$>`).
func (p *termParser) startsTerm(n int) bool {
	t := p.peek(n)
	if t == nil {
		return false
	}
	switch t.text {
	case "(", "∑", "∏", "⌊", "⌈", "√":
		return true
	}
	return t.kind == TokIdent || t.kind == TokNumber
}

// Chain is a relation written right after another of the same
// non-associative level (the ≤ of `0 < x ≤ 1`): Lean's parser stops before
// it, so the statement does not parse. Start and End are byte offsets of
// the symbol.
type Chain struct {
	Symbol     string
	Start, End int
}

// ParseHeaderChain is ParseHeader that also returns the first chained
// relation of the header (nil when none).
func ParseHeaderChain(src string, ops func(symbol string) (Operator, bool)) (binders []Binder, typ *Term, chain *Chain, ok bool) {
	toks, errs := Scan([]byte(src))
	if len(errs) > 0 {
		return nil, nil, nil, false
	}
	p := &termParser{src: src, ops: ops}
	for _, t := range toks {
		if t.Kind != TokDoc && t.Kind != TokModDoc && t.Kind != TokComment {
			p.toks = append(p.toks, ptok{kind: t.Kind, text: src[t.Start:t.End], start: int(t.Start), end: int(t.End)})
		}
	}
	for p.i < len(p.toks) && !p.is(0, ":") {
		t := p.peek(0)
		if t.text != "(" && t.text != "{" && t.text != "[" && t.text != "⦃" {
			return nil, nil, nil, false
		}
		open := p.i
		b, good := p.bracketBinder()
		if !good || p.fail {
			p.fail, p.i = false, open
			g := p.skipGroup()
			if g == nil {
				return nil, nil, nil, false
			}
			r, _ := utf8.DecodeRuneInString(t.text)
			b = Binder{Bracket: r, Type: g}
		}
		binders = append(binders, b)
	}
	if p.is(0, ":") {
		start := p.peek(0).end
		p.i++
		typ = p.term(0)
		if typ == nil || p.fail || p.i < len(p.toks) {
			typ = &Term{Kind: TermUnsupported, Start: start, End: len(src), Text: strings.TrimSpace(src[start:])}
		}
	}
	return binders, typ, p.chain, true
}

// GroupNames returns the names binder group b binds and its type as
// written in src (the text b was parsed from), also for a group whose type
// the term parser does not read, which ParseHeader keeps whole with no
// names ({α : Type*}). An instance group without a name binds none.
func GroupNames(b Binder, src string) ([]string, string) {
	typ := ""
	if b.Type != nil && b.Type.End <= len(src) {
		typ = strings.TrimSpace(src[b.Type.Start:b.Type.End])
	}
	if len(b.Names) > 0 || b.Type == nil || b.Type.Kind != TermUnsupported || b.Bracket == '[' {
		return b.Names, typ
	}
	_, size := utf8.DecodeRuneInString(typ)
	inner := strings.TrimSpace(typ[size:])
	inner = strings.TrimRight(inner, ")}⦄")
	names, t, ok := strings.Cut(inner, ":")
	if !ok {
		return strings.Fields(names), ""
	}
	return strings.Fields(names), strings.TrimSpace(t)
}
