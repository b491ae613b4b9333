package coverage

import (
	"slices"
	"strings"
	"unicode"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// A concept said of the statement's subject ("the product of two odd
// integers", "every prime number greater than 2", "an even integer") is
// assumed, not claimed: a stub states it as a hypothesis (a binder, a
// premise of the conclusion's →, a ∀ binder's type), and one that names it
// only in its conclusion (`Odd (x * y)`) has dropped it.

// subjectNouns are the nouns of a subject noun phrase whose variables a
// stub binds with a number type; only these make the rule fire, so that a
// concept of a structure ("an abelian group": a type class) is left to the
// plain concept condition.
var subjectNouns = map[string]bool{
	"integer": true, "integers": true, "number": true, "numbers": true, "natural": true, "naturals": true,
	"real": true, "reals": true, "rational": true, "rationals": true, "prime": true, "primes": true,
}

// subjectDeterminers introduce a subject the statement quantifies over
// universally or generically, with the count they give (0: unspecified).
var subjectDeterminers = map[string]int{
	"every": 0, "each": 0, "all": 0, "any": 0, "a": 0, "an": 0, "two": 2, "three": 3, "four": 4, "both": 2,
}

// existentialWords make a subject noun phrase asserted rather than assumed
// when they come before it in its sentence ("there are infinitely many
// prime numbers", "some odd integer").
var existentialWords = map[string]bool{
	"there": true, "exist": true, "exists": true, "some": true, "infinitely": true, "many": true, "find": true,
	"construct": true, "no": true, "not": true,
}

// copulas end a sentence's subject: a noun phrase after one is predicated
// ("n is an odd integer"), which this rule leaves alone.
var copulas = map[string]bool{
	"is": true, "are": true, "be": true, "has": true, "have": true, "equals": true, "divides": true, "satisfies": true,
}

// proseWord is one word of a statement's prose, lower case, with the
// sentence it belongs to.
type proseWord struct {
	text     string
	sentence int
}

// proseWords splits statement into lower-case letter words, counting
// sentences at '.', ';', '?' and '!' (math between $…$ is skipped).
func proseWords(statement string) []proseWord {
	var out []proseWord
	sentence, math := 0, false
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, proseWord{cur.String(), sentence})
			cur.Reset()
		}
	}
	for _, r := range statement {
		switch {
		case r == '$':
			flush()
			math = !math
		case math:
		case unicode.IsLetter(r):
			cur.WriteRune(unicode.ToLower(r))
		default:
			flush()
			if r == '.' || r == ';' || r == '?' || r == '!' {
				sentence++
			}
		}
	}
	flush()
	return out
}

// subjectPhrase finds where statement says concept word w of its subject:
// w (or its plural) is followed, at most one adjective later, by a number
// noun; a determiner of subjectDeterminers comes at most two words before
// w; and neither an existential word nor a copula comes before it in its
// sentence. It returns the phrase from the determiner to the noun, the
// noun ("natural numbers") and the count the determiner gives.
func subjectPhrase(statement, w string) (phrase, noun string, count int, ok bool) {
	ws := proseWords(statement)
	w = singular(strings.ToLower(w))
	for i, x := range ws {
		if singular(x.text) != w {
			continue
		}
		n, first := -1, -1
		for j := i + 1; j <= i+2 && j < len(ws) && ws[j].sentence == x.sentence; j++ {
			if subjectNouns[ws[j].text] {
				n, first = j, j
				break
			}
		}
		if n < 0 || singular(ws[n].text) == w {
			continue
		}
		if n+1 < len(ws) && ws[n+1].sentence == x.sentence && (ws[n+1].text == "number" || ws[n+1].text == "numbers") {
			n++ // "natural numbers"
		}
		d := -1
		for j := i - 1; j >= i-2 && j >= 0 && ws[j].sentence == x.sentence; j-- {
			if _, det := subjectDeterminers[ws[j].text]; det {
				d = j
				break
			}
		}
		if d < 0 {
			continue
		}
		blocked := false
		for j := d - 1; j >= 0 && ws[j].sentence == x.sentence; j-- {
			blocked = blocked || existentialWords[ws[j].text] || copulas[ws[j].text]
		}
		if blocked {
			continue
		}
		words := make([]string, 0, n-d+1)
		for _, y := range ws[d : n+1] {
			words = append(words, y.text)
		}
		return strings.Join(words, " "), strings.Join(words[first-d:], " "), subjectDeterminers[ws[d].text], true
	}
	return "", "", 0, false
}

// SubjectAdjectives returns the words that qualify the statement's subject
// before its noun ("even" of "two even integers", "prime" of "a prime
// number"), each once: candidates for a concept said of the subject when
// the decomposition named none. Number nouns and determiners are left out.
func SubjectAdjectives(statement string) []string {
	var out []string
	for _, x := range proseWords(statement) {
		w := x.text
		if _, det := subjectDeterminers[w]; det || w == "" || slices.Contains(out, w) || !isLetters(w) {
			continue
		}
		if _, noun := numberNouns[singular(w)]; noun || w == "number" || w == "numbers" {
			continue
		}
		if _, _, _, ok := subjectPhrase(statement, w); ok {
			out = append(out, w)
		}
	}
	return out
}

// numberNouns are the number nouns a subject's type is named by.
var numberNouns = map[string]bool{"natural": true, "integer": true, "rational": true, "real": true, "complex": true}

// isLetters reports whether w is made of lower-case letters only.
func isLetters(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// assumptions returns the parts of a stub's statement that it assumes:
// its binders (before the top-level colon) and, of its conclusion, the
// types of leading ∀ binders and the premises of → (`Odd m → Odd n → …`).
func assumptions(stub string) string {
	stub = statementOf(stub)
	toks, _ := leansrc.Scan([]byte(stub))
	depth, colon := 0, -1
	for _, t := range toks {
		text := stub[t.Start:t.End]
		depth += leansrc.BracketDelta(text)
		if text == ":" && depth == 0 {
			colon = int(t.Start)
			break
		}
	}
	var parts []string
	concl := stub
	if colon >= 0 {
		parts = append(parts, stub[:colon])
		concl = stub[colon+1:]
	}
	t := leansrc.ParseTerm(concl, nil)
	for t != nil {
		switch {
		case t.Kind == leansrc.TermForall && len(t.Args) == 1:
			for _, b := range t.Binders {
				if b.Type != nil {
					parts = append(parts, concl[b.Type.Start:b.Type.End])
				}
				if b.Bound != nil {
					parts = append(parts, concl[b.Bound.Start:b.Bound.End])
				}
			}
			t = t.Args[0]
			continue
		case t.Kind == leansrc.TermInfix && t.Text == "→" && len(t.Args) == 2:
			parts = append(parts, concl[t.Args[0].Start:t.Args[0].End])
			t = t.Args[1]
			continue
		}
		break
	}
	return strings.Join(parts, " ")
}
