// Package lexical is the Lean-aware text analyzer of retrieval (identifier
// splitting, Unicode and LaTeX math folding, English stemming), used for
// indexed declarations and queries alike.
package lexical

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Version identifies the analyzer's output: stored indexes built with
// another version are rebuilt. Bump it with every change to Terms.
const Version = 5

// symbolWords folds Unicode math symbols to the words a docstring or a name
// would use for them.
var symbolWords = map[rune]string{
	'ℝ': "real", 'ℕ': "nat", 'ℤ': "int", 'ℚ': "rat", 'ℂ': "complex", 'ℍ': "quaternion",
	'∑': "sum", '∏': "prod", '∣': "dvd", '≡': "modeq", '∫': "integral", '∮': "integral",
	'∞': "infinity", '≤': "le", '≥': "ge", '<': "lt", '>': "gt", '≠': "ne", '∈': "mem", '∉': "mem",
	'⊆': "subset", '⊂': "ssubset", '⊇': "subset", '∩': "inter", '∪': "union", '∅': "empty",
	'¬': "not", '↔': "iff", '⁻': "inv", '√': "sqrt", 'π': "pi", '∘': "comp",
	'×': "prod", '⊕': "sum", '⊗': "tensor", '‖': "norm", '•': "smul", '∂': "deriv", '∇': "grad",
	'ᶜ': "compl", '⊤': "top", '⊥': "bot", '⨆': "supr", '⨅': "infi", '⋃': "union", '⋂': "inter",
	'𝓝': "nhds", '≃': "equiv", '≅': "iso", '⧸': "quotient", '∠': "angle", '⬝': "dot",
	'%': "mod", '!': "factorial", '|': "abs", '∡': "angle", '⌊': "floor", '⌈': "ceil",
	'ζ': "zeta", 'Γ': "gamma", 'φ': "totient", 'μ': "measure", '∗': "star", '⋆': "star",
	'∀': "", '∃': "", 'λ': "", '→': "", '↦': "", '⟨': "", '⟩': "",
}

// latexWords maps LaTeX commands to the symbol or word they stand for; a
// command not listed contributes its own name as a word (\sin → sin) unless
// it is pure layout (listed with "").
var latexWords = map[string]string{
	"mathbb": "", "mathbf": "", "mathrm": "", "mathcal": "", "mathfrak": "", "mathscr": "",
	"text": "", "textbf": "", "textit": "", "emph": "", "operatorname": "", "mathsf": "",
	"left": "", "right": "", "big": "", "Big": "", "bigg": "", "Bigg": "", "quad": "", "qquad": "",
	"displaystyle": "", "limits": "", "ldots": "", "cdots": "", "dots": "", "vdots": "", "ddots": "",
	"begin": "", "end": "", "label": "", "tag": "", "hspace": "", "vspace": "", "mbox": "",
	"alpha": "", "beta": "", "gamma": "", "delta": "", "epsilon": "", "varepsilon": "", "eta": "",
	"theta": "", "vartheta": "", "iota": "", "kappa": "", "lambda": "", "nu": "", "xi": "", "rho": "",
	"sigma": "", "tau": "", "upsilon": "", "chi": "", "psi": "", "omega": "", "Omega": "", "Delta": "",
	"Sigma": "", "Lambda": "", "Theta": "", "Psi": "", "Xi": "", "Upsilon": "", "varphi": "",
	"Gamma": "", "mu": "", "Phi": "phi", "Pi": "",
	"sum": "sum", "prod": "prod", "mid": "dvd", "nmid": "dvd", "divides": "dvd", "equiv": "modeq",
	"pmod": "mod", "bmod": "mod", "mod": "mod", "int": "integral", "oint": "integral", "iint": "integral",
	"le": "le", "leq": "le", "ge": "ge", "geq": "ge", "neq": "ne", "ne": "ne", "lt": "lt", "gt": "gt",
	"in": "mem", "notin": "mem", "subset": "subset", "subseteq": "subset", "subsetneq": "ssubset",
	"supset": "subset", "supseteq": "subset", "cap": "inter", "cup": "union", "bigcap": "inter",
	"bigcup": "union", "emptyset": "empty", "varnothing": "empty", "infty": "infinity", "to": "",
	"rightarrow": "", "mapsto": "", "implies": "", "iff": "iff", "forall": "", "exists": "", "land": "",
	"lor": "", "neg": "not", "lnot": "not", "cdot": "mul", "times": "prod", "div": "div", "frac": "div",
	"dfrac": "div", "tfrac": "div", "sqrt": "sqrt", "circ": "comp", "oplus": "sum", "otimes": "tensor",
	"partial": "deriv", "nabla": "grad", "pi": "pi", "binom": "choose", "choose": "choose",
	"lfloor": "floor", "rfloor": "", "lceil": "ceil", "rceil": "", "langle": "", "rangle": "",
	"lvert": "abs", "rvert": "", "vert": "abs", "Vert": "norm", "lVert": "norm", "rVert": "",
	"cong": "iso", "simeq": "equiv", "approx": "", "sim": "", "triangleleft": "normal",
	"trianglelefteq": "normal", "lhd": "normal", "unlhd": "normal", "overline": "closure", "bar": "",
	"hat": "", "tilde": "", "prime": "", "ell": "", "aleph": "cardinal", "wedge": "", "vee": "",
	"setminus": "sdiff", "backslash": "sdiff", "mathop": "", "limsup": "limsup", "liminf": "liminf",
	"lim": "limit", "sup": "sup", "inf": "inf", "max": "max", "min": "min", "deg": "degree",
	"gcd": "gcd", "lcm": "lcm", "det": "det", "dim": "dimension", "ker": "ker", "Im": "im", "Re": "re",
	"exp": "exp", "log": "log", "ln": "log", "sin": "sin", "cos": "cos", "tan": "tan", "arctan": "arctan",
	"sinh": "sinh", "cosh": "cosh", "Aut": "aut", "Hom": "hom", "End": "end", "Gal": "gal",
	"mathring": "", "widehat": "", "overrightarrow": "", "vec": "", "dagger": "", "ast": "star", "star": "star",
	"item": "", "bf": "", "rm": "", "it": "", "sf": "", "tt": "", "cal": "", "mathit": "", "mathtt": "",
	"textrm": "", "textsf": "", "texttt": "", "boldsymbol": "", "bm": "", "coloneq": "",
	"coloneqq": "", "colon": "", "noindent": "", "par": "", "newline": "", "footnote": "",
}

