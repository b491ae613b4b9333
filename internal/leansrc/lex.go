package leansrc

import (
	"fmt"
	"strings"
)

// LexKind classifies a Lexeme: the scanner's tokens as the checks of a stub
// read them, with keywords, hash commands, projections and the symbols made
// of several scanner tokens told apart.
type LexKind int

// The kinds of Lexeme.
const (
	LexIdent    LexKind = iota // a name, possibly dotted: Nat.Prime, «x y», h'
	LexKeyword                 // a reserved word: theorem, fun, by, sorry, …
	LexNumber                  // 42, 0x1F, 2.5
	LexString                  // "…", r"…", r#"…"#, s!"…"
	LexChar                    // 'a', '\n'
	LexSymbol                  // punctuation and operators
	LexDoc                     // a doc comment /-- … -/
	LexHash                    // a hash command: #eval, #print, …
	LexField                   // a projection right after a term: .foo, .1
	LexDotIdent                // a leading-dot name: .inl
	LexBacktick                // a name literal or syntax quotation
)

// Lexeme is one classified token with its byte range in the source.
type Lexeme struct {
	Kind       LexKind
	Text       string
	Start, End int
}

// keywords are the words the checks treat as syntax rather than names.
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

// IsKeyword reports whether word is a Lean keyword for the checks, so that
// it cannot be a name (theorem, fun, by, sorry, Type, …).
func IsKeyword(word string) bool { return keywords[word] }

// notationIdents are identifier-shaped tokens that Mathlib defines as
// notation, so they never name a constant.
var notationIdents = map[string]bool{
	"ℕ": true, "ℤ": true, "ℚ": true, "ℝ": true, "ℂ": true, "ℍ": true, "𝔼": true, "ℙ": true, "𝓝": true, "𝓤": true, "𝓟": true,
	"ZMOD": true, "MOD": true, "PMOD": true, "SMOD": true,
}

// multiSymbols are symbols the checks read as one lexeme although the
// scanner may split them, longest first per prefix.
var multiSymbols = []string{
	"<->", "->", "<-", "...", "<;>", "//", "<=", ">=", "==", "!=", "&&", "++", "{{", "}}", "%[", "#[", "∃!", "∀ᶠ", "∃ᶠ",
	"⁻¹", "^^^", "<<<", ">>>", "×ˢ", "⟫_ℂ", "⟫_ℝ", "⟫_𝕜",
}

// multiFirst holds the first bytes of multiSymbols.
var multiFirst = func() map[byte]bool {
	m := map[byte]bool{}
	for _, s := range multiSymbols {
		m[s[0]] = true
	}
	return m
}()

// LexError reports malformed source: an unterminated comment, string,
// quotation or «name».
type LexError struct {
	// Offset is the byte offset of the problem.
	Offset int
	// Msg says what is malformed.
	Msg string
}

// Error implements error.
func (e *LexError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg) }

// Lex returns the lexemes of src, dropping comments other than doc
// comments. Malformed input yields the lexemes and the first lexical error,
// a *LexError.
func Lex(src string) ([]Lexeme, error) {
	raw, errs := Scan([]byte(src))
	toks := make([]Lexeme, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		r := raw[i]
		start, end := int(r.Start), int(r.End)
		t := Lexeme{Text: src[start:end], Start: start, End: end}
		adjacent := i+1 < len(raw) && int(raw[i+1].Start) == end
		switch r.Kind {
		case TokModDoc:
			continue
		case TokDoc:
			t.Kind = LexDoc
		case TokNameLit, TokQuote:
			t.Kind = LexBacktick
		case TokString:
			t.Kind = LexString
		case TokChar:
			t.Kind = LexChar
		case TokNumber:
			t.Kind = LexNumber
		case TokIdent:
			t.Kind = LexIdent
			switch {
			case (t.Text == "Type" || t.Text == "Sort") && adjacent && raw[i+1].Kind == TokSymbol && src[end] == '*':
				i++
				t.Kind, t.End, t.Text = LexKeyword, end+1, src[start:end+1]
			case keywords[t.Text]:
				t.Kind = LexKeyword
			case notationIdents[t.Text]:
				t.Kind = LexSymbol
			}
		default: // a symbol
			t.Kind = LexSymbol
			if t.Text == "`" {
				t.Kind = LexBacktick
				break
			}
			if n := mergeSymbol(src, raw, i); n > 0 {
				last := raw[i+n-1]
				t.End = int(last.End)
				t.Text = src[start:t.End]
				i += n - 1
				break
			}
			if !adjacent {
				break
			}
			next := raw[i+1]
			switch {
			case t.Text == "#" && next.Kind == TokIdent:
				t.Kind = LexHash
			case t.Text == "." && (next.Kind == TokIdent || next.Kind == TokNumber && precedesField(toks, start)):
				t.Kind = LexDotIdent
				if precedesField(toks, start) {
					t.Kind = LexField
				}
			}
			if t.Kind == LexSymbol {
				break
			}
			i++
			t.End = int(next.End)
			t.Text = src[start:t.End]
			if t.Kind == LexField && next.Kind == TokNumber {
				// h.1.2 scans as '.' and the number 1.2: one field each.
				for _, part := range strings.Split(t.Text[1:], ".") {
					toks = append(toks, Lexeme{LexField, src[start : start+1+len(part)], start, start + 1 + len(part)})
					start += 1 + len(part)
				}
				continue
			}
		}
		toks = append(toks, t)
	}
	if len(errs) > 0 {
		return toks, &LexError{errs[0].Offset, errs[0].Msg}
	}
	return toks, nil
}

// mergeSymbol returns how many scanner tokens from raw[i] on spell one of
// multiSymbols exactly, or 0.
func mergeSymbol(src string, raw []Token, i int) int {
	start := int(raw[i].Start)
	if !multiFirst[src[start]] {
		return 0
	}
	for _, m := range multiSymbols {
		if !strings.HasPrefix(src[start:], m) {
			continue
		}
		end := start + len(m)
		for j := i; j < len(raw) && int(raw[j].Start) < end; j++ {
			if int(raw[j].End) == end {
				if j == i {
					return 0 // the scanner already made it one token
				}
				return j - i + 1
			}
		}
	}
	return 0
}

// precedesField reports whether a '.' at offset at directly follows a term
// (a name, a number, a literal or a closing bracket), which makes it a
// projection rather than a leading-dot name.
func precedesField(toks []Lexeme, at int) bool {
	if len(toks) == 0 {
		return false
	}
	p := toks[len(toks)-1]
	if p.End != at {
		return false
	}
	switch p.Kind {
	case LexIdent, LexNumber, LexField, LexString, LexChar:
		return true
	case LexKeyword:
		return p.Text == "this"
	case LexSymbol:
		return p.Text == ")" || p.Text == "]" || p.Text == "}" || p.Text == "⟩" || p.Text == "⦄"
	}
	return false
}
