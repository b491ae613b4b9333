package leansrc

import "strings"

// maxBinderScan bounds how far a binder list is searched for its end, which
// keeps the check linear on hostile input.
const maxBinderScan = 256

// binderIntroducers start a binder list that ends at `,`, `=>` or `↦`:
// the parser's binderIntro, and let, have and the big operators that the
// parser's reference scan need not know.
var binderIntroducers = extend(binderIntro, "let", "have", "∑'", "∏'", "∐")

// binderPredicates end the names of a binder group (∀ x ∈ s, …): the term
// parser's binderPreds, and the relations a binder list may use loosely.
var binderPredicates = extend(binderPreds, "⊇", "⊃", "in", "=")

// extend returns a copy of set with words added.
func extend(set map[string]bool, words ...string) map[string]bool {
	out := make(map[string]bool, len(set)+len(words))
	for w := range set {
		out[w] = true
	}
	for _, w := range words {
		out[w] = true
	}
	return out
}

// TermBinders adds to bound every name that a binder inside the lexemes
// of a term introduces: ∀/∃/fun/λ/let/have/big operators, set-builder and
// subtype braces, and match alternatives. Scopes are not tracked: a name
// bound anywhere counts as bound everywhere, which can only hide an unknown
// name, never invent one.
func TermBinders(toks []Lexeme, bound map[string]bool) {
	hasMatch := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind == LexKeyword && t.Text == "match" {
			hasMatch = true
		}
		window := toks[i+1 : min(len(toks), i+1+maxBinderScan)]
		if binderIntroducers[t.Text] && (t.Kind == LexSymbol || t.Kind == LexKeyword) {
			collectBinderList(window, bound)
		}
		if t.Kind == LexSymbol && t.Text == "{" {
			collectSetBuilder(window, bound)
		}
		if hasMatch && t.Kind == LexSymbol && t.Text == "|" {
			for j := 0; j < len(window) && window[j].Text != "=>" && window[j].Text != "↦"; j++ {
				if window[j].Kind == LexIdent && !strings.Contains(window[j].Text, ".") {
					bound[window[j].Text] = true
				}
			}
		}
	}
}

// collectBinderList reads the binders after an introducer.
func collectBinderList(toks []Lexeme, bound map[string]bool) {
	// typed[d] is true once a ':' or binder predicate was seen at depth d.
	typed := []bool{false}
	for _, t := range toks {
		d := len(typed) - 1
		if t.Kind == LexSymbol {
			switch t.Text {
			case "(", "{", "[", "⦃", "⟨", "{{":
				typed = append(typed, false)
				continue
			case ")", "}", "]", "⦄", "⟩", "}}":
				if d == 0 {
					return
				}
				typed = typed[:d]
				continue
			case ",", "=>", "↦", ":=", "|":
				if d == 0 {
					return
				}
				continue
			case ":":
				typed[d] = true
				continue
			}
			if binderPredicates[t.Text] {
				typed[d] = true
			}
			continue
		}
		if t.Kind == LexKeyword && t.Text == "in" {
			typed[d] = true
			continue
		}
		if t.Kind == LexIdent && !typed[d] && !strings.Contains(t.Text, ".") {
			bound[t.Text] = true
		}
	}
}

// collectSetBuilder binds the names before `|` or `//` in {x | p x},
// {x : T // p x} and {(x, y) | …}; toks starts after the `{`.
func collectSetBuilder(toks []Lexeme, bound map[string]bool) {
	depth := 0
	var names []string
	typed := false
	for _, t := range toks {
		if t.Kind == LexSymbol {
			switch t.Text {
			case "(", "{", "[", "⟨":
				depth++
				continue
			case ")", "]", "⟩":
				depth--
				continue
			case "}":
				if depth == 0 {
					return
				}
				depth--
				continue
			case "|", "//":
				if depth == 0 {
					for _, n := range names {
						bound[n] = true
					}
					return
				}
			case ":", "∈", "∉", "⊆", "<", ">", "≤", "≥", "≠":
				if depth == 0 {
					typed = true
				}
				continue
			case ",":
				if depth == 0 {
					return
				}
			case ":=":
				return
			}
			continue
		}
		if t.Kind == LexIdent && !typed && !strings.Contains(t.Text, ".") {
			names = append(names, t.Text)
		}
	}
}
