package coverage

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// stubFacts is what a stub states, as far as coverage looks: its numerals,
// the numeral bounds of its comparisons, the pieces of its names and its
// binders and quantifiers.
type stubFacts struct {
	numerals  map[string]bool // canonical numerals, unsigned
	bounds    map[bound]bool
	counts    map[string]int  // how often each numeral is written
	assumed   map[bound]bool  // bounds of hypotheses, binders, set-builders, intervals and types
	times     map[bound]int   // how many comparisons state each bound
	pieces    map[string]bool // lower-case name pieces and notation words
	says      map[string]bool // words of a statement its notation says, for concepts only (x * x: square)
	names     []string        // identifiers as written
	symbols   map[string]bool
	binder    bool       // a binder before the colon, or ∀ / fun / set-builder
	equation  bool       // the stub states an equation or an equivalence
	equations []equation // its equations to a numeral
	// dvdLeft and dvdRight are the numerals written left and right of ∣,
	// modulus those a remainder or congruence is taken by (divides.go).
	dvdLeft, dvdRight, modulus map[string]bool
}

// equation is one equation of a stub to numeral c, with the numerals of
// its other side.
type equation struct {
	c    num
	side []string
}

// notationWords are the name pieces behind Lean notation, so that a
// concept retrieved as `Dvd.dvd` is stated by `∣` and one retrieved as
// `Nat` by `ℕ`.
var notationWords = map[string]string{
	"∣": "dvd", "ℕ": "nat", "ℤ": "int", "ℚ": "rat", "ℝ": "real", "ℂ": "complex", "∑": "sum", "∏": "prod",
	"√": "sqrt", "!": "factorial", "⁻¹": "inv", "%": "mod", "∈": "mem", "⊆": "subset", "∩": "inter",
	"∪": "union", "|": "abs", "∘": "comp", "≡": "modeq", "^": "pow", "⌊": "floor", "⌈": "ceil", "≤": "le",
	"<": "lt", "≠": "ne", "∫": "integral", "⊥": "bot", "⊤": "top", "∅": "empty", "×": "prod", "⧸": "quotient",
	"‖": "norm", "•": "smul", "∞": "top", "⊂": "ssubset", "ᶜ": "compl", "π": "pi", "⁻": "inv", "ˣ": "unit",
}

// numberTypeWords are the words of a statement that a number type states
// (a binder's type ascription (n : ℕ) says "natural number"; a positive
// or non-negative integer is stated in ℕ as a rule).
var numberTypeWords = map[string][]string{
	"ℕ": {"natural", "integer"}, "Nat": {"natural", "integer"}, "ℤ": {"integer"}, "Int": {"integer"}, "ℚ": {"rational"},
	"Rat": {"rational"}, "ℝ": {"real"}, "Real": {"real"}, "ℂ": {"complex"}, "Complex": {"complex"},
}

// natural are the types whose values are at least 0.
var natural = map[string]bool{"ℕ": true, "Nat": true, "NNReal": true, "ENNReal": true, "ℝ≥0": true, "ℝ≥0∞": true, "PNat": true}

// readStub reads a stub's statement.
func readStub(stub string) *stubFacts {
	if !utf8.ValidString(stub) {
		stub = strings.ToValidUTF8(stub, " ")
	}
	stub = statementOf(stub)
	toks, _ := leansrc.Scan([]byte(stub))
	ws := make([]word, 0, len(toks))
	for _, t := range toks {
		if t.Kind == leansrc.TokDoc || t.Kind == leansrc.TokModDoc {
			continue
		}
		ws = append(ws, word{kind: t.Kind, text: stub[t.Start:t.End], start: int(t.Start), end: int(t.End), stub: true})
	}
	ws = joinRelations(ws)
	f := &stubFacts{numerals: map[string]bool{}, bounds: map[bound]bool{}, assumed: map[bound]bool{}, times: map[bound]int{}, counts: map[string]int{}, pieces: map[string]bool{}, says: map[string]bool{}, symbols: map[string]bool{},
		dvdLeft: map[string]bool{}, dvdRight: map[string]bool{}, modulus: map[string]bool{}}
	colon, builder := topColon(ws), setBuilders(ws)
	for i, w := range ws {
		switch w.kind {
		case leansrc.TokIdent:
			f.ident(ws, i)
		case leansrc.TokSymbol:
			f.symbol(ws, i, colon)
		}
		if w.text == "∣" {
			f.dvdSide(ws, i)
		}
		f.remainder(ws, i)
		if n, a, b, ok := numeral(ws, i); ok {
			f.numeral(ws, i, n, a, b, i < colon || builder[i])
		}
	}
	if !f.binder && autoBound(ws) {
		f.binder = true // n + 0 = n binds n for every n (auto-bound implicit)
	}
	f.derive()
	return f
}

