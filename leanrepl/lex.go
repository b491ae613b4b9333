package leanrepl

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token of Lean source.
type tokKind int

const (
	tIdent    tokKind = iota // a name, possibly dotted: Nat.Prime, «x y», h'
	tKeyword                 // a reserved word: theorem, fun, by, sorry, …
	tNumber                  // 42, 0x1F, 2.5, 1e-3
	tString                  // "…", r"…", r#"…"#
	tChar                    // 'a', '\n'
	tSymbol                  // punctuation and operators
	tDoc                     // a doc comment /-- … -/
	tHash                    // a hash command: #eval, #print, …
	tField                   // a projection right after a term: .foo, .1
	tDotIdent                // a leading-dot name: .inl
	tBacktick                // a name literal or syntax quotation start
)

// token is one lexeme with its byte range in the source.
type token struct {
	kind       tokKind
	text       string
	start, end int
}

// keywords are the words our checks treat as syntax rather than names.
var keywords = map[string]bool{
	"theorem": true, "lemma": true, "example": true, "def": true, "abbrev": true, "instance": true,
	"axiom": true, "opaque": true, "structure": true, "class": true, "inductive": true,
	"fun": true, "λ": true, "let": true, "have": true, "show": true, "from": true, "by": true,
	"at": true, "with": true, "then": true, "else": true, "if": true, "do": true, "in": true,
	"match": true, "Type": true, "Sort": true, "Prop": true, "sorry": true,
	"calc": true, "where": true, "deriving": true, "open": true, "import": true, "namespace": true,
	"section": true, "end": true, "variable": true, "universe": true, "set_option": true,
	"attribute": true, "macro": true, "macro_rules": true, "syntax": true, "elab": true,
	"elab_rules": true, "notation": true, "infix": true, "infixl": true, "infixr": true,
	"prefix": true, "postfix": true, "initialize": true, "builtin_initialize": true,
	"run_cmd": true, "run_tac": true, "run_elab": true, "run_meta": true, "unsafe": true,
	"partial": true, "private": true, "protected": true, "noncomputable": true, "nonrec": true,
	"mutual": true, "termination_by": true, "decreasing_by": true, "export": true,
	"declare_syntax_cat": true, "by_elab": true, "omit": true, "include": true, "scoped": true,
	"local": true, "this": true, "suffices": true, "obtain": true, "Type*": true, "Sort*": true,
}

// notationIdents are identifier-shaped tokens that Mathlib defines as
// notation, so they never name a constant.
var notationIdents = map[string]bool{
	"ℕ": true, "ℤ": true, "ℚ": true, "ℝ": true, "ℂ": true, "ℍ": true, "𝔼": true, "ℙ": true, "𝓝": true, "𝓤": true, "𝓟": true,
	"ZMOD": true, "MOD": true, "PMOD": true, "SMOD": true,
}

// multiSymbols lists multi-character symbols, longest first per prefix.
var multiSymbols = []string{
	":=", "=>", "->", "<->", "<-", "::", "...", "..", "@[", "|>.", "|>", "<|>", "<|", "<;>", "//",
	"≠", "<=", ">=", "==", "!=", "&&", "||", "++", "⦃", "⦄", "{{", "}}", "%[", "#[", "∃!", "∀ᶠ", "∃ᶠ",
	"⁻¹", "^^^", "<<<", ">>>", "×ˢ", "⟫_ℂ", "⟫_ℝ", "⟫_𝕜",
}

func isLetterLike(r rune) bool {
	return (r >= 'α' && r <= 'ω' && r != 'λ') || (r >= 'Α' && r <= 'Ω' && r != 'Π' && r != 'Σ') ||
		(r >= 0x3ca && r <= 0x3fb) || (r >= 0x1f00 && r <= 0x1ffe) || (r >= 0x2100 && r <= 0x214f) ||
		(r >= 0x1d49c && r <= 0x1d59f)
}

func isSubscript(r rune) bool {
	return (r >= '₀' && r <= '₉') || (r >= 'ₐ' && r <= 'ₜ') || (r >= 'ᵢ' && r <= 'ᵪ') || r == 'ⱼ'
}

