package coverage

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// num is a non-negative decimal numeral in canonical form ("7", "2.5");
// the sign of a negative numeral is kept apart (neg).
type num struct {
	s   string
	neg bool
}

// String returns the numeral with its sign.
func (n num) String() string {
	if n.neg {
		return "-" + n.s
	}
	return n.s
}

// int returns the numeral's signed value when it is an integer that fits.
func (n num) int() (int64, bool) {
	if strings.Contains(n.s, ".") {
		return 0, false
	}
	v, err := strconv.ParseInt(n.s, 10, 64)
	if err != nil {
		return 0, false
	}
	if n.neg {
		v = -v
	}
	return v, true
}

// shift returns n+d for an integer numeral.
func (n num) shift(d int64) (num, bool) {
	v, ok := n.int()
	if !ok {
		return num{}, false
	}
	v += d
	if v < 0 {
		return num{s: strconv.FormatInt(-v, 10), neg: true}, true
	}
	return num{s: strconv.FormatInt(v, 10)}, true
}

// parseNum reads a numeral token: digits with an optional fraction and a
// suffix (the Lean scanner keeps "2n" and "3rd" as one number token).
func parseNum(t string) (n num, suffix string, ok bool) {
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 0 {
		return num{}, "", false
	}
	whole := strings.TrimLeft(t[:i], "0")
	if whole == "" {
		whole = "0"
	}
	if i+1 < len(t) && t[i] == '.' && isDigit(t[i+1]) {
		j := i + 1
		for j < len(t) && isDigit(t[j]) {
			j++
		}
		if frac := strings.TrimRight(t[i+1:j], "0"); frac != "" {
			whole += "." + frac
		}
		i = j
	}
	return num{s: whole}, t[i:], true
}

// numberWords are the English words for numbers that a comparison or an
// "exactly" may use instead of digits.
var numberWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
	"fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
	"hundred": "100", "thousand": "1000",
}

// multiplierWords are words that carry a number by themselves: "twice" is
// 2 *, "square" is ^ 2, "cube" is ^ 3.
var multiplierWords = map[string]string{
	"twice": "2", "double": "2", "doubled": "2", "half": "2", "halves": "2", "square": "2", "squares": "2",
	"squared": "2", "thrice": "3", "triple": "3", "tripled": "3", "cube": "3", "cubes": "3", "cubed": "3",
}

// operandEnd reports whether w can end an operand, so that a numeral after
// it is an argument or a factor rather than a whole side of a relation.
func operandEnd(w word) bool {
	switch w.kind {
	case leansrc.TokIdent, leansrc.TokNumber:
		return true
	}
	return w.text == ")" || w.text == "]" || w.text == "!" || w.text == "|" || w.text == "¹"
}

// arith are the operators that bind tighter than a relation.
var arith = map[string]bool{"+": true, "-": true, "*": true, "/": true, "^": true, "%": true, "•": true, "·": true,
	"×": true, "∘": true, "∣": true, "√": true, "!": true, "⁻": true, "↑": true, "|": true, "∑": true, "∏": true}

// numeral reads the numeral operand at ws[i]: a number (⊥ counts as 0),
// perhaps parenthesized or ascribed a type ("(2 : ℝ)") and negated. It
// returns the value and the operand's first and last word.
func numeral(ws []word, i int) (n num, a, b int, ok bool) {
	w := ws[i]
	switch {
	case w.text == "⊥":
		n = num{s: "0"}
	case w.kind == leansrc.TokNumber:
		var suffix string
		if n, suffix, ok = parseNum(w.text); !ok || suffix != "" {
			return num{}, 0, 0, false
		}
	default:
		return num{}, 0, 0, false
	}
	a, b = i, i
	if a > 0 && ws[a-1].text == "(" && b+1 < len(ws) {
		switch ws[b+1].text {
		case ")":
			a, b = a-1, b+1
		case ":":
			for j := b + 2; j < len(ws) && j < b+8; j++ {
				if ws[j].text == ")" {
					a, b = a-1, j
					break
				}
				if ws[j].text == "(" {
					break
				}
			}
		}
	}
	if a > 0 && ws[a-1].text == "↑" {
		a-- // ↑2
	}
	if a > 0 && ws[a-1].text == "-" && (a == 1 || !operandEnd(ws[a-2]) || separated(ws[a-2], w)) {
		n.neg = true
		a--
	}
	if b+2 < len(ws) && ws[b+1].text == "/" && leftFree(ws, a) {
		k := b + 2
		if ws[k].text == "(" && k+1 < len(ws) {
			k++ // 7 / (2 : ℝ), \frac{7}{2}
		}
		if d, da, db, ok := numeral(ws, k); ok && !d.neg && da == b+2 {
			if q, ok := ratio(n, d); ok {
				return q, a, db, true // 7 / 2 is the numeral 3.5
			}
		}
	}
	return n, a, b, true
}