// binderWords are the words after which identifiers are bound up to a
// comma, an arrow or a colon.
var binderWords = map[string]bool{"∃": true, "∀": true, "fun": true, "λ": true, "∑": true, "∏": true, "⋃": true, "⋂": true, "∃!": true}

// autoBound reports whether the stub's statement has a variable it does not
// bind: a letter (x, n, a₁, x') no binder, quantifier, lambda or
// set-builder binds, which Lean binds as an implicit argument for every
// value (autoImplicit).
func autoBound(ws []word) bool {
	bound := map[string]bool{}
	for i, w := range ws {
		if binderWords[w.text] || w.text == "{" && i+2 < len(ws) && ws[i+2].text == "|" {
			for j := i + 1; j < len(ws) && ws[j].text != "," && ws[j].text != "=>" && ws[j].text != "↦" && ws[j].text != ":" && ws[j].text != "|"; j++ {
				if ws[j].kind == leansrc.TokIdent {
					bound[ws[j].text] = true
				}
			}
		}
	}
	for i, w := range ws {
		if w.kind != leansrc.TokIdent || bound[w.text] || i > 0 && ws[i-1].text == "." {
			continue
		}
		r, size := utf8.DecodeRuneInString(w.text)
		if r >= 'a' && r <= 'z' && strings.TrimRight(w.text[size:], "₀₁₂₃₄₅₆₇₈₉0123456789'") == "" {
			return true
		}
	}
	return false
}

// ident records what identifier ws[i] says: its name pieces, a square
// written x * x, ℕ+, a binder, a type whose values are at least 0.
func (f *stubFacts) ident(ws []word, i int) {
	w := ws[i]
	f.names = append(f.names, w.text)
	for _, p := range pieces(w.text) {
		f.pieces[singular(p)] = true
	}
	if p, ok := notationWords[w.text]; ok {
		f.pieces[p] = true
	}
	for _, word := range numberTypeWords[w.text] {
		f.says[word] = true // (n : ℕ) says "natural number"
	}
	if i+2 < len(ws) && ws[i+1].text == "*" && ws[i+2].text == w.text {
		f.numerals["2"] = true // x * x
		f.counts["2"]++
		f.says["square"] = true
	}
	if w.text == "ℕ" && i+1 < len(ws) && ws[i+1].text == "+" {
		f.pieces["pnat"] = true
	}
	if w.text == "fun" || w.text == "λ" {
		f.binder = true
	}
	if w.text == "I" {
		f.pieces["unitinterval"] = true
	}
	if natural[w.text] {
		f.assume(bound{relLowerEq, num{s: "0"}})
		f.assume(bound{relLower, num{s: "1", neg: true}})
	}
}