// isIdStart is Lean's rule: an ASCII letter, '_' or a letter-like
// character (Greek except λ Π Σ, Coptic, letter-like symbols, mathematical
// script letters). Other Unicode letters, such as the superscripts in Kˣ or
// sᶜ, are not part of names.
func isIdStart(r rune) bool {
	return r == '_' || (r < 0x80 && unicode.IsLetter(r)) || isLetterLike(r)
}

func isIdRest(r rune) bool {
	return isIdStart(r) || (r >= '0' && r <= '9') || r == '\'' || r == '!' || r == '?' || isSubscript(r)
}

// lexError reports malformed source: an unterminated comment, string or
// name.
type lexError struct {
	pos int
	msg string
}

// Error implements error.
func (e *lexError) Error() string { return fmt.Sprintf("at byte %d: %s", e.pos, e.msg) }

// lex splits Lean source into tokens, dropping whitespace and ordinary
// comments but keeping doc comments. It never panics; malformed input yields
// an error with the offset.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	prevAdjacent := func() bool { // the previous token ends right here
		if len(toks) == 0 {
			return false
		}
		p := toks[len(toks)-1]
		if p.end != i {
			return false
		}
		switch p.kind {
		case tIdent, tNumber, tField, tString, tChar, tKeyword:
			return p.kind != tKeyword || p.text == "this"
		case tSymbol:
			return p.text == ")" || p.text == "]" || p.text == "}" || p.text == "⟩" || p.text == "⦄"
		}
		return false
	}
	for i < len(src) {
		r, w := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && w == 1 {
			return toks, &lexError{i, "invalid UTF-8"}
		}
		start := i
		switch {
		case unicode.IsSpace(r):
			i += w
		case strings.HasPrefix(src[i:], "--"):
			nl := strings.IndexByte(src[i:], '\n')
			if nl < 0 {
				i = len(src)
			} else {
				i += nl + 1
			}
		case strings.HasPrefix(src[i:], "/-"):
			doc := strings.HasPrefix(src[i:], "/--") && !strings.HasPrefix(src[i:], "/--/")
			end, ok := skipBlockComment(src, i)
			if !ok {
				return toks, &lexError{start, "unterminated comment"}
			}
			i = end
			if doc {
				toks = append(toks, token{tDoc, src[start:i], start, i})
			}
		case r == '"' || (r == 'r' && rawStringStart(src[i:]) > 0):
			end, ok := skipString(src, i)
			if !ok {
				return toks, &lexError{start, "unterminated string"}
			}
			i = end
			toks = append(toks, token{tString, src[start:i], start, i})
		case r == '\'' && charLiteralEnd(src, i) > 0:
			i = charLiteralEnd(src, i)
			toks = append(toks, token{tChar, src[start:i], start, i})
		case r >= '0' && r <= '9':
			i = skipNumber(src, i)
			toks = append(toks, token{tNumber, src[start:i], start, i})
		case r == '#' && i+1 < len(src) && isIdStartAt(src, i+1):
			i++
			for i < len(src) {
				r2, w2 := utf8.DecodeRuneInString(src[i:])
				if !isIdRest(r2) {
					break
				}
				i += w2
			}
			toks = append(toks, token{tHash, src[start:i], start, i})
		case r == '`':
			i += w
			toks = append(toks, token{tBacktick, "`", start, i})
		case r == '.' && i+1 < len(src) && (isIdStartAt(src, i+1) || src[i+1] == '«' || (src[i+1] >= '0' && src[i+1] <= '9' && prevAdjacent())):
			kind := tDotIdent
			if prevAdjacent() {
				kind = tField
			}
			i++
			if src[i] >= '0' && src[i] <= '9' {
				for i < len(src) && src[i] >= '0' && src[i] <= '9' {
					i++
				}
			} else {
				end, err := scanIdent(src, i)
				if err != nil {
					return toks, err
				}
				i = end
			}
			toks = append(toks, token{kind, src[start:i], start, i})
		case isIdStart(r) || r == '«':
			end, err := scanIdent(src, i)
			if err != nil {
				return toks, err
			}
			i = end
			text := src[start:i]
			kind := tIdent
			switch {
			case (text == "Type" || text == "Sort") && i < len(src) && src[i] == '*':
				i++
				text = src[start:i]
				kind = tKeyword
			case keywords[text]:
				kind = tKeyword
			case notationIdents[text]:
				kind = tSymbol
			}
			toks = append(toks, token{kind, text, start, i})
		default:
			sym := string(r)
			for _, m := range multiSymbols {
				if strings.HasPrefix(src[i:], m) {
					sym = m
					break
				}
			}
			i += len(sym)
			toks = append(toks, token{tSymbol, sym, start, i})
		}
	}
	return toks, nil
}

