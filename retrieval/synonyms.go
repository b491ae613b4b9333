package retrieval

import (
	"math"
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
	// weight is the evidence for the rule in (0, 1] (1 for the hand lists).
	weight float64
}

// synonymTable holds the rules by the first term they match.
type synonymTable struct {
	byFirst map[string][]synRule
	// sym are the notation symbols' words (mineSymbols).
	sym *symbolTable
}

// add records from ↔ to (analyzed) in both directions with the given
// evidence weight.
func (t *synonymTable) add(from, to, source string, weight float64) {
	f, g := lexical.Terms(from), lexical.Terms(to)
	if len(f) == 0 || len(g) == 0 || strings.Join(f, " ") == strings.Join(g, " ") {
		return
	}
	for _, r := range []synRule{{f, g, source, camel(to), weight}, {g, f, source, camel(from), weight}} {
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

// only returns the table of the rules from source ("hand", "lean",
// "mined"), for the ablation.
func (t *synonymTable) only(source string) *synonymTable {
	out := &synonymTable{byFirst: map[string][]synRule{}, sym: t.sym}
	for k, rs := range t.byFirst {
		for _, r := range rs {
			if r.source == source {
				out.byFirst[k] = append(out.byFirst[k], r)
			}
		}
	}
	return out
}

// expansion is an alternative term a synonym adds to a query, with the bits
// of the query terms it stands in for.
type expansion struct {
	term   string
	covers uint64
	rule   string
	weight float64
	// name is set for a lexicon term (a name part): it is looked up in the
	// name and namespace fields only.
	name bool
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
					out = append(out, expansion{term: term, covers: mask, rule: strings.Join(r.from, " ") + " → " + strings.Join(r.to, " "), weight: r.weight, name: r.source != "hand"})
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

// lexPair is one entry of the lexicon: a name part (or acronym) and the
// words it stands for, with the weight of its evidence in (0, 1].
type lexPair struct {
	part, words string
	weight      float64
}

// mineSynonyms builds the synonym table: the hand lists plus the lexicon
// mined from the library (minePairs).
func mineSynonyms(decls []*library.Decl) *synonymTable {
	return synonymsFrom(append(minePairs(decls), mineSymbols(decls, nil)...))
}

// synonymsFrom builds the synonym table from the hand lists and mined
// pairs.
func synonymsFrom(mined []lexPair) *synonymTable {
	t := &synonymTable{byFirst: map[string][]synRule{}}
	for _, p := range handSynonyms {
		t.add(p[0], p[1], "hand", 1)
	}
	for _, p := range leanConventions {
		t.add(p[0], p[1], "lean", 1)
	}
	for _, p := range mined {
		if !strings.HasPrefix(p.part, symbolMark) {
			t.add(p.part, p.words, "mined", p.weight)
		}
	}
	t.sym = symbolsFrom(mined)
	return t
}

// minePairs returns the lexicon that decls' names and docstrings support,
// sorted by part (independent of decls' order, so the base index stores
// it). A pair is attested by one declaration when its docstring spells out
// a part of its own last name component (alignment, see spells) or
// defines an acronym in parentheses after the words it abbreviates
// ("principal ideal domain (PID)"). A pair needs minSynonymSupport
// declarations, must be the part's most frequent spelling (more than half
// of its attestations), and the part must be rarer as a word of prose; its
// weight grows with the support and that share.
func minePairs(decls []*library.Decl) []lexPair {
	var out []lexPair
	counts := map[string]map[string]int{} // part -> words -> support
	prose := map[string]int{}             // lower-case word -> docstrings using it
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
		seenWord := map[string]bool{}
		for _, w := range words {
			if lw := strings.ToLower(w); !seenWord[lw] {
				seenWord[lw] = true
				prose[lw]++
			}
		}
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
		var low []string // lower-case words (nil until a part needs them)
		seenPiece := map[string]bool{}
		for _, piece := range lexical.SplitIdent(names.Last(d.Name)) {
			if len(piece) < 2 || len(piece) > 10 || seenPiece[piece] || !isLetters(piece) {
				continue
			}
			seenPiece[piece] = true
			if low == nil {
				low = make([]string, len(words))
				for i, w := range words {
					low[i] = strings.ToLower(lexical.StripAccents(strings.Trim(w, "()\"'")))
				}
			}
			for i := range low {
				if low[i] == "" || low[i][0] != piece[0] {
					continue
				}
				if n := spells(piece, low[i:min(i+3, len(low))]); n > 0 && plainWords(low[i:i+n]) {
					note(piece, strings.Join(low[i:i+n], " "))
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
		// A part that docstrings use as a word in its own right at least as
		// often (odd, top, ring) is no abbreviation.
		if bestN >= minSynonymSupport && 2*bestN > total && prose[a] < bestN {
			share := float64(bestN) / float64(total)
			out = append(out, lexPair{part: a, words: best, weight: share * min(1, math.Log1p(float64(bestN))/math.Log1p(8))})
		}
	}
	return out
}

// spells reports how many of the leading words (one to three) the name
// part abbreviates by Lean's naming conventions, or 0, trying fewer words
// first: one word's prefix (deriv: derivative, comp: composition) or
// consonant skeleton (nhds: neighborhoods, bdd: bounded), the initials of
// several (gcd: greatest common divisor), or prefixes of consecutive words
// concatenated, each after the first at least two letters long (minpoly:
// minimal polynomial, smul: scalar multiplication, fderiv: Fréchet
// derivative). A part equal to the word is no abbreviation.
func spells(part string, words []string) int {
	if len(words) == 0 || words[0] == part {
		return 0
	}
	if len(part) >= 3 && len(part) < len(words[0]) && strings.HasPrefix(words[0], part) || skeleton(part, words[0]) {
		return 1
	}
	for n := 2; n <= len(words); n++ {
		if len(part) == n && initials(words[:n]) == part || prefixes(part, words[:n], 1) {
			return n
		}
	}
	return 0
}

// prefixes reports whether part is the concatenation of prefixes of every
// word in order, the first at least minLen letters long and the others at
// least two.
func prefixes(part string, words []string, minLen int) bool {
	if len(words) == 0 {
		return part == ""
	}
	w := words[0]
	for n := min(len(part), len(w)); n >= minLen; n-- {
		if part[:n] == w[:n] && prefixes(part[n:], words[1:], 2) {
			return true
		}
	}
	return false
}

// skeleton reports whether part is word's first letter followed by some of
// its later consonants in order, with no vowel (nhds: neighborhoods).
func skeleton(part, word string) bool {
	if len(part) < 2 || len(word) <= len(part) || part[0] != word[0] || strings.ContainsAny(part[1:], "aeiouy") {
		return false
	}
	j := 1
	for i := 1; i < len(word) && j < len(part); i++ {
		if word[i] == part[j] {
			j++
		}
	}
	return j == len(part)
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