// symbol records what symbol ws[i] says: its notation's name piece, ∃!,
// an equation, a binder.
func (f *stubFacts) symbol(ws []word, i, colon int) {
	w := ws[i]
	f.symbols[w.text] = true
	if p, ok := notationWords[w.text]; ok {
		f.pieces[p] = true
	}
	if w.text == "∃" && i+1 < len(ws) && ws[i+1].text == "!" && ws[i+1].start == w.end {
		f.pieces["unique"] = true
	}
	for _, n := range wordNotations {
		if w.text == n.symbol {
			for p := range n.reads {
				f.says[p] = true
			}
		}
	}
	if w.text == "^" && i+1 < len(ws) && ws[i+1].text == "2" {
		f.says["square"] = true // x ^ 2
	}
	for _, word := range operationNouns[w.text] {
		f.says[singular(word)] = true // n * (n + 1) says "product", "times" (as conceptWords reads them)
	}
	if w.text == "^" && i+1 < len(ws) && ws[i+1].text == "3" {
		f.says["cube"] = true // x ^ 3
	}
	if w.text == "=" || w.text == "↔" {
		f.equation = true
	}
	if i < colon && (w.text == "(" || w.text == "{" || w.text == "⦃" || w.text == "[") {
		f.binder = true
	}
	if w.text == "∀" || w.text == "|" && i > 0 && ws[i-1].kind == leansrc.TokIdent {
		f.binder = true
	}
}

// numeral records the numeral operand n = ws[a..b] found at word i: the
// numeral, the bound or equation it is a side of (assumed: in a hypothesis
// or a set-builder), the interval it is an end of.
func (f *stubFacts) numeral(ws []word, i int, n num, a, b int, assumed bool) {
	f.numerals[n.s] = true
	if ws[i].kind == leansrc.TokNumber {
		plain, _, _ := parseNum(ws[i].text)
		f.counts[plain.s]++
		f.numerals[plain.s] = true // 7 / 2 is 3.5, and 7
	}
	if bd, r, ok := boundOf(ws, n, a, b); ok {
		f.bounds[bd] = true
		f.times[bd]++
		if assumed || r >= 2 && (ws[r-2].text == "∀" || ws[r-2].text == "∃") {
			f.assumed[bd] = true
		}
		if bd.rel == relEq {
			_, _, side := otherSide(ws, a, b, r)
			f.equations = append(f.equations, equation{bd.c, sideNumerals(ws, side[0], side[1])})
		}
	}
	f.intervals(ws, a, n)
}

// derive adds the bounds that follow from others: a prime is at least 2,
// and x ≥ c with x ≠ c is x > c.
func (f *stubFacts) derive() {
	if f.pieces["prime"] {
		// a prime is at least 2
		for _, b := range []bound{{relLowerEq, num{s: "2"}}, {relLower, num{s: "0"}}, {relLowerEq, num{s: "0"}}, {relNe, num{s: "0"}}, {relNe, num{s: "1"}}} {
			for _, e := range b.equivalents() {
				f.assume(e)
			}
		}
	}
	// x ≥ c and x ≠ c say x > c (n : ℕ with n ≠ 0 is positive; a prime
	// other than 2 is greater than 2)
	var ne []bound
	for b := range f.bounds {
		if b.rel == relNe {
			ne = append(ne, b)
		}
	}
	for _, b := range ne {
		for _, r := range [][2]rel{{relLowerEq, relLower}, {relUpperEq, relUpper}} {
			if f.bounds[bound{r[0], b.c}] {
				for _, e := range (bound{r[1], b.c}).equivalents() {
					f.assume(e)
				}
			}
		}
	}
}

// intervalBounds are the bounds an interval or range puts on its members,
// by argument: Icc a b is a ≤ x ∧ x ≤ b.
var intervalBounds = map[string][2]rel{
	"Icc": {relLowerEq, relUpperEq}, "Ico": {relLowerEq, relUpper}, "Ioc": {relLower, relUpperEq},
	"Ioo": {relLower, relUpper}, "Ici": {relLowerEq, 0}, "Ioi": {relLower, 0}, "Iic": {relUpperEq, 0},
	"Iio": {relUpper, 0}, "range": {relUpper, 0}, "Fin": {relUpper, 0}, "uIcc": {relLowerEq, relUpperEq},
	"closedBall": {0, relUpperEq}, "ball": {0, relUpper}, "sphere": {0, relEq},
}

