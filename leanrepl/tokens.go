package leanrepl

import (
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// tokKind classifies a token for the gate and the name check. The tokens
// come from internal/leansrc's scanner (the one Lean lexer); this file only
// classifies them: keywords, hash commands, projections and the symbols
// made of several scanner tokens.
type tokKind int

const (
	tIdent    tokKind = iota // a name, possibly dotted: Nat.Prime, «x y», h'
	tKeyword                 // a reserved word: theorem, fun, by, sorry, …
	tNumber                  // 42, 0x1F, 2.5
	tString                  // "…", r"…", r#"…"#, s!"…"
	tChar                    // 'a', '\n'
	tSymbol                  // punctuation and operators
	tDoc                     // a doc comment /-- … -/
	tHash                    // a hash command: #eval, #print, …
	tField                   // a projection right after a term: .foo, .1
	tDotIdent                // a leading-dot name: .inl
	tBacktick                // a name literal or syntax quotation
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

// IsKeyword reports whether word is a Lean keyword for the checks, so that
// it cannot be a name (theorem, fun, by, sorry, Type, …).
func IsKeyword(word string) bool { return keywords[word] }

// notationIdents are identifier-shaped tokens that Mathlib defines as
// notation, so they never name a constant.
var notationIdents = map[string]bool{
	"ℕ": true, "ℤ": true, "ℚ": true, "ℝ": true, "ℂ": true, "ℍ": true, "𝔼": true, "ℙ": true, "𝓝": true, "𝓤": true, "𝓟": true,
	"ZMOD": true, "MOD": true, "PMOD": true, "SMOD": true,
}

// multiSymbols are symbols the checks read as one token although the
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

// lexError reports malformed source: an unterminated comment, string,
// quotation or «name».
type lexError struct {
	pos int
	msg string
}

// Error implements error.
func (e *lexError) Error() string { return fmt.Sprintf("at byte %d: %s", e.pos, e.msg) }

// lex returns the tokens of src as the checks read them, dropping comments
// other than doc comments. Malformed input yields the tokens and the first
// lexical error.
func lex(src string) ([]token, error) {
	raw, errs := leansrc.Scan([]byte(src))
	toks := make([]token, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		r := raw[i]
		start, end := int(r.Start), int(r.End)
		t := token{text: src[start:end], start: start, end: end}
		adjacent := i+1 < len(raw) && int(raw[i+1].Start) == end
		switch r.Kind {
		case leansrc.TokModDoc:
			continue
		case leansrc.TokDoc:
			t.kind = tDoc
		case leansrc.TokNameLit, leansrc.TokQuote:
			t.kind = tBacktick
		case leansrc.TokString:
			t.kind = tString
		case leansrc.TokChar:
			t.kind = tChar
		case leansrc.TokNumber:
			t.kind = tNumber
		case leansrc.TokIdent:
			t.kind = tIdent
			switch {
			case (t.text == "Type" || t.text == "Sort") && adjacent && raw[i+1].Kind == leansrc.TokSymbol && src[end] == '*':
				i++
				t.kind, t.end, t.text = tKeyword, end+1, src[start:end+1]
			case keywords[t.text]:
				t.kind = tKeyword
			case notationIdents[t.text]:
				t.kind = tSymbol
			}
		default: // a symbol
			t.kind = tSymbol
			if t.text == "`" {
				t.kind = tBacktick
				break
			}
			if n := mergeSymbol(src, raw, i); n > 0 {
				last := raw[i+n-1]
				t.end = int(last.End)
				t.text = src[start:t.end]
				i += n - 1
				break
			}
			if !adjacent {
				break
			}
			next := raw[i+1]
			switch {
			case t.text == "#" && next.Kind == leansrc.TokIdent:
				t.kind = tHash
			case t.text == "." && (next.Kind == leansrc.TokIdent || next.Kind == leansrc.TokNumber && precedesField(toks, start)):
				t.kind = tDotIdent
				if precedesField(toks, start) {
					t.kind = tField
				}
			}
			if t.kind == tSymbol {
				break
			}
			i++
			t.end = int(next.End)
			t.text = src[start:t.end]
			if t.kind == tField && next.Kind == leansrc.TokNumber {
				// h.1.2 scans as '.' and the number 1.2: one field each.
				for _, part := range strings.Split(t.text[1:], ".") {
					toks = append(toks, token{tField, src[start : start+1+len(part)], start, start + 1 + len(part)})
					start += 1 + len(part)
				}
				continue
			}
		}
		toks = append(toks, t)
	}
	if len(errs) > 0 {
		return toks, &lexError{errs[0].Offset, errs[0].Msg}
	}
	return toks, nil
}

// mergeSymbol returns how many scanner tokens from raw[i] on spell one of
// multiSymbols exactly, or 0.
func mergeSymbol(src string, raw []leansrc.Token, i int) int {
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
func precedesField(toks []token, at int) bool {
	if len(toks) == 0 {
		return false
	}
	p := toks[len(toks)-1]
	if p.end != at {
		return false
	}
	switch p.kind {
	case tIdent, tNumber, tField, tString, tChar:
		return true
	case tKeyword:
		return p.text == "this"
	case tSymbol:
		return p.text == ")" || p.text == "]" || p.text == "}" || p.text == "⟩" || p.text == "⦄"
	}
	return false
}
