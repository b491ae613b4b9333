package stmtgrammar

import (
	"strconv"
	"strings"
)

// The lexemes of variables. A constrained answer may bind any name of the
// VAR or HYP class and use it later (the grammar does not track scope, so a
// name in use is one of these classes, or a constant of the vocabulary):
// VAR is one letter (Latin, or Greek but λ) then digits or primes: x, n,
// a1, p'. Not two letters: every two-letter lower-case name the bundled
// model wrote was a constant it did not know (`pi`, `oo`) or a product
// (`cb` for c * b), and the references name no variable so. (Not
// subscripts: LLGuidance's lexer, which looks one byte ahead, then cannot
// end `x` before `⁻¹`, whose first byte a subscript shares.) HYP names
// hypotheses: h, hx, h₁, hpos.
const (
	varRegex = `/[a-zA-Zα-κμ-ω][0-9']*/`
	hypRegex = `/h[A-Za-z0-9_₀-₉']*/`
)

// Lark returns the LLGuidance Lark grammar of a Formalize answer over v:
// the JSON object {"name": …, "binders": […], "conclusion": …} that
// drift's ParseFormalizeAnswer reads, on one line (JSON allows no raw line
// break inside a string), whose
// binders are bracketed Lean binders and whose conclusion is a Lean term.
// llama.cpp's server hands a grammar starting with `%llguidance {}` to
// LLGuidance; vLLM takes the same text as structured_outputs.grammar.
//
// The term syntax is Lean's without precedences (the checker parses the
// result; the grammar only keeps the model to Lean's tokens and names):
// applications, parentheses and type ascriptions, numerals, ∀ ∃ ∃! and
// fun with their binders (`x y : T`, `x ∈ s`, `n > 0`, `(x : T)`), ∑ ∏,
// the infix relations and operations, ¬ - ↑ √ prefixes, ⁻¹ ᶜ
// postfixes (not Mathlib's `n !`, notation scoped to Nat that a header
// without `open Nat` does not read: Nat.factorial is in Core), |x| (with no space inside its bars, as Lean's notation
// demands: | x | does not parse), ⌊x⌋, ⟨a, b⟩, set-builder and set literals, lists, and
// `a ≡ b [MOD n]`. There is no backslash and no dollar sign anywhere, so
// no LaTeX; an identifier is a vocabulary name, a variable (VAR, HYP), or
// a variable with a field of the vocabulary (`p.Prime`). The conclusion is
// not a lone number (`: 898` is what a small model writes for "Find …",
// and it is no proposition).
func (v *Vocabulary) Lark() string {
	var b strings.Builder
	b.WriteString(`%llguidance {}
// A Lean theorem statement as drift's Formalize JSON answer (internal/stmtgrammar).
// Spaces are explicit (SP), not ignored: two names in a row need one, so
// that no name outside the vocabulary is spelled as several short ones.
start: "{" SP? "\"name\"" SP? ":" SP? "\"" THEOREM_NAME "\"" SP? "," SP? "\"binders\"" SP? ":" SP? "[" SP? binders "]" SP? "," SP? "\"conclusion\"" SP? ":" SP? "\"" SP? conclusion "\"" SP? "}"
binders: (binder ("," SP? binder){0,9})?
binder: "\"" SP? bracketed SP? "\"" SP?
bracketed: "(" SP? bnames SP? ":" SP? term ")"
    | "(" SP? term ")"
    | "{" SP? bnames SP? (":" SP? term)? "}"
    | "⦃" SP? bnames SP? ":" SP? term "⦄"
    | "[" SP? term "]"
bnames: bname (SP bname)*
bname: VAR | HYP
term: (unary SP? INFIX SP?)* (unary SP? | binder_term)
conclusion: (unary SP? INFIX SP?)+ (unary SP? | binder_term) | binder_term | (PREFIX SP?)* (atom (SP atom)+ | word) (SP? modeq)? SP?
unary: (PREFIX SP?)* app (SP? modeq)?
absterm: (unary SP? INFIX SP?)* unary
app: atom (SP atom)*
modeq: MOD SP term "]"
binder_term: QUANT SP? qbinders "," SP? term
    | "fun" SP qbinders "=>" SP? term
    | BIGOP SP? qbinders "," SP? term
qbinders: bnames SP? (":" SP? term)?
    | bnames SP? BINPRED SP? term
    | bnames SP "in" SP term
    | group (SP? group)* SP?
group: "(" SP? bnames SP? ":" SP? term ")" | "{" SP? bnames SP? (":" SP? term)? "}" | "[" SP? term "]"
atom: NUM (SP? POSTFIX)? | word
word: NAME (SP? POSTFIX)?
    | "(" SP? term ")" DOTFIELD? (SP? POSTFIX)?
    | "(" SP? term ":" SP? term ")"
    | "(" SP? term "," SP? term ("," SP? term)* ")"
    | "|" absterm "|"
    | "⌊" SP? term "⌋" "₊"? | "⌈" SP? term "⌉" "₊"?
    | "⟨" SP? term ("," SP? term)* "⟩"
    | "{" SP? bname SP? (":" SP? term)? "|" SP? term "}"
    | "{" SP? bname SP? BINPRED SP? term "|" SP? term "}"
    | "{" SP? term ("," SP? term)* "}"
    | "[" SP? (term ("," SP? term)*)? "]"
    | "√" atom
QUANT: "∀" | "∃!" | "∃"
BIGOP: "∑" | "∏"
MOD: "[MOD" | "[ZMOD"
BINPRED: "∈" | "∉" | "<" | "≤" | ">" | "≥" | "≠" | "⊆" | "⊂"
INFIX: "↔" | "→" | "∧" | "∨" | "=" | "≠" | "<" | "≤" | ">" | "≥" | "∣" | "∈" | "∉" | "⊆" | "⊂" | "∩" | "∪"
    | "+" | "-" | "*" | "/" | "%" | "^" | "∘" | "•" | "×" | "≡" | "<=" | ">=" | "->" | "<->"
PREFIX: "¬" | "-" | "↑"
POSTFIX: "⁻¹" | "ᶜ"
NUM: /[0-9]+(\.[0-9]+)?/
THEOREM_NAME: /[A-Za-z_][A-Za-z0-9_'.]{0,80}/
SP: / +/
`)
	b.WriteString("VAR: " + varRegex + "\n")
	b.WriteString("HYP: " + hypRegex + "\n")
	b.WriteString("NAME: VOCAB | VAR | VAR DOTFIELD\n")
	b.WriteString("DOTFIELD: \".\" FIELD\n")
	b.WriteString("VOCAB: " + literals(v.Names) + "\n")
	fields := v.Fields
	if len(fields) == 0 {
		// A lexeme of no alternatives is not a grammar: a field no name has.
		fields = []string{"card"}
	}
	b.WriteString("FIELD: " + literals(fields) + "\n")
	return b.String()
}

// literals writes names as alternatives of Lark string literals.
func literals(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(strconv.Quote(n))
	}
	return b.String()
}