// intervals records the bound that numeral n at ws[i] puts on the members
// of an interval it is an argument of (Finset.Icc 1 n, Set.Ioi 0).
func (f *stubFacts) intervals(ws []word, a int, n num) {
	record := func(j, arg int) bool {
		if j < 0 || ws[j].kind != leansrc.TokIdent {
			return false
		}
		name := ws[j].text[strings.LastIndexByte(ws[j].text, '.')+1:]
		rs, ok := intervalBounds[name]
		if !ok {
			return false
		}
		if r := rs[arg]; r != 0 {
			f.assume(bound{r, n})
		}
		if name == "range" || name == "Fin" {
			f.assume(bound{relLowerEq, num{s: "0"}})
		}
		return true
	}
	if record(a-1, 0) {
		return
	}
	j := a - 1 // the end of the first argument
	switch {
	case j >= 0 && ws[j].text == ")":
		for depth := 0; j >= 0; j-- {
			if ws[j].text == ")" {
				depth++
			} else if ws[j].text == "(" {
				if depth--; depth == 0 {
					break
				}
			}
		}
	case j < 0 || ws[j].kind != leansrc.TokIdent && ws[j].kind != leansrc.TokNumber:
		return
	}
	record(j-1, 1)
}

// statementOf returns what a declaration's text says, through the syntax
// layer: after its keyword and name, up to its proof. Text that is no
// declaration (binders and a conclusion) is cut at its proof only.
func statementOf(stub string) string {
	if start, end, ok := leansrc.StubKeyword(stub); ok {
		rest := strings.TrimLeft(stub[end:], " \t\r\n")
		if stub[start:end] != "example" {
			_, rest = leansrc.LeadingName(rest)
		}
		stub = rest
	}
	statement, _, _ := leansrc.SplitProof(stub)
	return statement
}

// setBuilders marks the words after the bar of a set-builder {x | …}.
func setBuilders(ws []word) []bool {
	out := make([]bool, len(ws))
	type open struct{ brace, bar bool }
	var stack []open
	inside := 0 // open braces past their bar
	for i, w := range ws {
		switch w.text {
		case "(", "[", "{", "⦃", "⟨":
			stack = append(stack, open{brace: w.text == "{"})
		case ")", "]", "}", "⦄", "⟩":
			if n := len(stack); n > 0 {
				if stack[n-1].bar {
					inside--
				}
				stack = stack[:n-1]
			}
		case "|":
			if n := len(stack); n > 0 && stack[n-1].brace && !stack[n-1].bar {
				stack[n-1].bar = true
				inside++
			}
		}
		out[i] = inside > 0
	}
	return out
}

// topColon returns the index of the colon that ends the binders, or -1.
func topColon(ws []word) int {
	depth := 0
	for i, w := range ws {
		depth += leansrc.BracketDelta(w.text)
		if w.text == ":" && depth == 0 {
			return i
		}
	}
	return -1
}

// pieces splits an identifier into lower-case pieces at dots, underscores
// and lower-to-upper case changes, and adds its whole lower-case last
// component (Nat.Prime → nat, prime; ne_zero → ne, zero, ne_zero).
func pieces(id string) []string {
	var out []string
	last := id[strings.LastIndexByte(id, '.')+1:]
	out = append(out, strings.ToLower(last))
	start := 0
	prevLower := false
	for i, r := range id {
		switch {
		case r == '.' || r == '_':
			if i > start {
				out = append(out, strings.ToLower(id[start:i]))
			}
			start = i + 1
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			out = append(out, strings.ToLower(id[start:i]))
			start = i
		}
		prevLower = unicode.IsLower(r)
	}
	if start < len(id) {
		out = append(out, strings.ToLower(id[start:]))
	}
	return out
}

// assume records a bound the stub assumes: a hypothesis, a binder's
// type or an interval's.
func (f *stubFacts) assume(b bound) {
	f.bounds[b] = true
	f.assumed[b] = true
}

// hasBound reports whether the stub states one of bs.
func (f *stubFacts) hasBound(bs []bound) bool {
	for _, b := range bs {
		if f.bounds[b] {
			return true
		}
	}
	return false
}

