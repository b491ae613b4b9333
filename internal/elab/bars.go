package elab

import (
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// strayBars finds the bars `|` of the statement (s.Text[from:s.ProofStart])
// that no Lean notation can read: one with a space on both sides, outside
// braces. Mathlib's |a| is `atomic("|" noWs) term noWs "|"`, so its bars
// touch their term; a set-builder {x | p x} is inside braces; a match
// alternative or `fun | …` comes with =>, and a statement with => is not
// read. What is left is a syntax error — most often | written for ∣
// (divides) or an absolute value written | x |.
func strayBars(s *leansrc.Stub, from int) []Finding {
	src := s.Text[from:s.ProofStart]
	if strings.Contains(src, "=>") {
		return nil
	}
	var out []Finding
	depth := 0
	for _, t := range s.Lexemes {
		if t.Start < from || t.End > s.ProofStart {
			continue
		}
		switch t.Text {
		case "{", "⦃":
			depth++
		case "}", "⦄":
			depth--
		case "|":
			if depth > 0 || !spaceAt(s.Text, t.Start-1) || !spaceAt(s.Text, t.End) {
				continue
			}
			out = append(out, Finding{Start: t.Start, End: t.End, Name: "|",
				Message: "unexpected token '|': an absolute value is written |x|, with no space inside the bars, and divides is ∣ (\\mid), not |"})
		}
	}
	return out
}

// spaceAt reports whether text[i] is a space, a tab or a line break.
func spaceAt(text string, i int) bool {
	return i >= 0 && i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
}

// inactivePostfix finds the statement's symbols right after a term (no
// bracket, no operator of Lean core), where only a postfix or infix
// notation can stand, that are the library's notation the
// header leaves out of force (Env.Inactive): `n !` without `open Nat`,
// which Lean reads as the prefix `not` and fails at what follows. Silent
// when the header declares notation.
func inactivePostfix(s *leansrc.Stub, from int, env *Env) []Finding {
	if env.Inactive == nil || env.Notation {
		return nil
	}
	var out []Finding
	for i, t := range s.Lexemes {
		if f, ok := inactiveIndex(s, i, from, env); ok {
			out = append(out, f)
			continue
		}
		if f, ok := inactiveToken(s, i, from, env); ok {
			out = append(out, f)
			continue
		}
		if t.Start < from || t.End > s.ProofStart || t.Kind != leansrc.LexSymbol || i == 0 || !endsTerm(s.Lexemes[i-1]) ||
			strings.ContainsAny(t.Text, "([{⟨⦃‹⁅,:.|") || leansrc.BuiltinOperator(t.Text) ||
			t.Text == "!" && s.Lexemes[i-1].Text == "]" {
			// an argument or an index opens; core operators stay in force,
			// as does core's `xs[i]!`
			continue
		}
		if targets, nss := env.Inactive(t.Text); len(targets) > 0 && !tokenEnd(s, i, env) {
			out = append(out, Finding{Start: t.Start, End: t.End, Name: t.Text, Message: inactiveMessage("unexpected token", t.Text, targets, nss)})
		}
	}
	return out
}

// inactiveIndex reports a bracketed postfix notation of one name glued to
// the term before it (`ℝ[X]`, Polynomial ℝ) whose notations the header
// leaves out of force (`open Polynomial` missing): Lean then reads a type
// applied to the list `[X]`.
func inactiveIndex(s *leansrc.Stub, i, from int, env *Env) (Finding, bool) {
	if env.Postfix == nil || i == 0 || i+2 >= len(s.Lexemes) || s.Lexemes[i].Text != "[" || s.Lexemes[i+2].Text != "]" ||
		s.Lexemes[i].Start < from || s.Lexemes[i+2].End > s.ProofStart || s.Lexemes[i-1].End != s.Lexemes[i].Start ||
		!endsTerm(s.Lexemes[i-1]) && numOf(s.Lexemes[i-1].Text) == numNone || s.Lexemes[i+1].Kind != leansrc.LexIdent {
		return Finding{}, false
	}
	atom := s.Text[s.Lexemes[i].Start:s.Lexemes[i+2].End]
	if _, ok := env.Postfix(atom); !ok {
		return Finding{}, false
	}
	targets, nss := env.Inactive(atom)
	if len(targets) == 0 {
		return Finding{}, false
	}
	return Finding{Start: s.Lexemes[i].Start, End: s.Lexemes[i+2].End, Name: atom, Message: inactiveMessage("function expected", atom, targets, nss)}, true
}

// inactiveToken reports a notation token of the library glued from the
// lexemes ending at i (`ℝ≥0∞`), the longest there, whose notations the
// header leaves out of force (`open ENNReal` missing): Lean reads `ℝ ≥
// 0∞` and fails, wherever the token stands (`(⊤ : ℝ≥0∞)`, which the term
// parser does not read).
func inactiveToken(s *leansrc.Stub, i, from int, env *Env) (Finding, bool) {
	if env.Token == nil || env.AutoImplicit || i+1 < len(s.Lexemes) && s.Lexemes[i+1].Start == s.Lexemes[i].End && tokenEnd(s, i+1, env) {
		return Finding{}, false
	}
	for j := i - 1; j >= 0 && j >= i-4 && s.Lexemes[j].End == s.Lexemes[j+1].Start; j-- {
		tok := s.Text[s.Lexemes[j].Start:s.Lexemes[i].End]
		if _, ok := env.Token(tok); !ok || s.Lexemes[j].Start < from || s.Lexemes[i].End > s.ProofStart {
			continue
		}
		if targets, nss := env.Inactive(tok); len(targets) > 0 {
			return Finding{Start: s.Lexemes[j].Start, End: s.Lexemes[i].End, Name: tok, Message: inactiveMessage("unexpected token", tok, targets, nss)}, true
		}
		return Finding{}, false
	}
	return Finding{}, false
}

// tokenEnd reports whether lexeme i ends a notation token of the library
// glued from the lexemes before it (`∞` of `ℝ≥0∞`), which inactiveTokens
// judges whole.
func tokenEnd(s *leansrc.Stub, i int, env *Env) bool {
	if env.Token == nil {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-4 && s.Lexemes[j].End == s.Lexemes[j+1].Start; j-- {
		if _, ok := env.Token(s.Text[s.Lexemes[j].Start:s.Lexemes[i].End]); ok {
			return true
		}
	}
	return false
}

// inactiveTokens reports the names and notation tokens of terms (parsed
// from the text at offset off, their tokens not yet renamed) that are the
// library's notation the header leaves out of force: `ℝ≥0` without `open
// NNReal`, which Lean reads as `ℝ ≥ 0`; `π` without `open Real`, an unknown
// identifier unless bound (a name in bound) or naming a constant in scope.
// Silent when the header declares notation or names are bound
// automatically.
func inactiveTokens(env *Env, off int, bound map[string]bool, terms ...*leansrc.Term) []Finding {
	if env.Inactive == nil || env.Token == nil || env.Notation || env.AutoImplicit {
		return nil
	}
	var out []Finding
	var walk func(t *leansrc.Term)
	walk = func(t *leansrc.Term) {
		if t == nil {
			return
		}
		if t.Kind == leansrc.TermIdent && !bound[t.Text] && !env.Variables[t.Text] {
			ident := leansrc.IsIdentifier(t.Text)
			if _, tok := env.Token(t.Text); tok || ident {
				if targets, nss := env.Inactive(t.Text); len(targets) > 0 && (!ident || len(env.Resolve(t.Text)) == 0) {
					lean := "unexpected token"
					if ident {
						lean = "unknown identifier"
					}
					out = append(out, Finding{Start: off + t.Start, End: off + t.End, Name: t.Text, Message: inactiveMessage(lean, t.Text, targets, nss)})
				}
			}
		}
		for _, a := range t.Args {
			walk(a)
		}
		for _, b := range t.Binders {
			walk(b.Type)
			walk(b.Bound)
		}
	}
	for _, t := range terms {
		walk(t)
	}
	return out
}

// inactiveMessage is the message of a notation out of force, with the
// notations' targets and namespaces (at most three named).
func inactiveMessage(lean, atom string, targets, namespaces []string) string {
	var what []string
	for i := range targets {
		if i == 3 {
			what = append(what, "…")
			break
		}
		what = append(what, fmt.Sprintf("`%s` (open %s)", targets[i], namespaces[i]))
	}
	return fmt.Sprintf("%s '%s': `%s` is notation the library scopes to a namespace that is not open here; it stands for %s: open the namespace, or write the constant",
		lean, atom, atom, strings.Join(what, ", "))
}

// endsTerm reports whether lexeme t may end a term: a name, a number, a
// closing bracket.
func endsTerm(t leansrc.Lexeme) bool {
	switch t.Kind {
	case leansrc.LexIdent, leansrc.LexNumber, leansrc.LexField:
		return true
	case leansrc.LexSymbol:
		return t.Text == ")" || t.Text == "]" || t.Text == "}" || t.Text == "⟩"
	}
	return false
}
