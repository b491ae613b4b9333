// Package stmtgrammar holds the grammar of a Lean theorem statement that
// the Formalize stage constrains decoding to: an LLGuidance Lark grammar
// (llama.cpp's server and vLLM take it as a per-request `grammar`) of the
// stage's JSON answer, {"name", "binders", "conclusion"}, whose binders and
// conclusion are Lean term syntax with no LaTeX and whose identifiers come
// from a vocabulary: the names the pipeline retrieved, a core set, and
// short variable names. Check tells, after the fact, whether an answer
// keeps to the grammar: a server that cannot load a grammar answers 200
// and generates unconstrained, so that is how a grammar that was not in
// force is found.
package stmtgrammar

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Core is the part of every vocabulary that needs no library: the number
// types, the sorts, and the constants every Lean statement may name. The
// library's own names (Nat.Prime, Finset.range …) enter through the
// retrieved premises and their statements, and through Common when the
// library has them.
var Core = []string{
	"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex",
	"Prop", "Type", "Type*", "Sort*", "Bool", "True", "False", "Set", "Finset",
	"Fin", "List", "Function", "id",
}

// Common are library names a statement about elementary mathematics often
// needs; the caller keeps those its library has (a vocabulary never names
// what the library lacks).
var Common = []string{
	"Nat.Prime", "Prime", "Even", "Odd", "abs", "Real.sqrt", "Real.pi", "Real.exp", "Real.log",
	"Nat.gcd", "Nat.lcm", "Nat.Coprime", "Nat.factorial", "Int.gcd", "Int.natAbs", "Nat.digits",
	"Finset.range", "Finset.Icc", "Finset.Ico", "Finset.card", "Finset.sum", "Finset.prod",
	"Set.Icc", "Set.Ioo", "Set.Ico", "Set.Ioc", "Set.Ici", "Set.Ioi", "Set.univ", "Set.Infinite",
	"Set.Finite", "Function.Injective", "Function.Surjective", "Function.Bijective",
	"Continuous", "ContinuousOn", "Differentiable", "deriv", "Irrational", "Squarefree",
	"IsSquare", "Monotone", "StrictMono", "Filter.Tendsto", "Filter.atTop", "nhds", "max", "min",
}

// Vocabulary is the names a constrained answer may use for constants.
type Vocabulary struct {
	// Names are the constants, sorted, without duplicates.
	Names []string
	// Fields are the last components of the namespaced names, which dot
	// notation writes after a variable (`p.Prime`, `s.card`).
	Fields []string
	names  map[string]bool
	fields map[string]bool
}

// New returns the vocabulary of Core and the given names. A name that is
// not a plain Lean identifier (guillemets, a space) is left out: the
// grammar writes names as literals and Check reads them with a simple
// lexer.
func New(names ...[]string) *Vocabulary {
	v := &Vocabulary{names: map[string]bool{}, fields: map[string]bool{}}
	add := func(n string) {
		if !plainName(n) || v.names[n] {
			return
		}
		v.names[n] = true
		v.Names = append(v.Names, n)
		if i := strings.LastIndexByte(n, '.'); i > 0 {
			if f := n[i+1:]; !v.fields[f] && plainName(f) {
				v.fields[f] = true
				v.Fields = append(v.Fields, f)
			}
		}
	}
	for _, n := range Core {
		add(n)
	}
	for _, list := range names {
		for _, n := range list {
			add(n)
		}
	}
	slices.Sort(v.Names)
	slices.Sort(v.Fields)
	return v
}

// Has reports whether name is one of the vocabulary's constants.
func (v *Vocabulary) Has(name string) bool { return v.names[name] }

// plainName reports whether s is an identifier the grammar can write as a
// literal: components of letters, digits, _ and ' (a letter or _ first),
// joined by dots; or a number type's symbol; or Type*/Sort*.
func plainName(s string) bool {
	switch s {
	case "", ".":
		return false
	case "Type*", "Sort*":
		return true
	}
	if len(s) > 200 {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			switch {
			case i == 0 && (unicode.IsDigit(r) || r == '\''):
				return false
			case isIdentRune(r):
			default:
				return false
			}
		}
	}
	return true
}

// isIdentRune reports whether r may stand in an identifier: a letter
// (Latin, Greek except λ Π Σ, letter-like symbols ℕ ℝ …), a digit, a
// subscript, _ or '.
func isIdentRune(r rune) bool {
	switch {
	case r == '_' || r == '\'' || r == '!' && false:
		return true
	case r == 'λ' || r == 'Π' || r == 'Σ':
		return false
	case r >= '₀' && r <= '₉':
		return true
	case r >= 0x2100 && r <= 0x214F: // letter-like symbols: ℕ ℤ ℚ ℝ ℂ
		return true
	case r < utf8.RuneSelf:
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