// greekLetters are the Greek letters of latexWords that are no word of
// their own (variables: \alpha, \varepsilon) unless applied (applied), with
// the letter each typesets.
var greekLetters = map[string]rune{
	"alpha": 'α', "beta": 'β', "gamma": 'γ', "delta": 'δ', "epsilon": 'ϵ', "varepsilon": 'ε', "eta": 'η',
	"theta": 'θ', "vartheta": 'ϑ', "iota": 'ι', "kappa": 'κ', "lambda": 'λ', "nu": 'ν', "xi": 'ξ', "rho": 'ρ',
	"sigma": 'σ', "tau": 'τ', "upsilon": 'υ', "chi": 'χ', "psi": 'ψ', "omega": 'ω', "Omega": 'Ω', "Delta": 'Δ',
	"Sigma": 'Σ', "Lambda": 'Λ', "Theta": 'Θ', "Psi": 'Ψ', "Xi": 'Ξ', "Upsilon": 'Υ', "varphi": 'φ',
	"Gamma": 'Γ', "mu": 'μ', "Pi": 'Π',
}

// greekWord is the word of an applied Greek letter: the analyzer's word
// for the letter it typesets (μ → measure, φ → totient), else its name
// (rho, as Lean names spell ρ).
func greekWord(cmd string) string {
	if w := symbolWords[greekLetters[cmd]]; w != "" {
		return w
	}
	return cmd
}

// applied reports whether the text after a command applies it to an
// argument: an opening parenthesis or bracket, after at most one
// superscript or subscript (\rho^+(X), \tau_1[X]).
func applied(s string) bool {
	if s != "" && (s[0] == '^' || s[0] == '_') {
		s = s[1:]
		if _, n, ok := Braced(s); ok {
			s = s[n:]
		} else if s != "" {
			_, sz := utf8.DecodeRuneInString(s)
			s = s[sz:]
		}
	}
	return s != "" && (s[0] == '(' || s[0] == '[')
}

// keyCommands are LaTeX commands whose braced argument is a key, not text:
// an environment's name (\begin{itemize}), a label, a reference or a
// citation. The analyzer reads neither the command nor its argument.
var keyCommands = map[string]bool{
	"begin": true, "end": true, "label": true, "ref": true, "eqref": true, "cref": true, "Cref": true,
	"autoref": true, "pageref": true, "cite": true, "citep": true, "citet": true, "url": true,
}

