package coverage

import (
	"strings"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// quant is the sort of a quantifier condition.
type quant uint8

const (
	quantAll      quant = iota + 1 // every, for all: a binder or ∀
	quantExists                    // there exists, for some: ∃
	quantExactly                   // exactly k: = k
	quantUnique                    // unique: ∃! or an equation
	quantDistinct                  // distinct: ≠ or injectivity
	quantInfinite                  // infinitely many: Set.Infinite, ∃ᶠ, or ∀ N, ∃ n ≥ N
)

// cond is one condition read from a statement and what covers it.
type cond struct {
	phrase  string
	kind    Kind
	bounds  []bound  // comparison: any one of them; exactly k: = k
	values  []num    // quantity: all of them
	quant   quant    // quantifier
	pieces  []string // name pieces that also cover the condition ("pos")
	also    quant    // a second quantifier sort that covers it (exactly one: unique)
	sign    bool     // a sign word: any stronger lower or upper bound covers it
	side    []string // an equation: numerals its other side must have too
	counted bool     // a numeral of math other than 0 and 1: the stub must write it as often
	many    int      // a sign word: the variables it is said of
	subject Subject  // a comparison: what it is said of
	// divisorLeft: an order of ∣ whose numeral (values[0]) is the divisor,
	// on the left ("divisible by 6"); else on the right ("divides 6").
	divisorLeft bool
	assumed     bool // said in a clause that assumes ("if n is divisible by 4")
}

// bound is the exported form of c's stated bound: the first of a
// comparison's bounds (the one the statement writes), nil for other kinds,
// equations and equalities.
func (c cond) bound() *Bound {
	if c.kind != KindComparison || len(c.bounds) == 0 || len(c.side) > 0 {
		return nil
	}
	b := c.bounds[0]
	sym := map[rel]string{relLower: ">", relLowerEq: "≥", relUpper: "<", relUpperEq: "≤", relNe: "≠"}[b.rel]
	if sym == "" {
		return nil
	}
	return &Bound{Rel: sym, Value: b.c.String()}
}

// comparisonPhrase is a prose spelling of an order relation to the
// numeral that follows it.
type comparisonPhrase struct {
	words []string
	rel   rel
}

// comparisonPhrases are the comparison phrases, longest first.
var comparisonPhrases = func() []comparisonPhrase {
	var out []comparisonPhrase
	for _, group := range []struct {
		rel     rel
		phrases string
	}{
		{relLowerEq, "greater than or equal to|larger than or equal to|bigger than or equal to"},
		{relUpperEq, "less than or equal to|smaller than or equal to"},
		{relLower, "strictly greater than|strictly larger than|strictly bigger than"},
		{relUpper, "strictly less than|strictly smaller than"},
		{relLowerEq, "no less than|not less than|no smaller than|not smaller than|no fewer than|not fewer than"},
		{relUpperEq, "no more than|not more than|no greater than|not greater than|no larger than|not larger than|does not exceed|do not exceed|not exceeding"},
		{relNe, "not equal to|different from"},
		{relLowerEq, "at least"},
		{relUpperEq, "at most"},
		{relLower, "greater than|larger than|bigger than|more than|exceeds|exceeding|exceed"},
		{relUpper, "less than|smaller than|fewer than"},
	} {
		for _, p := range strings.Split(group.phrases, "|") {
			out = append(out, comparisonPhrase{strings.Fields(p), group.rel})
		}
	}
	return out
}()

// signWords are the words that compare with zero, with the name pieces
// that state them in Lean (ℕ is non-negative by its type).
var signWords = map[string]struct {
	bounds []bound
	pieces []string
}{
	"positive":    {[]bound{{relLower, num{s: "0"}}, {relLowerEq, num{s: "1"}}}, []string{"pos", "positive", "pnat"}},
	"negative":    {[]bound{{relUpper, num{s: "0"}}, {relUpperEq, num{s: "1", neg: true}}}, []string{"neg", "negative"}},
	"nonnegative": {[]bound{{relLowerEq, num{s: "0"}}, {relLower, num{s: "1", neg: true}}}, []string{"nonneg", "nonnegative", "nat", "ℕ", "nnreal", "pnat"}},
	"nonpositive": {[]bound{{relUpperEq, num{s: "0"}}, {relUpper, num{s: "1"}}}, []string{"nonpos", "nonpositive"}},
	"nonzero":     {[]bound{{relNe, num{s: "0"}}, {relLower, num{s: "0"}}, {relLowerEq, num{s: "1"}}}, []string{"ne_zero", "nonzero", "pos", "pnat", "unit"}},
}

// notSign are the words after which "positive" or "negative" is no sign
// of a number (a positive definite form, a negative exponent's base).
var notSign = map[string]bool{"definite": true, "semidefinite": true, "semi": true, "characteristic": true, "measure": true}

// measures are the nouns a number word after them is the value of
// ("order five", "degree three").
var measures = map[string]bool{"order": true, "degree": true, "index": true, "dimension": true, "rank": true,
	"length": true, "characteristic": true, "size": true, "cardinality": true, "exponent": true, "period": true}

// antecedents open a clause that assumes rather than asserts; conclusions
// open one that asserts.
var (
	antecedents = map[string]bool{"if": true, "suppose": true, "assume": true, "assuming": true, "given": true, "let": true,
		"whenever": true, "where": true, "when": true, "since": true, "because": true, "unless": true, "provided": true}
	conclusions = map[string]bool{"then": true, "prove": true, "show": true, "deduce": true, "conclude": true, "verify": true, "establish": true}
)

// extract reads the conditions of a statement in the order they occur:
// its prose phrases, then the comparisons written in math, then the
// numerals left.
func extract(statement string) []cond {
	x := &extraction{statement: statement, ws: read(statement)}
	x.lw = make([]string, len(x.ws))
	for i, w := range x.ws {
		if w.kind == leansrc.TokIdent {
			x.lw[i] = strings.ToLower(w.text)
		}
	}
	x.used = definitions(x.ws, x.lw)
	x.ellipsis = map[int]bool{}
	for _, w := range x.ws {
		if w.text == "…" && w.math {
			x.ellipsis[w.seg] = true
		}
	}
	for i := 0; i < len(x.ws); i++ {
		if !x.used[i] && !x.ws[i].math && x.ws[i].kind == leansrc.TokIdent {
			i = x.phrase(i)
		}
	}
	for i := range x.ws {
		if !x.used[i] && x.ws[i].math {
			x.mathComparison(i)
		}
	}
	for i := range x.ws {
		if !x.used[i] {
			x.numeral(i)
		}
	}
	return x.out
}

// root is what a root the statement takes ("the square root of") needs of
// a stub: its exponent (x ^ (1 / 2)) or a name piece of the function
// (Real.sqrt, √ x). Only the function applied is one: "a square root of T"
// and "a cube root of 1" name a property, which a stub states as S ^ 2 = T;
// and √ in the statement's math is left alone, since it also writes
// definitions (s₁ = √2) and radicals that a stub states by their powers.
type root struct {
	exponent num
	pieces   []string
}

// roots are the roots a statement names in words: "square" is no 2 there.
var roots = map[string]root{
	"square": {num{s: "0.5"}, []string{"sqrt", "root"}},
	"cube":   {num{s: "1/3"}, []string{"cbrt", "root"}},
}

// absolutePieces state "the absolute value": |x| (read as abs), abs,
// Int.natAbs, the norm ‖x‖ and the distance |x - y| is.
var absolutePieces = []string{"abs", "natabs", "nnabs", "norm", "nnnorm", "dist"}

// cond is the condition of a root the statement writes as phrase.
func (r root) cond(phrase string) cond {
	return cond{phrase: phrase, kind: KindQuantity, values: []num{r.exponent}, pieces: r.pieces}
}

// extraction is the state of one extract call.
type extraction struct {
	statement string
	ws        []word
	lw        []string     // the lower-case text of identifiers, "" for other words
	used      []bool       // words already part of a condition, or of an aside
	ellipsis  map[int]bool // math spans with an ellipsis (1 + 2 + ⋯ + n)
	out       []cond
}

// text is the statement's text from word a to word b.
func (x *extraction) text(a, b int) string { return x.statement[x.ws[a].start:x.ws[b].end] }

// use marks words a..b as part of a condition.
func (x *extraction) use(a, b int) {
	for k := a; k <= b; k++ {
		x.used[k] = true
	}
}

// numberAt reads the numeral or number word at ws[j] whose right side is
// free and returns it with its last word.
func (x *extraction) numberAt(j int) (num, int, bool) {
	ws, lw := x.ws, x.lw
	if j >= len(ws) {
		return num{}, 0, false
	}
	if v, ok := numberWords[lw[j]]; ok && !ws[j].math {
		if j+1 < len(ws) && (ws[j+1].text == "-" || strings.HasSuffix(lw[j+1], "ths") || strings.HasSuffix(lw[j+1], "thirds") || lw[j+1] == "halves" || lw[j+1] == "quarters") {
			return num{}, 0, false // three-fourths is a fraction
		}
		if operandInWords(lw, j) {
			return num{}, 0, false
		}
		return num{s: v}, j, true
	}
	n, _, b, ok := numeral(ws, j)
	if !ok || !rightFree(ws, b) || operandInWords(lw, b) {
		return num{}, 0, false
	}
	return n, b, true
}

// operationWords are the words after a number that make it an operand of
// an expression said in words ("2 to the power n", "3 times n"), not the
// bound itself.
var operationWords = map[string]bool{"to": true, "raised": true, "squared": true, "cubed": true, "times": true,
	"plus": true, "minus": true, "divided": true, "multiplied": true}

// operandInWords reports whether the number ending at word b is followed
// by an operation said in words ("to the power", "times"): "less than 2 to
// the power n" bounds by 2ⁿ, not by 2.
func operandInWords(lw []string, b int) bool {
	if b+1 >= len(lw) || !operationWords[lw[b+1]] {
		return false
	}
	return lw[b+1] != "to" || b+3 < len(lw) && lw[b+2] == "the" && (lw[b+3] == "power" || strings.HasSuffix(lw[b+3], "th"))
}

// phrase reads the prose condition starting at word i, if any, and
// returns the index of its last word (i when there is none).
func (x *extraction) phrase(i int) int {
	ws, lw := x.ws, x.lw
	if b, ok := x.comparison(i); ok {
		return b
	}
	switch lw[i] {
	case "exactly":
		if n, b, ok := x.numberAt(i + 1); ok {
			x.use(i+1, b)
			c := cond{phrase: x.text(i, b), kind: KindQuantifier, quant: quantExactly, bounds: []bound{{relEq, n}}}
			if n.s == "1" && !n.neg {
				c.also = quantUnique
			}
			x.out = append(x.out, c)
			return b
		}
		return i
	case "unique", "uniquely":
		x.out = append(x.out, cond{phrase: ws[i].text, kind: KindQuantifier, quant: quantUnique})
		return i
	case "distinct":
		x.out = append(x.out, cond{phrase: ws[i].text, kind: KindQuantifier, quant: quantDistinct})
		return i
	case "every", "each", "all", "any":
		x.out = append(x.out, cond{phrase: ws[i].text, kind: KindQuantifier, quant: quantAll})
		return i
	case "infinitely", "infinite":
		// "infinitely many", "infinitely often", "an infinite number of";
		// not negated ("not infinitely many" says finite)
		next := ""
		if i+1 < len(ws) {
			next = lw[i+1]
		}
		negated := i > 0 && (lw[i-1] == "not" || lw[i-1] == "no" || lw[i-1] == "never")
		if !negated && (lw[i] == "infinitely" && (next == "many" || next == "often") || lw[i] == "infinite" && next == "number") {
			x.out = append(x.out, cond{phrase: x.text(i, i+1), kind: KindQuantifier, quant: quantInfinite})
			return i + 1
		}
		return i
	}
	if c, ok := x.divisorOrder(i); ok {
		x.out = append(x.out, c)
	}
	if c, b, ok := existential(x.statement, ws, lw, i); ok {
		x.out = append(x.out, c)
		return b
	}
	if c, b, ok := sign(x.statement, ws, lw, i); ok {
		x.out = append(x.out, c)
		return b
	}
	if v, ok := numberWords[lw[i]]; ok && i > 0 && measures[lw[i-1]] && v != "1" {
		x.out = append(x.out, cond{phrase: ws[i].text, kind: KindQuantity, values: []num{{s: v}}, pieces: numeralEquivalents[v]})
		return i
	}
	if r, ok := roots[lw[i]]; ok && i > 0 && lw[i-1] == "the" && i+2 < len(ws) && lw[i+1] == "root" && lw[i+2] == "of" {
		x.use(i, i+1)
		x.out = append(x.out, r.cond(x.text(i, i+1)))
		return i + 1
	}
	if lw[i] == "absolute" && i+1 < len(ws) && (lw[i+1] == "value" || lw[i+1] == "values") {
		x.use(i, i+1)
		x.out = append(x.out, cond{phrase: x.text(i, i+1), kind: KindQuantity, pieces: absolutePieces})
		return i + 1
	}
	if v, ok := multiplierWords[lw[i]]; ok && !(i+1 < len(ws) && (lw[i+1] == "matrix" || lw[i+1] == "matrices" || lw[i+1] == "free" || ws[i+1].text == "-")) {
		pieces := numeralEquivalents[v]
		if p, ok := powerPieces[singular(strings.TrimSuffix(lw[i], "d"))]; ok {
			pieces = p
		}
		x.out = append(x.out, cond{phrase: ws[i].text, kind: KindQuantity, values: []num{{s: v}}, pieces: pieces})
	}
	return i
}

// powerPieces are the name pieces that state a square or a cube without
// its numeral (sq x, IsSquare): not sqrt, Even or the other pieces that
// say 2, since "the square of x" is no root and no parity.
var powerPieces = map[string][]string{"square": {"sq", "square"}, "cube": {"cube"}}

// comparison reads a comparison phrase with its numeral at word i
// ("greater than 2", "at most three").
func (x *extraction) comparison(i int) (int, bool) {
	lw := x.lw
	for _, p := range comparisonPhrases {
		if !wordsAt(lw, x.ws, i, p.words) {
			continue
		}
		j := i + len(p.words)
		n, b, ok := x.numberAt(j)
		if !ok || (i > 0 && (lw[i-1] == "not" || lw[i-1] == "never") && p.words[0] != "not" && p.words[0] != "no") {
			return 0, false
		}
		x.use(j, b)
		c := cond{phrase: x.text(i, b), kind: KindComparison, bounds: bound{p.rel, n}.equivalents(), subject: x.subjectBefore(i)}
		switch v, _ := n.int(); {
		case (p.rel == relLower && v == 0) || (p.rel == relLowerEq && v == 1):
			// more than zero, at least one: nonzero, or there is one
			c.bounds = append(c.bounds, bound{relNe, num{s: "0"}})
			c.also = quantExists
		case (p.rel == relLower && v == 1) || (p.rel == relLowerEq && v == 2):
			// more than one: two that differ
			c.pieces, c.also = []string{"nontrivial"}, quantDistinct
		}
		x.out = append(x.out, c)
		return b, true
	}
	return 0, false
}

// mathComparison reads the comparison of math word i with a numeral, if
// it is one ("n \\geq 1", "f(-1) = 0").
func (x *extraction) mathComparison(i int) {
	ws := x.ws
	n, a, b, ok := numeral(ws, i)
	if !ok {
		return
	}
	bd, r, ok := boundOf(ws, n, a, b)
	if !ok || n.s == "0" && ws[i].text == "⊥" || x.ellipsis[ws[i].seg] {
		return
	}
	lo, hi, side := otherSide(ws, a, b, r)
	c := cond{phrase: x.text(min(lo, a), max(hi, b)), kind: KindComparison, bounds: bd.equivalents()}
	if side[0] == side[1] && side[0] >= 0 && side[0] < len(ws) && variable(ws[side[0]]) {
		c.subject.Vars = []string{ws[side[0]].text} // n > 2
	}
	if bd.rel == relEq {
		// a value at numerals, f(-1) = 0, wants an equation to 0 whose
		// other side has the numerals of f(-1); any other equation to a
		// numeral is a quantity
		if !application(ws, side[0], side[1]) {
			return
		}
		c.side = sideNumerals(ws, side[0], side[1])
	}
	x.use(a, b)
	x.out = append(x.out, c)
}

// numeral reads word i as a quantity (or an interval of two) unless it is
// an index, a term of an ellipsis, or the exponent of a space or degree.
func (x *extraction) numeral(i int) {
	ws, w := x.ws, x.ws[i]
	if w.kind != leansrc.TokNumber || w.index || x.ellipsis[w.seg] && w.math || spaceExponent(ws, i) {
		return
	}
	if c, b, ok := interval(x.statement, ws, i); ok {
		x.out = append(x.out, c)
		x.use(i, b)
		return
	}
	n, _, ok := parseNum(w.text)
	if !ok {
		return
	}
	end := w.start + len(digitsPrefix(x.statement[w.start:]))
	if end == w.start {
		end = w.end
	}
	counted := w.math && n.s != "0" && n.s != "1"
	x.out = append(x.out, cond{phrase: x.statement[w.start:end], kind: KindQuantity, values: []num{n}, pieces: numeralEquivalents[n.s], counted: counted})
}

// asides are words of a sentence that defines a term, gives an example or
// a reminder: what it says is no condition of the claim.
var asides = map[string]bool{"called": true, "denote": true, "denotes": true, "means": true, "example": true,
	"reminder": true, "note": true, "stands": true}

// answerFormat are the words before "answer" in a sentence that says how
// to write it ("express your answer", "give an answer between 0 and 16").
var answerFormat = map[string]bool{"your": true, "an": true}

// definitions marks the words of sentences that define a term ("is
// called", "is said to be", "let n! denote"), give an example or a
// reminder, or say how to write the answer.
func definitions(ws []word, lw []string) []bool {
	used := make([]bool, len(ws))
	start := 0
	for i := 0; i <= len(ws); i++ {
		if i < len(ws) && !(ws[i].seg == 0 && (ws[i].text == "." || ws[i].text == "?")) {
			continue
		}
		for k := start; k < i; k++ {
			if asides[lw[k]] || lw[k] == "said" && k+1 < i && lw[k+1] == "to" || lw[k] == "answer" && k > start && answerFormat[lw[k-1]] {
				for j := start; j < i; j++ {
					used[j] = true
				}
				break
			}
		}
		start = i + 1
	}
	return used
}

// spaceBases are the letters a space or a field is written with, whose
// exponent is a dimension (ℝ^2, R^{k}), which Lean states as a type.
var spaceBases = map[string]bool{"ℝ": true, "ℂ": true, "ℚ": true, "ℤ": true, "ℕ": true, "R": true, "C": true, "Q": true, "Z": true, "N": true, "F": true, "K": true}

// spaceExponent reports whether the numeral ws[i] is the exponent of a
// space (ℝ^2) or of a degree sign (30^\circ: Lean states angles in π).
func spaceExponent(ws []word, i int) bool {
	if i+2 < len(ws) && ws[i+1].text == "^" && (ws[i+2].text == "∘" || ws[i+2].text == "(" && i+3 < len(ws) && ws[i+3].text == "∘") {
		return true
	}
	j := i - 1
	if j >= 0 && ws[j].text == "(" {
		j--
	}
	if j < 1 || ws[j].text != "^" {
		return false
	}
	base := j - 1
	if ws[base].text == ")" && base >= 2 && ws[base-2].text == "(" {
		base--
	}
	return spaceBases[ws[base].text]
}

// intervalNames are the name pieces of Lean's intervals.
var intervalNames = []string{"icc", "ico", "ioc", "ioo", "uicc", "unitinterval"}

// interval reads an interval with numeral ends starting at the numeral
// ws[i]: [0, 1], (0, 1). It is covered by both numerals or by an interval.
func interval(statement string, ws []word, i int) (cond, int, bool) {
	if i < 1 || ws[i-1].text != "[" && ws[i-1].text != "(" || i >= 2 && !separated(ws[i-2], ws[i-1]) && operandEnd(ws[i-2]) {
		return cond{}, 0, false
	}
	lo, _, a, ok := numeral(ws, i)
	if !ok || a+2 >= len(ws) || ws[a+1].text != "," {
		return cond{}, 0, false
	}
	hi, _, b, ok := numeral(ws, a+2)
	if !ok || b+1 >= len(ws) || ws[b+1].text != "]" && ws[b+1].text != ")" {
		return cond{}, 0, false
	}
	return cond{phrase: statement[ws[i-1].start:ws[b+1].end], kind: KindQuantity, values: []num{lo, hi}, pieces: intervalNames}, b + 1, true
}

// wordsAt reports whether the prose words at ws[i:] are words.
func wordsAt(lw []string, ws []word, i int, words []string) bool {
	if i+len(words) > len(ws) {
		return false
	}
	for k, w := range words {
		if lw[i+k] != w || ws[i+k].math {
			return false
		}
	}
	return true
}

// otherSide returns the first and last word of a comparison's operand
// across relation ws[r] from the numeral ws[a..b], as a phrase span and as
// the operand's own span.
func otherSide(ws []word, a, b, r int) (lo, hi int, side [2]int) {
	if r < a {
		lo = exprBefore(ws, r)
		return lo, b, [2]int{lo, r - 1}
	}
	hi = exprAfter(ws, r)
	return a, hi, [2]int{r + 1, hi}
}

// application reports whether ws[from..to] is a function applied to
// numerals only: f(-1), P(2, 3).
func application(ws []word, from, to int) bool {
	if from < 0 || to >= len(ws) || to-from < 3 || ws[from].kind != leansrc.TokIdent || ws[from+1].text != "(" || ws[to].text != ")" {
		return false
	}
	for _, w := range ws[from+2 : to] {
		if _, suffix, ok := parseNum(w.text); (!ok || suffix != "") && w.text != "-" && w.text != "," {
			return false // f(3z) is no value at numerals
		}
	}
	return true
}

// sideNumerals lists the numerals among ws[from..to], signed.
func sideNumerals(ws []word, from, to int) []string {
	var out []string
	for k := max(from, 0); k <= to && k < len(ws); k++ {
		if ws[k].kind != leansrc.TokNumber {
			continue
		}
		if n, _, _, ok := numeral(ws, k); ok {
			out = append(out, n.String())
		} else if n, _, ok := parseNum(ws[k].text); ok {
			out = append(out, n.String())
		}
	}
	return out
}

// exprBefore returns the first word of the operand left of relation ws[r]
// (at most maxOperand words, brackets balanced).
func exprBefore(ws []word, r int) int {
	return operandSpan(ws, r, -1)
}

// exprAfter returns the last word of the operand right of relation ws[r].
func exprAfter(ws []word, r int) int {
	return operandSpan(ws, r, 1)
}

// operandSpan walks from relation ws[r] in direction dir over one
// operand and returns its far end.
func operandSpan(ws []word, r, dir int) int {
	end, depth := r, 0
	for k := r + dir; k >= 0 && k < len(ws) && !separated(ws[k], ws[r]) && (k-r)*dir <= maxOperand; k += dir {
		t := ws[k].text
		if depth == 0 && (relations[t] || stops[t]) {
			break
		}
		switch t {
		case "(", "[", "{":
			depth += dir
		case ")", "]", "}":
			depth -= dir
		}
		if depth < 0 {
			break
		}
		end = k
	}
	if end == r {
		return max(0, min(r+dir, len(ws)-1))
	}
	return end
}

// maxOperand bounds the words of an operand quoted in a phrase.
const maxOperand = 32

// stops end an operand: separators and connectives.
var stops = map[string]bool{",": true, ";": true, ".": true, "∧": true, "∨": true, "→": true, "↔": true, "∀": true, "∃": true, ":": true}

func digitsPrefix(s string) string {
	i := 0
	for i < len(s) && (isDigit(s[i]) || s[i] == '.' && i+1 < len(s) && isDigit(s[i+1])) {
		i++
	}
	return s[:i]
}

// existential reads an existential phrase at ws[i] ("there exists",
// "there are", "for some") that asserts rather than assumes and is not
// negated; b is its last word.
func existential(statement string, ws []word, lw []string, i int) (cond, int, bool) {
	var n int
	switch {
	case lw[i] == "there" && i+1 < len(ws) && (lw[i+1] == "exists" || lw[i+1] == "exist" || lw[i+1] == "is" || lw[i+1] == "are"):
		n = 2
	case lw[i] == "for" && i+1 < len(ws) && lw[i+1] == "some":
		n = 2
	case lw[i] == "exists" || lw[i] == "exist":
		n = 1
	default:
		return cond{}, 0, false
	}
	b := i + n - 1
	if b+1 < len(ws) && (lw[b+1] == "no" || lw[b+1] == "not" || lw[b+1] == "none" || lw[b+1] == "nothing") {
		return cond{}, 0, false
	}
	if i > 0 && (lw[i-1] == "not" || lw[i-1] == "no" || lw[i-1] == "never" || lw[i-1] == "cannot") {
		return cond{}, 0, false
	}
	assumed, asserted := clauseAt(ws, lw, i)
	if assumed {
		return cond{}, 0, false
	}
	if !asserted {
		// a bare sentence asserts only when the statement is no question
		// and claims nothing else
		for k, w := range ws {
			if conclusions[lw[k]] || w.text == "?" && !w.math {
				return cond{}, 0, false
			}
		}
	}
	return cond{phrase: statement[ws[i].start:ws[b].end], kind: KindQuantifier, quant: quantExists}, b, true
}

// clauseAt reads the clause word i is in, looking back to its sentence's
// start: assumed when an antecedent word ("if", "whenever", "let") comes
// first, asserted when a conclusion word ("then", "prove") does.
func clauseAt(ws []word, lw []string, i int) (assumed, asserted bool) {
	for k := i - 1; k >= 0; k-- {
		if !ws[k].math && (ws[k].text == "." || ws[k].text == ";" || ws[k].text == "?") {
			return false, false
		}
		if conclusions[lw[k]] {
			return false, true
		}
		if antecedents[lw[k]] {
			return true, false
		}
	}
	return false, false
}

// sign reads a sign word at ws[i]: positive, negative, non-negative,
// nonzero…
func sign(statement string, ws []word, lw []string, i int) (cond, int, bool) {
	key, b := lw[i], i
	if key == "non" && i+2 < len(ws) && ws[i+1].text == "-" && ws[i+1].start == ws[i].end {
		key, b = "non"+lw[i+2], i+2
	}
	if key == "strictly" && i+1 < len(ws) && lw[i+1] == "positive" {
		key, b = "positive", i+1
	}
	s, ok := signWords[key]
	if !ok {
		return cond{}, 0, false
	}
	if i > 0 && (lw[i-1] == "not" || lw[i-1] == "non") || b+1 < len(ws) && notSign[lw[b+1]] {
		return cond{}, 0, false
	}
	c := cond{phrase: statement[ws[i].start:ws[b].end], kind: KindComparison, bounds: s.bounds, pieces: s.pieces, sign: true}
	if key == "positive" && b+1 < len(ws) {
		switch singular(lw[b+1]) {
		case "difference", "value", "root", "square":
			// the positive difference or root is what abs and sqrt give
			c.pieces = append(c.pieces[:len(c.pieces):len(c.pieces)], "abs", "sqrt")
		case "divisor", "factor":
			c.pieces = append(c.pieces[:len(c.pieces):len(c.pieces)], "nat") // divisors in ℕ are positive
		}
	}
	c.subject = signSubject(ws, lw, i, b)
	c.many = max(signed(ws, lw, i, b), c.subject.Count)
	return c, b, true
}

// kindWords are the nouns and adjectives between a sign word and the
// variables it is said of ("positive real numbers $x$ and $y$").
var kindWords = map[string]bool{"real": true, "reals": true, "integer": true, "integers": true, "number": true,
	"numbers": true, "rational": true, "rationals": true, "natural": true, "naturals": true, "odd": true,
	"even": true, "distinct": true, "constant": true, "constants": true}

// signed counts the variables a sign word at ws[i..b] is said of: those
// that follow it ("positive reals $x$, $y$ and $z$") or precede "are"
// before it ("$x$ and $y$ are positive"); 1 when they cannot be told.
func signed(ws []word, lw []string, i, b int) int {
	// count counts the variables of the math spans listed from word from
	// in direction dir; a span that is not a list of letters ends the list
	count := func(from, to, dir int) int {
		n := 0
		for k := from; k != to; k += dir {
			w := ws[k]
			switch {
			case w.math:
				vars, end := 0, k
				for ; end != to && ws[end].seg == w.seg; end += dir {
					if ws[end].kind == leansrc.TokIdent && utf8.RuneCountInString(ws[end].text) == 1 {
						vars++
					} else if ws[end].text != "," {
						return n
					}
				}
				n += vars
				k = end - dir
			case lw[k] == "and" || w.text == "," || kindWords[lw[k]]:
			default:
				return n
			}
		}
		return n
	}
	n := count(b+1, len(ws), 1)
	if n == 0 && i >= 2 && (lw[i-1] == "are" || lw[i-1] == "be") {
		n = count(i-2, -1, -1)
	}
	return max(n, 1)
}

// variable reports whether w names a variable: one letter, in math or as
// a prose word of its own (a, x, n; not the article "a" in prose).
func variable(w word) bool {
	if w.kind != leansrc.TokIdent || utf8.RuneCountInString(w.text) != 1 {
		return false
	}
	return w.math || w.text != "a" && w.text != "A" && w.text != "I"
}

// listedA reports whether ws[k], the word "a" right after a kind noun, is
// the first of a list of letters ("positive real numbers a and b"): "and"
// or a comma, then a letter, follow it.
func listedA(ws []word, lw []string, k int) bool {
	return lw[k] == "a" && k+2 < len(ws) && (lw[k+1] == "and" || ws[k+1].text == ",") && variable(ws[k+2])
}

// determiners end the noun phrase before a comparison.
var determiners = map[string]bool{"every": true, "each": true, "all": true, "any": true, "a": true, "an": true,
	"the": true, "some": true, "for": true, "if": true, "let": true, "of": true, "that": true, "which": true,
	"is": true, "are": true, "be": true, "and": true, "or": true, "with": true, "no": true}

// mathVars lists the variables of the math span of ws[k] when it is a
// list of single letters ("$x$", "$x, y$"), else nil.
func mathVars(ws []word, k int) []string {
	seg := ws[k].seg
	from, to := k, k
	for from > 0 && ws[from-1].seg == seg {
		from--
	}
	for to+1 < len(ws) && ws[to+1].seg == seg {
		to++
	}
	var out []string
	for _, w := range ws[from : to+1] {
		switch {
		case variable(w):
			out = append(out, w.text)
		case w.text == ",":
		default:
			return nil
		}
	}
	return out
}

// subjectBefore reads what the comparison starting at word i is said of:
// the variables before "is"/"are" ("$n$ is greater than 2"), a variable
// right before it ("an integer $n$ greater than 2"), else the noun phrase
// before it ("every prime number greater than 2").
func (x *extraction) subjectBefore(i int) Subject {
	ws, lw := x.ws, x.lw
	k := i - 1
	if k >= 0 && (lw[k] == "is" || lw[k] == "are" || lw[k] == "be") {
		k--
	}
	if k < 0 {
		return Subject{}
	}
	if ws[k].math {
		return Subject{Vars: mathVars(ws, k)}
	}
	if variable(ws[k]) {
		return Subject{Vars: []string{ws[k].text}}
	}
	var noun []string
	for ; k >= 0 && len(noun) < 3 && !ws[k].math && ws[k].kind == leansrc.TokIdent && !determiners[lw[k]]; k-- {
		noun = append([]string{lw[k]}, noun...)
	}
	return Subject{Noun: strings.Join(noun, " ")}
}

// signSubject reads what the sign word ws[i..b] is said of: the variables
// after it and its kind words ("positive integers $x$ and $y$"), or
// before "are" ("$x$ and $y$ are positive"), and the kind words as the
// noun ("integers"); with no variables, the count a determiner before
// the sign word gives ("two negative real numbers": 2).
func signSubject(ws []word, lw []string, i, b int) Subject {
	var s Subject
	var noun []string
	k := b + 1
	for ; k < len(ws) && !ws[k].math && kindWords[lw[k]]; k++ {
		noun = append(noun, lw[k])
	}
	s.Noun = strings.Join(noun, " ")
	for ; k < len(ws); k++ {
		switch {
		case ws[k].math:
			vs := mathVars(ws, k)
			if vs == nil {
				return s
			}
			s.Vars = append(s.Vars, vs...)
			for k+1 < len(ws) && ws[k+1].seg == ws[k].seg {
				k++
			}
		case (variable(ws[k]) || listedA(ws, lw, k)) && !(k+1 < len(ws) && ws[k+1].kind == leansrc.TokSymbol && ws[k+1].text != ","):
			s.Vars = append(s.Vars, ws[k].text) // a letter, not the start of a formula
		case lw[k] == "and" || ws[k].text == ",":
		default:
			k = len(ws)
		}
	}
	if len(s.Vars) == 0 && i >= 2 && (lw[i-1] == "are" || lw[i-1] == "is" || lw[i-1] == "be") {
		for k := i - 2; k >= 0; k-- {
			switch {
			case ws[k].math:
				vs := mathVars(ws, k)
				if vs == nil {
					return s
				}
				s.Vars = append(vs, s.Vars...)
				for k > 0 && ws[k-1].seg == ws[k].seg {
					k--
				}
			case variable(ws[k]):
				s.Vars = append([]string{ws[k].text}, s.Vars...)
			case lw[k] == "and" || ws[k].text == ",":
			default:
				return s
			}
		}
	}
	if len(s.Vars) == 0 && i >= 1 {
		s.Count = subjectDeterminers[lw[i-1]] // "two negative real numbers", "both positive"
	}
	return s
}
