package coverage

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// The order of ∣'s arguments: "n is divisible by 6" is 6 ∣ n, and "n
// divides 6" is n ∣ 6. A stub that writes the numeral on the other side of
// ∣ only (n ∣ 6 for "divisible by 6") states another relation, and no
// count of numerals sees it: the bundled model wrote n ∣ 6 → n ∣ 3 for
// "divisible by 6 … divisible by 3", which is true, so the falsifier does
// not see it either.

// divisorOrder reads, at word i of the statement's prose, a divisibility
// phrase with a numeral ("divisible by 6", "a multiple of 4", "divides 12",
// "6 divides", "a divisor of 10") and returns its condition: the numeral
// and the side of ∣ it stands on.
func (x *extraction) divisorOrder(i int) (cond, bool) {
	lw := x.lw
	at := func(k int, w string) bool { return k >= 0 && k < len(lw) && lw[k] == w }
	side := func(first, numAt int, left bool) (cond, bool) {
		n, b, ok := x.numberAt(numAt)
		if !ok {
			return cond{}, false
		}
		c := cond{phrase: x.text(first, b), kind: KindOrder, values: []num{n}, divisorLeft: left}
		if left {
			c.subject = x.subjectBefore(first)
			c.assumed, _ = clauseAt(x.ws, x.lw, first)
		}
		return c, true
	}
	switch lw[i] {
	case "divisible":
		if at(i+1, "by") {
			return side(i, i+2, true)
		}
	case "multiple":
		if at(i+1, "of") {
			return side(i, i+2, true)
		}
	case "divisor", "factor":
		if at(i+1, "of") {
			return side(i, i+2, false)
		}
	case "divides", "divide":
		if c, ok := side(i, i+1, false); ok {
			return c, true
		}
		if i > 0 && !x.ws[i-1].math {
			if n, b, ok := x.numberAt(i - 1); ok && b == i-1 {
				return cond{phrase: x.text(i-1, i), kind: KindOrder, values: []num{n}, divisorLeft: true}, true
			}
		}
	}
	return cond{}, false
}

// divisor is the exported form of an order condition's numeral and side
// as the stub f states it, nil for other kinds.
func (c cond) divisor(f *stubFacts) *Divisor {
	if c.kind != KindOrder {
		return nil
	}
	return &Divisor{Value: c.values[0].s, Left: c.divisorLeft, Reversed: f.reversesDivisor(c)}
}

// dvdSide records, at the stub's ∣ at word i, the numerals on its sides,
// bare or ascribed ((6 : ℕ) ∣ n).
func (f *stubFacts) dvdSide(ws []word, i int) {
	if i > 0 && ws[i-1].kind == leansrc.TokNumber {
		f.dvdLeft[ws[i-1].text] = true
	}
	if i > 4 && ws[i-1].text == ")" && ws[i-4].kind == leansrc.TokNumber && ws[i-3].text == ":" && ws[i-5].text == "(" {
		f.dvdLeft[ws[i-4].text] = true
	}
	if i+1 < len(ws) && ws[i+1].kind == leansrc.TokNumber {
		f.dvdRight[ws[i+1].text] = true
	}
	if i+5 < len(ws) && ws[i+1].text == "(" && ws[i+2].kind == leansrc.TokNumber && ws[i+3].text == ":" && ws[i+5].text == ")" {
		f.dvdRight[ws[i+2].text] = true
	}
}

// remainder records, at the stub's word i, a remainder or congruence by a
// numeral: n % 6, [MOD 6], [ZMOD 6], Nat.ModEq 6.
func (f *stubFacts) remainder(ws []word, i int) {
	w := ws[i].text
	if (w == "%" || w == "MOD" || w == "ZMOD" || strings.HasSuffix(w, "ModEq")) && i+1 < len(ws) && ws[i+1].kind == leansrc.TokNumber {
		f.modulus[ws[i+1].text] = true
	}
}

// omitsDivisor reports whether the stub states no divisibility by c's
// numeral on c's side of ∣ and no remainder by it (n % 6 = 0, [MOD 6]).
func (f *stubFacts) omitsDivisor(c cond) bool {
	n := c.values[0].s
	if c.divisorLeft {
		return !f.dvdLeft[n] && !f.modulus[n]
	}
	return !f.dvdRight[n]
}

// reversesDivisor reports whether the stub writes c's numeral on the other
// side of ∣ only, and states no remainder by it (n % 6 = 0, [MOD 6]).
func (f *stubFacts) reversesDivisor(c cond) bool {
	n := c.values[0].s
	if c.divisorLeft {
		return f.dvdRight[n] && !f.dvdLeft[n] && !f.modulus[n]
	}
	return f.dvdLeft[n] && !f.dvdRight[n]
}