// ratio returns p/q as a numeral: a terminating decimal when it is one
// (7/2 is 3.5), else the fraction in lowest terms (16/30 is 8/15).
func ratio(p, q num) (num, bool) {
	x, ok := new(big.Rat).SetString(p.s + "/" + q.s)
	if !ok || strings.Contains(p.s+q.s, ".") {
		return num{}, false
	}
	n := num{s: x.RatString(), neg: p.neg && x.Sign() != 0}
	for prec := 0; prec <= 12; prec++ {
		s := x.FloatString(prec)
		if y, ok := new(big.Rat).SetString(s); ok && y.Cmp(x) == 0 {
			n.s = s
			if d, _, ok := parseNum(s); ok {
				n.s = d.s
			}
			break
		}
	}
	return n, true
}

// separated reports whether words x and y belong to different expressions:
// one is prose and the other math, they come from different math spans,
// or one is a prose word ("greater than 2 is").
func separated(x, y word) bool {
	return x.seg != y.seg || x.prose() || y.prose()
}

// prose reports whether w is an English word of a statement's prose.
func (w word) prose() bool { return w.seg == 0 && w.kind == leansrc.TokIdent && !w.stub }

// leftFree reports whether nothing binds the operand starting at ws[a] from
// the left.
func leftFree(ws []word, a int) bool {
	if a == 0 || separated(ws[a-1], ws[a]) {
		return true
	}
	p := ws[a-1]
	if p.text == "|" {
		// a bar after an odd number of bars closes |x|; otherwise it opens
		// one or separates a set-builder's binder
		bars := 0
		for _, w := range ws[:a-1] {
			if w.text == "|" {
				bars++
			}
		}
		return bars%2 == 0
	}
	return !operandEnd(p) && !arith[p.text]
}

// rightFree reports whether nothing binds the operand ending at ws[b] from
// the right.
func rightFree(ws []word, b int) bool {
	if b+1 >= len(ws) || separated(ws[b], ws[b+1]) {
		return true
	}
	nx := ws[b+1]
	return nx.kind != leansrc.TokIdent && nx.kind != leansrc.TokNumber && !arith[nx.text] && nx.text != "(" && nx.text != "^"
}

// rel is the relation a numeral bound states about the other side of a
// comparison.
type rel uint8

const (
	relLower   rel = iota + 1 // other side > c
	relLowerEq                // other side ≥ c
	relUpper                  // other side < c
	relUpperEq                // other side ≤ c
	relNe                     // other side ≠ c
	relEq                     // other side = c
)

// bound is one numeral comparison: the other side stands in rel to c.
type bound struct {
	rel rel
	c   num
}

// boundOf reads the comparison, if any, whose one side is the numeral
// operand ws[a..b]: the numeral is on the left of relation ws[b+1] or on
// the right of ws[a-1]. It returns the bound and the index of the
// relation.
func boundOf(ws []word, n num, a, b int) (bound, int, bool) {
	if b+1 < len(ws) && relations[ws[b+1].text] && !separated(ws[b], ws[b+1]) && leftFree(ws, a) {
		return bound{relOf(ws[b+1].text, true), n}, b + 1, true
	}
	if a > 0 && relations[ws[a-1].text] && !separated(ws[a-1], ws[a]) && rightFree(ws, b) {
		return bound{relOf(ws[a-1].text, false), n}, a - 1, true
	}
	return bound{}, 0, false
}

// relOf is the bound that relation symbol sym puts on the other side when
// the numeral is on its left (c < x: x > c) or on its right (x < c).
func relOf(sym string, numeralLeft bool) rel {
	switch sym {
	case "≠":
		return relNe
	case "=":
		return relEq
	}
	lower := (sym == "<" || sym == "≤") == numeralLeft
	strict := sym == "<" || sym == ">"
	switch {
	case lower && strict:
		return relLower
	case lower:
		return relLowerEq
	case strict:
		return relUpper
	}
	return relUpperEq
}

// equivalents lists the bounds that state the same as b over the integers:
// n > 2 is also 3 ≤ n.
func (b bound) equivalents() []bound {
	out := []bound{b}
	var r rel
	var d int64
	switch b.rel {
	case relLower:
		r, d = relLowerEq, 1
	case relLowerEq:
		r, d = relLower, -1
	case relUpper:
		r, d = relUpperEq, -1
	case relUpperEq:
		r, d = relUpper, 1
	default:
		return out
	}
	if c, ok := b.c.shift(d); ok {
		out = append(out, bound{r, c})
	}
	return out
}
