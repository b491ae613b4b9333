package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// symbolWords spells out Lean and Mathlib notation in English, for sentence
// models that have never seen Lean.
var symbolWords = map[rune]string{
	'ℝ': "real numbers", 'ℕ': "natural numbers", 'ℤ': "integers", 'ℚ': "rational numbers", 'ℂ': "complex numbers",
	'∣': "divides", '%': "mod", '∑': "sum", '∏': "product", '∫': "integral", '∮': "contour integral",
	'∀': "for all", '∃': "there exists", '¬': "not", '∧': "and", '∨': "or", '→': "implies", '↔': "iff",
	'⇒': "implies", '≤': "less than or equal to", '<': "less than", '≥': "greater than or equal to",
	'>': "greater than", '≠': "not equal to", '=': "equals", '∈': "in", '∉': "not in", '⊆': "subset of",
	'⊂': "proper subset of", '∩': "intersection", '∪': "union", '∘': "composed with", '√': "square root of",
	'π': "pi", '∞': "infinity", '≡': "congruent to", '∅': "empty set", '×': "times", '*': "times",
	'•': "scalar multiplication", '⬝': "dot product", '+': "plus", '-': "minus", '/': "divided by",
	'^': "to the power", '⁻': "inverse", '∂': "partial derivative", '∇': "gradient", '‖': "norm",
	'≃': "equivalent to", '≅': "isomorphic to", '⊤': "top", '⊥': "bottom", '⊓': "meet", '⊔': "join",
	'∆': "symmetric difference", 'ε': "epsilon", 'δ': "delta", '²': "squared", '³': "cubed", '!': "factorial",
	'↑': "", '⇑': "",
}

// wordAbbrev expands Mathlib's naming-convention abbreviations.
var wordAbbrev = map[string]string{
	"dvd": "divides", "le": "less or equal", "lt": "less than", "ge": "greater or equal", "gt": "greater than",
	"ne": "not equal", "eq": "equal", "pos": "positive", "neg": "negative", "nonneg": "nonnegative",
	"nonpos": "nonpositive", "inv": "inverse", "sqrt": "square root", "sq": "square", "deriv": "derivative",
	"card": "cardinality", "ncard": "cardinality", "fderiv": "derivative", "gcd": "greatest common divisor",
	"lcm": "least common multiple", "iff": "if and only if", "tsum": "sum", "finrank": "dimension",
}

// Humanize rewrites formal Lean text into plain lower-case words: notation is
// spelled out (ℝ → "real numbers", ∣ → "divides", % → "mod"), names are split
// on dots, underscores and camel case (Nat.Prime → "nat prime",
// exists_prime_and_dvd → "exists prime and divides"), and brackets and other
// punctuation are dropped. Invalid UTF-8 is skipped.
func Humanize(lean string) string {
	var out []string
	var ident strings.Builder
	flush := func() {
		if ident.Len() > 0 {
			out = append(out, splitIdent(ident.String())...)
			ident.Reset()
		}
	}
	for i := 0; i < len(lean); {
		r, size := utf8.DecodeRuneInString(lean[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			flush()
			continue
		}
		// "->" is an arrow; ":=" is syntax, not content.
		if r == '-' && i < len(lean) && lean[i] == '>' {
			flush()
			out = append(out, "implies")
			i++
			continue
		}
		if r == ':' && i < len(lean) && lean[i] == '=' {
			flush()
			i++
			continue
		}
		if w, ok := symbolWords[r]; ok {
			flush()
			if w != "" {
				out = append(out, w)
			}
			continue
		}
		switch {
		case r >= '₀' && r <= '₉':
			ident.WriteRune('0' + (r - '₀'))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '\'':
			ident.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return strings.Join(out, " ")
}

// splitIdent splits a Lean name into lower-case words.
func splitIdent(s string) []string {
	var words []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '_' || r == '\'' }) {
		for _, w := range splitCamel(part) {
			w = strings.ToLower(w)
			if x, ok := wordAbbrev[w]; ok {
				w = x
			}
			words = append(words, w)
		}
	}
	return words
}

// splitCamel splits "IsOpenMap" into Is, Open, Map, "ZMod" into Z, Mod and
// "h2x" into h, 2, x.
func splitCamel(s string) []string {
	rs := []rune(s)
	var words []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		next := rune(0)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		split := (unicode.IsLower(prev) && unicode.IsUpper(cur)) ||
			(unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next)) ||
			(unicode.IsDigit(prev) != unicode.IsDigit(cur))
		if split {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	return append(words, string(rs[start:]))
}
