package retrieval

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// handSynonyms are the few words mathematicians use that Mathlib spells
// differently and that the library's text does not teach by itself (a
// documented, deliberately short list; everything else is mined by
// mineSynonyms). Each pair works both ways.
var handSynonyms = [][2]string{
	{"vector space", "module"},
	{"subspace", "submodule"},
	{"group homomorphism", "monoid hom"},
	{"ring homomorphism", "ring hom"},
	{"isomorphism", "equiv"},
	{"bijection", "equiv"},
	{"if and only if", "iff"},
	{"PID", "principal ideal domain"},
	{"PID", "is principal ideal ring"},
	{"UFD", "unique factorization domain"},
	{"UFD", "unique factorization monoid"},
	{"gcd", "greatest common divisor"},
	{"lcm", "least common multiple"},
	{"cardinality", "card"},
	{"number of elements", "card"},
	{"dimension", "finrank"},
	{"determinant", "det"},
	{"absolute value", "abs"},
	{"square root", "sqrt"},
	{"exponential", "exp"},
	{"logarithm", "log"},
	{"limit", "tendsto"},
	{"converges", "tendsto"},
	{"neighborhood", "nhds"},
	{"supremum", "sup"},
	{"infimum", "inf"},
	{"binomial coefficient", "choose"},
	{"inverse", "inv"},
	{"divides", "dvd"},
	{"divisible", "dvd"},
	{"integer", "int"},
	{"natural number", "nat"},
	{"real number", "real"},
	{"rational number", "rat"},
	{"congruent", "modeq"},
	{"characteristic", "char"},
	{"power set", "powerset"},
	{"prime number", "nat prime"},
}

// synRule rewrites a run of query terms (from) into alternative terms.
type synRule struct {
	from []string
	to   []string
	// source is "hand" or "mined".
	source string
	// name is the target written as a Lean type name ("monoid hom" →
	// MonoidHom), which the name channel looks up.
	name string
}

// synonymTable holds the rules by the first term they match.
type synonymTable struct {
	byFirst map[string][]synRule
}

// add records from ↔ to (analyzed) in both directions.
func (t *synonymTable) add(from, to, source string) {
	f, g := lexical.Terms(from), lexical.Terms(to)
	if len(f) == 0 || len(g) == 0 || strings.Join(f, " ") == strings.Join(g, " ") {
		return
	}
	for _, r := range []synRule{{f, g, source, camel(to)}, {g, f, source, camel(from)}} {
		dup := false
		for _, x := range t.byFirst[r.from[0]] {
			if strings.Join(x.from, " ") == strings.Join(r.from, " ") && strings.Join(x.to, " ") == strings.Join(r.to, " ") {
				dup = true
				break
			}
		}
		if !dup {
			t.byFirst[r.from[0]] = append(t.byFirst[r.from[0]], r)
		}
	}
}

// expansion is an alternative term a synonym adds to a query, with the bits
// of the query terms it stands in for.
type expansion struct {
	term   string
	covers uint64
	rule   string
}

// expand returns the terms that synonyms add to the analyzed query seq.
func (t *synonymTable) expand(seq []string) []expansion {
	if t == nil {
		return nil
	}
	var out []expansion
	seen := map[string]bool{}
	for _, x := range seq {
		seen[x] = true
	}
	for i := range seq {
		for _, r := range t.byFirst[seq[i]] {
			if i+len(r.from) > len(seq) || strings.Join(seq[i:i+len(r.from)], " ") != strings.Join(r.from, " ") {
				continue
			}
			var mask uint64
			for j := i; j < i+len(r.from) && j < 64; j++ {
				mask |= 1 << j
			}
			for _, term := range r.to {
				if !seen[term] {
					seen[term] = true
					out = append(out, expansion{term: term, covers: mask, rule: strings.Join(r.from, " ") + " → " + strings.Join(r.to, " ")})
				}
			}
		}
	}
	return out
}

// rewrites returns seq with each synonym applied once (one rewrite per
// matching rule and position).
func (t *synonymTable) rewrites(seq []string) [][]string {
	if t == nil {
		return nil
	}
	var out [][]string
	for i := range seq {
		for _, r := range t.byFirst[seq[i]] {
			if i+len(r.from) > len(seq) || !slices.Equal(seq[i:i+len(r.from)], r.from) {
				continue
			}
			alt := append(append(append([]string(nil), seq[:i]...), r.to...), seq[i+len(r.from):]...)
			out = append(out, alt)
		}
	}
	return out
}

// camel writes a phrase as a Lean type name: "monoid hom" → MonoidHom.
func camel(phrase string) string {
	var b strings.Builder
	for _, w := range strings.Fields(phrase) {
		r := []rune(w)
		b.WriteRune(unicode.ToUpper(r[0]))
		b.WriteString(string(r[1:]))
	}
	return b.String()
}

