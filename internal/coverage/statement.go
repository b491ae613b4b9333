package coverage

import (
	"strings"

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
)

// cond is one condition read from a statement and what covers it.
type cond struct {
	phrase string
	kind   Kind
	bounds []bound  // comparison: any one of them; exactly k: = k
	value  num      // quantity
	quant  quant    // quantifier
	pieces []string // name pieces that also cover the condition ("pos")
	also   quant    // a second quantifier sort that covers it (exactly one: unique)
}

// comparisonPhrases are the prose spellings of an order relation to a
// numeral that follows them, longest first.
var comparisonPhrases = func() []struct {
	words []string
	rel   rel
} {
	var out []struct {
		words []string
		rel   rel
	}
	for _, p := range []struct {
		text string
		rel  rel
	}{
		{"greater than or equal to", relLowerEq}, {"larger than or equal to", relLowerEq}, {"bigger than or equal to", relLowerEq},
		{"less than or equal to", relUpperEq}, {"smaller than or equal to", relUpperEq},
		{"strictly greater than", relLower}, {"strictly larger than", relLower}, {"strictly bigger than", relLower},
		{"strictly less than", relUpper}, {"strictly smaller than", relUpper},
		{"no less than", relLowerEq}, {"not less than", relLowerEq}, {"no smaller than", relLowerEq},
		{"not smaller than", relLowerEq}, {"no fewer than", relLowerEq}, {"not fewer than", relLowerEq},
		{"no more than", relUpperEq}, {"not more than", relUpperEq}, {"no greater than", relUpperEq},
		{"not greater than", relUpperEq}, {"no larger than", relUpperEq}, {"not larger than", relUpperEq},
		{"does not exceed", relUpperEq}, {"do not exceed", relUpperEq}, {"not exceeding", relUpperEq},
		{"not equal to", relNe}, {"different from", relNe},
		{"at least", relLowerEq}, {"at most", relUpperEq},
		{"greater than", relLower}, {"larger than", relLower}, {"bigger than", relLower}, {"more than", relLower},
		{"exceeds", relLower}, {"exceeding", relLower}, {"exceed", relLower},
		{"less than", relUpper}, {"smaller than", relUpper}, {"fewer than", relUpper},
	} {
		out = append(out, struct {
			words []string
			rel   rel
		}{strings.Fields(p.text), p.rel})
	}
	return out
}()

// signWords are the words that compare with zero, with the name pieces
// that state them in Lean (ℕ is non-negative by its type).
var signWords = map[string]struct {
	bounds []bound
	pieces []string
}{
	"positive":    {[]bound{{relLower, num{s: "0"}}, {relLowerEq, num{s: "1"}}, {relNe, num{s: "0"}}}, []string{"pos", "positive", "pnat"}},
	"negative":    {[]bound{{relUpper, num{s: "0"}}, {relUpperEq, num{s: "1", neg: true}}}, []string{"neg", "negative"}},
	"nonnegative": {[]bound{{relLowerEq, num{s: "0"}}, {relLower, num{s: "1", neg: true}}}, []string{"nonneg", "nonnegative", "nat", "ℕ", "nnreal", "pnat"}},
	"nonpositive": {[]bound{{relUpperEq, num{s: "0"}}, {relUpper, num{s: "1"}}}, []string{"nonpos", "nonpositive"}},
	"nonzero":     {[]bound{{relNe, num{s: "0"}}, {relLower, num{s: "0"}}, {relLowerEq, num{s: "1"}}}, []string{"ne_zero", "nonzero", "pos", "pnat", "units", "unit"}},
}

// notSign are the words after which "positive" or "negative" is no sign
// of a number (a positive definite form, a negative exponent's base).
var notSign = map[string]bool{"definite": true, "semidefinite": true, "semi": true, "characteristic": true, "measure": true}

// antecedents open a clause that assumes rather than asserts; conclusions
// open one that asserts.
var (
	antecedents = map[string]bool{"if": true, "suppose": true, "assume": true, "assuming": true, "given": true, "let": true,
		"whenever": true, "where": true, "when": true, "since": true, "because": true, "unless": true, "provided": true}
	conclusions = map[string]bool{"then": true, "prove": true, "show": true, "deduce": true, "conclude": true, "verify": true, "establish": true}
)