// hasEquation reports whether the stub has an equation to c whose other
// side has every numeral of side.
func (f *stubFacts) hasEquation(c num, side []string) bool {
	for _, e := range f.equations {
		if e.c != c {
			continue
		}
		all := true
		for _, s := range side {
			all = all && slices.Contains(e.side, s)
		}
		if all {
			return true
		}
	}
	return false
}

// stronger reports whether the stub states a bound of the same direction
// that implies b (10 ≤ m implies m > 0), for a sign word.
func (f *stubFacts) stronger(b bound) bool {
	for h := range f.assumed {
		if atLeast(h, b) {
			return true
		}
	}
	return false
}

// atLeast reports whether bound h implies bound b on the same side (x > 1
// implies x > 0 and x ≥ 1).
func atLeast(h, b bound) bool {
	want, err := strconv.ParseFloat(b.c.String(), 64)
	if err != nil {
		return false
	}
	v, err := strconv.ParseFloat(h.c.String(), 64)
	if err != nil {
		return false
	}
	switch b.rel {
	case relLower, relLowerEq:
		return (h.rel == relLower || h.rel == relLowerEq) && (v > want || v == want && (h.rel == relLower || b.rel == relLowerEq))
	case relUpper, relUpperEq:
		return (h.rel == relUpper || h.rel == relUpperEq) && (v < want || v == want && (h.rel == relUpper || b.rel == relUpperEq))
	}
	return false
}

// hasPiece reports whether a name of the stub has one of ps as a piece.
func (f *stubFacts) hasPiece(ps ...string) bool {
	for _, p := range ps {
		if f.pieces[p] {
			return true
		}
	}
	return false
}

// numeralEquivalents are name pieces and notations that state a small
// numeral without writing it: `sq` and `Even` say 2, `⁻¹` says 1.
var numeralEquivalents = map[string][]string{
	"0": {"zero", "bot", "empty", "nonneg", "pos", "nontrivial", "range"}, // Finset.range n starts at 0
	"1": {"one", "inv", "succ", "pred", "unit", "top", "bot"},
	"2": {"sq", "sqrt", "square", "even", "odd", "two", "double", "half", "bit0", "parity"},
	"3": {"three", "cube", "cbrt"},
}

// covers reports whether the stub accounts for c.
func (f *stubFacts) covers(c cond) bool {
	switch c.kind {
	case KindOrder:
		return !f.reversesDivisor(c) && !(c.assumed && f.omitsDivisor(c))
	case KindQuantity:
		all := len(c.values) > 0
		for _, v := range c.values {
			all = all && f.numerals[v.s]
		}
		return all || f.hasPiece(c.pieces...)
	case KindComparison:
		if len(c.side) > 0 {
			return f.hasEquation(c.bounds[0].c, c.side)
		}
		if f.hasPiece(c.pieces...) {
			return true
		}
		if c.many > 1 {
			// said of k variables: k hypotheses (of a sign word, each may
			// be stronger: 1 < m for a positive m)
			n := 0
			for h, k := range f.times {
				if slices.Contains(c.bounds, h) || c.sign && atLeast(h, c.bounds[0]) {
					n += k
				}
			}
			if n < c.many {
				return false
			}
		}
		if f.hasBound(c.bounds) || c.sign && f.stronger(c.bounds[0]) {
			return true
		}
	}
	if f.quantifier(c.quant, c.bounds) {
		return true
	}
	return c.also != 0 && f.quantifier(c.also, nil)
}