func isIdStartAt(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return isIdStart(r)
}

// scanIdent reads a possibly dotted name starting at i.
func scanIdent(src string, i int) (int, error) {
	for {
		if i < len(src) && strings.HasPrefix(src[i:], "«") {
			end := strings.Index(src[i:], "»")
			if end < 0 {
				return i, &lexError{i, "unterminated «name»"}
			}
			i += end + len("»")
		} else {
			r, w := utf8.DecodeRuneInString(src[i:])
			if !isIdStart(r) {
				return i, nil
			}
			i += w
			for i < len(src) {
				r, w := utf8.DecodeRuneInString(src[i:])
				if !isIdRest(r) {
					break
				}
				i += w
			}
		}
		if i+1 < len(src) && src[i] == '.' && (isIdStartAt(src, i+1) || strings.HasPrefix(src[i+1:], "«")) {
			i++
			continue
		}
		return i, nil
	}
}

// skipBlockComment returns the offset after the (nested) comment at i.
func skipBlockComment(src string, i int) (int, bool) {
	depth := 0
	for i < len(src) {
		switch {
		case strings.HasPrefix(src[i:], "/-"):
			depth++
			i += 2
		case strings.HasPrefix(src[i:], "-/"):
			depth--
			i += 2
			if depth == 0 {
				return i, true
			}
		default:
			i++
		}
	}
	return i, false
}

// rawStringStart returns the length of a raw string opener r"…", r#"…" at
// the start of s, or 0.
func rawStringStart(s string) int {
	j := 1
	for j < len(s) && s[j] == '#' {
		j++
	}
	if j < len(s) && s[j] == '"' {
		return j + 1
	}
	return 0
}

// skipString returns the offset after the string literal at i.
func skipString(src string, i int) (int, bool) {
	if src[i] == 'r' {
		open := rawStringStart(src[i:])
		hashes := open - 2
		closer := "\"" + strings.Repeat("#", hashes)
		end := strings.Index(src[i+open:], closer)
		if end < 0 {
			return len(src), false
		}
		return i + open + end + len(closer), true
	}
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1, true
		default:
			i++
		}
	}
	return len(src), false
}

// charLiteralEnd returns the offset after a character literal at i, or 0 if
// the quote does not start one.
func charLiteralEnd(src string, i int) int {
	j := i + 1
	if j >= len(src) {
		return 0
	}
	if src[j] == '\\' {
		k := j + 2
		for k < len(src) && k < j+12 && src[k] != '\'' {
			k++
		}
		if k < len(src) && src[k] == '\'' {
			return k + 1
		}
		return 0
	}
	_, w := utf8.DecodeRuneInString(src[j:])
	if j+w < len(src) && src[j+w] == '\'' && src[j] != '\'' {
		return j + w + 1
	}
	return 0
}

func skipNumber(src string, i int) int {
	if strings.HasPrefix(src[i:], "0x") || strings.HasPrefix(src[i:], "0b") || strings.HasPrefix(src[i:], "0o") {
		i += 2
		for i < len(src) && (isHex(src[i]) || src[i] == '_') {
			i++
		}
		return i
	}
	for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '_') {
		i++
	}
	if i+1 < len(src) && src[i] == '.' && src[i+1] >= '0' && src[i+1] <= '9' {
		i++
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	if i+1 < len(src) && (src[i] == 'e' || src[i] == 'E') && (src[i+1] >= '0' && src[i+1] <= '9' || (i+2 < len(src) && (src[i+1] == '-' || src[i+1] == '+') && src[i+2] >= '0' && src[i+2] <= '9')) {
		i += 2
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	return i
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