// extract reads the conditions of a statement in the order they occur.
func extract(statement string) []cond {
	ws := read(statement)
	lw := make([]string, len(ws))
	for i, w := range ws {
		if w.kind == leansrc.TokIdent {
			lw[i] = strings.ToLower(w.text)
		}
	}
	used := make([]bool, len(ws))
	var out []cond
	text := func(a, b int) string { return statement[ws[a].start:ws[b].end] }
	// numberAt reads the numeral or number word at ws[j] whose right side
	// is free; words lists number words allowed.
	numberAt := func(j int, words map[string]string) (num, int, bool) {
		if j >= len(ws) {
			return num{}, 0, false
		}
		if v, ok := words[lw[j]]; ok && !ws[j].math {
			return num{s: v}, j, true
		}
		n, _, b, ok := numeral(ws, j)
		if !ok || !rightFree(ws, b) {
			return num{}, 0, false
		}
		return n, b, true
	}
	for i := 0; i < len(ws); i++ {
		if ws[i].math || ws[i].kind != leansrc.TokIdent {
			continue
		}
		// comparison phrases
		for _, p := range comparisonPhrases {
			if !wordsAt(lw, ws, i, p.words) {
				continue
			}
			j := i + len(p.words)
			n, b, ok := numberAt(j, numberWords)
			if !ok || (i > 0 && (lw[i-1] == "not" || lw[i-1] == "never") && p.words[0] != "not" && p.words[0] != "no") {
				break
			}
			for k := j; k <= b; k++ {
				used[k] = true
			}
			bs := bound{p.rel, n}.equivalents()
			if (p.rel == relLower && n.s == "0" && !n.neg) || (p.rel == relLowerEq && n.s == "1" && !n.neg) {
				bs = append(bs, bound{relNe, num{s: "0"}}) // more than zero, at least one: nonzero
			}
			out = append(out, cond{phrase: text(i, b), kind: KindComparison, bounds: bs})
			i = b
			break
		}
		if used[i] {
			continue
		}
		switch lw[i] {
		case "exactly":
			if n, b, ok := numberAt(i+1, numberWords); ok {
				for k := i + 1; k <= b; k++ {
					used[k] = true
				}
				c := cond{phrase: text(i, b), kind: KindQuantifier, quant: quantExactly, bounds: []bound{{relEq, n}}}
				if n.s == "1" && !n.neg {
					c.also = quantUnique
				}
				out = append(out, c)
				i = b
			}
			continue
		case "unique", "uniquely":
			out = append(out, cond{phrase: ws[i].text, kind: KindQuantifier, quant: quantUnique})
			continue
		case "distinct":
			out = append(out, cond{phrase: ws[i].text, kind: KindQuantifier, quant: quantDistinct})
			continue
		case "every", "each", "all", "any":
			out = append(out, cond{phrase: ws[i].text, kind: KindQuantifier, quant: quantAll})
			continue
		}
		if c, b, ok := existential(statement, ws, lw, i); ok {
			out = append(out, c)
			i = b
			continue
		}
		if c, ok := sign(statement, ws, lw, i); ok {
			out = append(out, c)
			continue
		}
		if v, ok := multiplierWords[lw[i]]; ok && !(i+1 < len(ws) && (lw[i+1] == "matrix" || lw[i+1] == "matrices" || ws[i+1].text == "-")) {
			out = append(out, cond{phrase: ws[i].text, kind: KindQuantity, value: num{s: v}})
		}
	}
	// comparisons written in math, then the remaining numerals
	for i := range ws {
		if used[i] || !ws[i].math {
			continue
		}
		n, a, b, ok := numeral(ws, i)
		if !ok {
			continue
		}
		bd, r, ok := boundOf(ws, n, a, b)
		if !ok || bd.rel == relEq || n.s == "0" && ws[i].text == "⊥" {
			continue
		}
		lo, hi := a, b
		if r < a {
			lo = exprBefore(ws, r)
		} else {
			hi = exprAfter(ws, r)
		}
		for k := a; k <= b; k++ {
			used[k] = true
		}
		out = append(out, cond{phrase: text(lo, hi), kind: KindComparison, bounds: bd.equivalents()})
	}
	for i, w := range ws {
		if used[i] || w.kind != leansrc.TokNumber {
			continue
		}
		n, _, ok := parseNum(w.text)
		if !ok {
			continue
		}
		end := w.start + len(digitsPrefix(statement[w.start:]))
		if end == w.start {
			end = w.end
		}
		out = append(out, cond{phrase: statement[w.start:end], kind: KindQuantity, value: n})
	}
	return out
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

// exprBefore returns the first word of the operand left of relation ws[r]
// (at most maxOperand words).
func exprBefore(ws []word, r int) int {
	lo := max(r-1, 0)
	for lo > 0 && !separated(ws[lo-1], ws[r]) && !relations[ws[lo-1].text] && !stops[ws[lo-1].text] && r-lo < maxOperand {
		lo--
	}
	return lo
}

// exprAfter returns the last word of the operand right of relation ws[r].
func exprAfter(ws []word, r int) int {
	hi := min(r+1, len(ws)-1)
	for hi+1 < len(ws) && !separated(ws[hi+1], ws[r]) && !relations[ws[hi+1].text] && !stops[ws[hi+1].text] && hi-r < maxOperand {
		hi++
	}
	return hi
}

// maxOperand bounds the words of an operand quoted in a phrase.
const maxOperand = 8

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
	for k := i - 1; k >= 0; k-- {
		if !ws[k].math && (ws[k].text == "." || ws[k].text == ";" || ws[k].text == "?") {
			break
		}
		if conclusions[lw[k]] {
			break
		}
		if antecedents[lw[k]] {
			return cond{}, 0, false
		}
	}
	return cond{phrase: statement[ws[i].start:ws[b].end], kind: KindQuantifier, quant: quantExists}, b, true
}

// sign reads a sign word at ws[i]: positive, negative, non-negative,
// nonzero…
func sign(statement string, ws []word, lw []string, i int) (cond, bool) {
	key, b := lw[i], i
	if key == "non" && i+2 < len(ws) && ws[i+1].text == "-" && ws[i+1].start == ws[i].end {
		key, b = "non"+lw[i+2], i+2
	}
	if key == "strictly" && i+1 < len(ws) && lw[i+1] == "positive" {
		key, b = "positive", i+1
	}
	s, ok := signWords[key]
	if !ok {
		return cond{}, false
	}
	if i > 0 && (lw[i-1] == "not" || lw[i-1] == "non") || b+1 < len(ws) && notSign[lw[b+1]] {
		return cond{}, false
	}
	return cond{phrase: statement[ws[i].start:ws[b].end], kind: KindComparison, bounds: s.bounds, pieces: s.pieces}, true
}