// quantifier reports whether the stub states a quantifier of sort q
// (exactly: the bound bs).
func (f *stubFacts) quantifier(q quant, bs []bound) bool {
	switch q {
	case quantAll:
		return f.binder || f.symbols["∑"] || f.symbols["∏"] || f.symbols["⋂"] || f.symbols["⋃"]
	case quantExists:
		return f.symbols["∃"] || f.hasPiece("exist", "nonempty", "surjective", "infinite", "inhabited")
	case quantExactly:
		return f.hasBound(bs)
	case quantUnique:
		return f.equation || f.hasPiece("unique", "subsingleton", "injective")
	case quantInfinite:
		// Set.Infinite, Infinite, ∃ᶠ / Frequently, unbounded, an injective
		// or strictly monotone sequence, or ∀ N, ∃ n ≥ N (a binder, an ∃
		// and an order comparison)
		order := f.symbols["<"] || f.symbols[">"] || f.symbols["≤"] || f.symbols["≥"]
		return f.symbols["∃ᶠ"] || f.hasPiece("infinite", "frequently", "unbounded", "notbddabove", "attop", "cofinite",
			"injective", "strictmono", "tendsto") || f.binder && f.symbols["∃"] && order
	case quantDistinct:
		return f.symbols["≠"] || f.symbols["¬"] || f.hasPiece("injective", "injon", "pairwise", "nodup", "card", "ncard",
			"encard", "distinct", "disjoint", "ne", "finset", "divisor", "tofinset", "rootset")
	}
	return false
}

// conceptStop are words of a sub-query that name no concept of their own
// (a sub-query may be a whole sentence: "a prime number is a natural
// number greater than 1 that has no divisors other than 1 and itself").
var conceptStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for with that this then than there their which where when who whose such
	from into onto over under some all every any each its are was were has have had not but also only other
	let show prove given number numbers function functions set sets element elements value values
	thing things one two itself themselves`) {
		m[w] = true
	}
	return m
}()

// statedConcept returns the word of statement (as written) that names
// concept c: a piece of the last component of one of its premises' names
// ("primes" for Nat.Prime), else a content word of a short sub-query (at
// most four content words: "divides" for "divides"); "" when the statement
// names neither, as for a model's whole-sentence sub-query.
func statedConcept(statement string, c Concept) string {
	want := map[string]bool{}
	for _, n := range c.Names {
		for _, p := range pieces(n[strings.LastIndexByte(n, '.')+1:]) {
			if len(p) >= 3 && !conceptStop[p] {
				want[singular(p)] = true
			}
		}
	}
	if ws := conceptWords(c.Phrase); len(ws) <= 4 {
		for _, w := range ws {
			want[w] = true
		}
	}
	for _, w := range strings.FieldsFunc(statement, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if want[singular(strings.ToLower(w))] {
			return w
		}
	}
	return ""
}

// conceptWords are the lower-case content words of a sub-query phrase,
// with a plural's s dropped.
func conceptWords(phrase string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(phrase), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) < 3 || conceptStop[w] {
			continue
		}
		if p, ok := pastParticiples[w]; ok {
			w = p // "a squared" is said by x ^ 2, as "square" is
		}
		out = append(out, singular(w))
	}
	return out
}

// operationNouns are the words a statement names an arithmetic operation
// by, said by its symbol: a concept "product" or "times" is stated by n *
// (n + 1).
var operationNouns = map[string][]string{"*": {"product", "times", "multiplied", "twice", "double"}, "+": {"sum", "plus", "added"},
	"-": {"difference", "minus", "subtracted"}, "/": {"quotient", "divided", "half"}, "^": {"power", "raised"}}

// pastParticiples are the concept words that name a power by its verb.
var pastParticiples = map[string]string{"squared": "square", "cubed": "cube"}

func singular(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// mentions reports whether the stub names one of the premises (by full
// name, or by a name whose last component is the premise's) or a name with
// one of the concept's words as a piece.
func (f *stubFacts) mentions(names, words []string) bool {
	for _, n := range names {
		last := n[strings.LastIndexByte(n, '.')+1:]
		if last == "" {
			continue
		}
		for _, s := range f.names {
			if s == n || s == last || strings.HasSuffix(s, "."+last) {
				return true
			}
		}
		if notation := strings.ToLower(last); f.pieces[notation] && len(notation) > 2 {
			return true
		}
	}
	for _, w := range words {
		if f.pieces[w] || f.says[w] {
			return true
		}
	}
	return false
}