// stopWords are English and mathematical-prose words that carry no premise
// signal.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or of to in on at by for with from as is are be been being was were
	it its this that these those there their then than thus hence so if iff such let suppose assume assuming prove
	show shows shown proof that which who whom whose what when where while we us our you your one two three all any
	each every some no not only also both either neither nor but into onto over under can could may might must shall
	should will would do does did has have had having given denote denotes denoted call called following holds hold
	true false exactly least most more less many much other another same different itself himself herself
	themselves equal equals find determine compute state statement theorem lemma corollary example exercise
	say said way case cases note use using whether how why very well just thing things`) {
		m[w] = true
	}
	return m
}()

// stems caches Stem: the vocabulary is small and stemming is the
// analyzer's main cost.
var stems sync.Map

// maxStemCache bounds the cache against unbounded vocabularies (each
// distinct word up to this many is remembered).
const maxStemCache = 1 << 20

var stemCount atomic.Int64

// Stem returns the English stem of a lower-case word: the Snowball English
// (Porter2) stemmer of github.com/kljensen/snowball.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	if v, ok := stems.Load(w); ok {
		return v.(string)
	}
	st := english.Stem(w, true)
	if stemCount.Load() < maxStemCache {
		stemCount.Add(1)
		stems.Store(w, st)
	}
	return st
}

// Terms analyzes text into lower-case stemmed terms: Lean identifiers are
// split on dots, underscores and camel case, LaTeX commands and Unicode math
// symbols become words, stop words and one-letter variables are dropped,
// accents are stripped, British spellings become American and irregular
// plurals singular (before stemming).
// Code and prose are analyzed the same way so that a docstring word and a
// name piece meet.
func Terms(text string) []string { return TermsLaTeX(text, true) }

// TermsLaTeX is Terms with LaTeX understanding switchable: with latex false,
// a command contributes its bare name (\mathbb{R} → mathbb, \mid → mid), as a
// plain analyzer would; this exists for the ablation benchmark.
func TermsLaTeX(text string, latex bool) []string {
	var out []string
	eachWord(text, latex, func(word string, cmd bool) {
		if cmd {
			out = appendCommand(out, word, latex)
			return
		}
		out = appendWord(out, word)
	})
	return out
}

// appendCommand appends the terms of the LaTeX command cmd (its name
// without the backslash).
func appendCommand(out []string, cmd string, latex bool) []string {
	if v, ok := latexWords[cmd]; ok && latex {
		if v != "" {
			out = appendTerm(out, v)
		}
		return out
	}
	return appendTerm(out, cmd)
}

// appendTerm appends the term of the word w, if it has one.
func appendTerm(out []string, w string) []string {
	if t, ok := term(strings.ToLower(w)); ok {
		out = append(out, t)
	}
	return out
}

// appendWord appends the terms of one identifier-like word of eachWord.
func appendWord(out []string, word string) []string {
	if isLowerASCII(word) {
		return appendTerm(out, word) // what SplitIdent returns for it, without allocating
	}
	if v, ok := idents.Load(word); ok {
		return append(out, v.([]string)...)
	}
	n := len(out)
	for _, p := range SplitIdent(word) {
		out = appendTerm(out, p)
	}
	if identCount.Load() < maxStemCache {
		identCount.Add(1)
		idents.Store(word, slices.Clip(slices.Clone(out[n:])))
	}
	return out
}

// Analyzer is Terms with a cache of its own in front of the shared ones:
// the terms of each word it has read, as written, in a plain map. The
// index build gives one to each of its workers, which read the same
// identifiers over and over in 200,000 signatures; a lookup there costs a
// fraction of the shared caches' (sync.Map) and takes no lock. Not for
// concurrent use.
type Analyzer struct {
	words  map[string][]string
	chunks map[string]chunkTerms
}

// chunkTerms are the terms and symbols of a chunk of text (AppendChunk).
type chunkTerms struct{ terms, symbols []string }

// maxAnalyzerChunks bounds an Analyzer's cache of chunks.
const maxAnalyzerChunks = 1 << 16

// AppendChunk appends Terms(chunk) to terms and Symbols(chunk) to symbols,
// from a's cache of chunks when it has read chunk before. A chunk is a
// piece of a longer text cut at spaces (a binder group of a signature:
// `[Lattice α]`, `{x : ℝ}`), whose words and symbols are those it adds
// to the whole text's; signatures repeat the same binder groups throughout
// a library, where a lookup replaces reading each word.
func (a *Analyzer) AppendChunk(terms, symbols []string, chunk string) ([]string, []string) {
	if c, ok := a.chunks[chunk]; ok {
		return append(terms, c.terms...), append(symbols, c.symbols...)
	}
	nt, ns := len(terms), len(symbols)
	terms = a.AppendTerms(terms, chunk)
	symbols = appendSymbols(symbols, chunk, true)
	if a.chunks == nil {
		a.chunks = map[string]chunkTerms{}
	}
	if len(a.chunks) < maxAnalyzerChunks {
		a.chunks[strings.Clone(chunk)] = chunkTerms{slices.Clip(slices.Clone(terms[nt:])), slices.Clip(slices.Clone(symbols[ns:]))}
	}
	return terms, symbols
}

// maxAnalyzerWords bounds an Analyzer's cache.
const maxAnalyzerWords = 1 << 18

// NewAnalyzer returns an Analyzer with an empty cache.
func NewAnalyzer() *Analyzer { return &Analyzer{words: make(map[string][]string, 1<<12)} }

// AppendTerms appends Terms(text) to dst.
func (a *Analyzer) AppendTerms(dst []string, text string) []string {
	eachWord(text, true, func(word string, cmd bool) {
		if cmd {
			dst = appendCommand(dst, word, true)
			return
		}
		dst = a.cached(dst, word, a.appendPieces)
	})
	return dst
}

// cached appends word's terms from a's cache, or those add appends,
// keeping them while the cache has room.
func (a *Analyzer) cached(dst []string, word string, add func([]string, string) []string) []string {
	if ts, ok := a.words[word]; ok {
		return append(dst, ts...)
	}
	n := len(dst)
	dst = add(dst, word)
	if len(a.words) < maxAnalyzerWords {
		a.words[strings.Clone(word)] = slices.Clip(slices.Clone(dst[n:]))
	}
	return dst
}

// appendPieces is appendWord through a's cache of pieces, leaving the
// shared caches alone: the pieces of identifiers recur (Prime, two, le)
// where the identifiers themselves, such as names' last components, do
// not.
func (a *Analyzer) appendPieces(dst []string, word string) []string {
	if isLowerASCII(word) {
		return appendTerm(dst, word)
	}
	for _, p := range SplitIdent(word) {
		dst = a.cached(dst, p, appendTerm)
	}
	return dst
}

// AppendName appends Terms(name) to dst for a declaration's name (or its
// last component), which is read once: its pieces go through a's cache,
// the name itself is not kept.
func (a *Analyzer) AppendName(dst []string, name string) []string {
	eachWord(name, true, func(word string, cmd bool) {
		if cmd {
			dst = appendCommand(dst, word, true)
			return
		}
		if ts, ok := a.words[word]; ok {
			dst = append(dst, ts...)
			return
		}
		dst = a.appendPieces(dst, word)
	})
	return dst
}

// Terms is Terms(text), read through a's cache.
func (a *Analyzer) Terms(text string) []string { return a.AppendTerms(nil, text) }

// idents caches the terms of an identifier (SplitIdent, then term on each
// piece): statements repeat the same names (AddCommMonoid, Finset.range).
var idents sync.Map

var identCount atomic.Int64

// terms caches term: the words of a library recur.
var terms sync.Map

var termCount atomic.Int64

// term is the analyzed term of a lower-case word; false for a stop word or
// a one-letter word that is no digit.
func term(w string) (string, bool) {
	if w == "" || stopWords[w] {
		return "", false
	}
	if v, ok := terms.Load(w); ok {
		t := v.(analyzed)
		return t.term, t.ok
	}
	t := analyzed{ok: utf8.RuneCountInString(w) > 1 || unicode.IsDigit([]rune(w)[0])}
	if t.ok {
		t.term = Stem(Singular(American(StripAccents(w))))
	}
	if termCount.Load() < maxStemCache {
		termCount.Add(1)
		terms.Store(w, t)
	}
	return t.term, t.ok
}

// analyzed is a cached result of term.
type analyzed struct {
	term string
	ok   bool
}

// isLowerASCII reports whether w is made of ASCII lower-case letters only.
func isLowerASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

// WordRuns splits prose into runs of consecutive lower-case words (accents
// stripped, possessives dropped, hyphenated words split): a stop word, a
// one-letter word, math between dollars, a digit or punctuation other than
// a hyphen or an apostrophe ends a run. Name forms are built from runs.
func WordRuns(text string) [][]string {
	var runs [][]string
	var cur []string
	end := func() {
		if len(cur) > 0 {
			runs = append(runs, cur)
			cur = nil
		}
	}
	math := false
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '–' }) {
		if strings.Count(f, "$")%2 == 1 {
			math = !math
			end()
			continue
		}
		w := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(StripAccents(f)), "'s"), "’s")
		trimmed := strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		plain := !math && trimmed != "" && utf8.RuneCountInString(trimmed) > 1 && !stopWords[trimmed]
		for _, r := range trimmed {
			if !unicode.IsLetter(r) {
				plain = false
				break
			}
		}
		if !plain {
			end()
			continue
		}
		cur = append(cur, trimmed)
		if trimmed != w { // punctuation after the word ends the run
			end()
		}
	}
	end()
	return runs
}

// eachWord scans text and calls f for every identifier-like word (with
// latex=true for the name of a LaTeX command) and for every folded symbol.
func eachWord(text string, latex bool, f func(word string, latex bool)) {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, " ")
	}
	i := 0
	for i < len(text) {
		r, sz := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\\' && latex:
			j := i + 1
			for j < len(text) && isASCIILetter(text[j]) {
				j++
			}
			if j > i+1 {
				cmd := text[i+1 : j]
				if cmd == "mathbb" || cmd == "Bbb" {
					if w, n := blackboard(text[j:]); n > 0 {
						f(w, false)
						i = j + n
						continue
					}
				}
				if _, ok := greekLetters[cmd]; ok && applied(text[j:]) {
					// \rho(X), \tau[X], \rho^+(X): a letter applied to an
					// argument names a function, which Lean spells by the
					// letter's name (rho, condRho).
					f(greekWord(cmd), false)
					i = j
					continue
				}
				if keyCommands[cmd] {
					if k := skipGroup(text, j); k > j {
						i = k
						continue
					}
				}
				f(cmd, true)
			}
			if j == i+1 {
				j++
			}
			i = j
			continue
		case isWordRune(r):
			j := i
			for j < len(text) {
				r2, sz2 := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r2) && !(r2 == '.' && j+sz2 < len(text) && startsWord(text[j+sz2:])) {
					break
				}
				j += sz2
			}
			f(text[i:j], false)
			i = j
			continue
		default:
			if w, ok := symbolWords[r]; ok && w != "" {
				f(w, false)
			}
		}
		i += sz
	}
}

// blackboard reads the argument of \mathbb ("{R}" or "R") and returns the
// word for that number system and the bytes consumed.
func blackboard(s string) (string, int) {
	arg, n := "", 0
	switch {
	case len(s) >= 3 && s[0] == '{' && s[2] == '}':
		arg, n = s[1:2], 3
	case len(s) >= 2 && s[0] == ' ' && isASCIILetter(s[1]):
		arg, n = s[1:2], 2
	case len(s) >= 1 && isASCIILetter(s[0]):
		arg, n = s[:1], 1
	default:
		return "", 0
	}
	w, ok := map[string]string{"R": "real", "N": "nat", "Z": "int", "Q": "rat", "C": "complex", "H": "quaternion", "F": "field"}[arg]
	if !ok {
		return "", n
	}
	return w, n
}

// skipGroup returns the offset after the braced group that starts at
// text[i] (after spaces), or i when there is none.
func skipGroup(text string, i int) int {
	k := i
	for k < len(text) && text[k] == ' ' {
		k++
	}
	if _, n, ok := Braced(text[k:]); ok {
		return k + n
	}
	return i
}

// Braced returns the text inside the balanced braces that open s and the
// length of the group; false when s opens no closed group.
func Braced(s string) (string, int, bool) {
	if s == "" || s[0] != '{' {
		return "", 0, false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return s[1:i], i + 1, true
			}
		}
	}
	return "", 0, false
}

func startsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf { // no ASCII symbol of symbolWords is a letter, digit, _ or '
		return r == '_' || r == '\'' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	if _, sym := symbolWords[r]; sym {
		return false
	}
	return r == '_' || r == '\'' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// SplitIdent splits a Lean identifier into its lower-case pieces: on dots,
// underscores and primes, at camel-case boundaries (IsPrimitiveRoot → is
// primitive root, ZMod → z mod) and between letters and digits. Math
// symbols inside the identifier are folded to words.
func SplitIdent(id string) []string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(id)
	for i, r := range rs {
		if w, ok := symbolWords[r]; ok {
			flush()
			if w != "" {
				parts = append(parts, w)
			}
			continue
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return parts
}