// names returns the Lean type names of the rules that rewrite seq.
func (t *synonymTable) names(seq []string) []string {
	if t == nil {
		return nil
	}
	var out []string
	for i := range seq {
		for _, r := range t.byFirst[seq[i]] {
			if i+len(r.from) <= len(seq) && slices.Equal(seq[i:i+len(r.from)], r.from) && !slices.Contains(out, r.name) {
				out = append(out, r.name)
			}
		}
	}
	return out
}

// minSynonymSupport is how many declarations must attest a mined pair.
const minSynonymSupport = 2

// mineSynonyms builds the synonym table: the hand list plus abbreviations
// the library defines itself: a parenthesised acronym after the words it
// abbreviates ("principal ideal domain (PID)"), and a name piece spelled out
// by consecutive docstring words of the same declaration (`Nat.gcd`: "the
// greatest common divisor"). A mined pair needs minSynonymSupport
// declarations and must be the piece's most frequent spelling.
func mineSynonyms(decls []*library.Decl) *synonymTable {
	return synonymsFrom(minePairs(decls))
}

// synonymsFrom builds the synonym table from the hand list and mined
// (abbreviation, phrase) pairs.
func synonymsFrom(mined [][2]string) *synonymTable {
	t := &synonymTable{byFirst: map[string][]synRule{}}
	for _, p := range handSynonyms {
		t.add(p[0], p[1], "hand")
	}
	for _, p := range mined {
		t.add(p[0], p[1], "mined")
	}
	return t
}

// minePairs returns the (abbreviation, phrase) pairs that decls' docstrings
// and names support, sorted by abbreviation (independent of decls' order,
// so the base index stores them).
func minePairs(decls []*library.Decl) [][2]string {
	var out [][2]string
	counts := map[string]map[string]int{} // acronym -> phrase -> support
	note := func(acr, phrase string) {
		acr = strings.ToLower(acr)
		if counts[acr] == nil {
			counts[acr] = map[string]int{}
		}
		counts[acr][strings.ToLower(phrase)]++
	}
	for _, d := range decls {
		if d.Doc == "" {
			continue
		}
		words := docWords(d.Doc)
		for i, w := range words {
			if len(w) >= 4 && strings.HasPrefix(w, "(") && strings.HasSuffix(w, ")") {
				acr := strings.TrimSuffix(strings.Trim(w, "()"), "s")
				if isAcronym(acr) && i >= len(acr) {
					if ph := words[i-len(acr) : i]; initials(ph) == strings.ToLower(acr) {
						note(acr, strings.Join(ph, " "))
					}
				}
			}
		}
		var firsts []byte // lower-case first letters of words (0: not a-z)
		seenPiece := map[string]bool{}
		for _, piece := range lexical.SplitIdent(names.Last(d.Name)) {
			if len(piece) < 2 || len(piece) > 5 || seenPiece[piece] || !isLetters(piece) {
				continue
			}
			seenPiece[piece] = true
			if firsts == nil {
				firsts = make([]byte, len(words))
				for i, w := range words {
					if c := w[0] | 0x20; c >= 'a' && c <= 'z' {
						firsts[i] = c
					}
				}
			}
			for i := 0; i+len(piece) <= len(words); i++ {
				if string(firsts[i:i+len(piece)]) != piece {
					continue
				}
				if ph := words[i : i+len(piece)]; plainWords(ph) {
					note(piece, strings.Join(ph, " "))
					break
				}
			}
		}
	}
	acrs := make([]string, 0, len(counts))
	for a := range counts {
		acrs = append(acrs, a)
	}
	sort.Strings(acrs)
	for _, a := range acrs {
		best, bestN, total := "", 0, 0
		for ph, n := range counts[a] {
			total += n
			if n > bestN || n == bestN && ph < best {
				best, bestN = ph, n
			}
		}
		if bestN >= minSynonymSupport && 2*bestN > total {
			out = append(out, [2]string{a, best})
		}
	}
	return out
}

// docWords splits a docstring into words, keeping parentheses on the words
// they touch; code spans and math are dropped.
func docWords(doc string) []string {
	var b strings.Builder
	code, math := false, false
	for _, r := range doc {
		switch {
		case r == '`':
			code = !code
			b.WriteByte(' ')
		case r == '$':
			math = !math
			b.WriteByte(' ')
		case code || math:
		case r == '*' || r == ',' || r == ';' || r == ':' || r == '.':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return strings.Fields(b.String())
}

func initials(words []string) string {
	var b strings.Builder
	for _, w := range words {
		r := []rune(strings.TrimLeft(w, "(\"'"))
		if len(r) == 0 {
			return ""
		}
		b.WriteRune(unicode.ToLower(r[0]))
	}
	return b.String()
}

func isAcronym(s string) bool {
	if len(s) < 2 || len(s) > 6 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// plainWords reports whether words are ordinary lower-case English words of
// two letters or more, none a stop word.
func plainWords(words []string) bool {
	for _, w := range words {
		if len(w) < 3 || !isLetters(w) || len(lexical.Terms(w)) == 0 {
			return false
		}
	}
	return true
}
