package elab

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// quantifierIn finds `∀ x in s, …` (and ∃, ∃!) in the statement
// (s.Text[from:s.ProofStart]): Lean 3's bounded quantifier, which Lean 4
// does not parse (after a binder's names it expects `,`, `:`, a binder
// predicate such as ∈, or another name). Mathlib still reads the big
// operators' deprecated `∑ x in s, f x`, which is left alone.
func quantifierIn(s *leansrc.Stub, from int) []Finding {
	var out []Finding
	lx := s.Lexemes
	for i, t := range lx {
		if t.Start < from || t.End > s.ProofStart {
			continue
		}
		switch t.Text {
		case "∀", "∃", "∃!", "forall", "exists":
		default:
			continue
		}
		j := i + 1
		for j < len(lx) && lx[j].End <= s.ProofStart && lx[j].Text != "in" && leansrc.IsIdentifier(lx[j].Text) {
			j++
		}
		if j > i+1 && j < len(lx) && lx[j].Text == "in" && lx[j].End <= s.ProofStart {
			out = append(out, Finding{Start: lx[j].Start, End: lx[j].End, Name: "in",
				Message: "unexpected token 'in'; expected ',': a bounded quantifier is written " + t.Text + " x ∈ s, … in Lean 4"})
		}
	}
	return out
}

// lambdaComma finds `λ x, …` and `fun x : T, …` in the statement: Lean 3's
// lambda, which Lean 4 does not parse (its binders end at `=>` or `↦`). A
// comma inside brackets (fun ⟨a, b⟩ => …, fun (x, y) => …) is a pattern's.
func lambdaComma(s *leansrc.Stub, from int) []Finding {
	var out []Finding
	lx := s.Lexemes
	for i, t := range lx {
		if t.Start < from || t.End > s.ProofStart || t.Text != "λ" && t.Text != "fun" {
			continue
		}
		depth := 0
	scan:
		for _, u := range lx[i+1:] {
			if u.End > s.ProofStart {
				break
			}
			if binderHead(u.Text) {
				break scan // fun f : ∀ a, β a ↦ …, fun f : ΣG : 𝒢, … => …: that comma is the type's
			}
			switch u.Text {
			case "(", "[", "{", "⟨", "⦃":
				depth++
			case ")", "]", "}", "⟩", "⦄":
				if depth--; depth < 0 {
					break scan
				}
			case "=>", "↦", "|":
				break scan
			case ",":
				if depth == 0 {
					out = append(out, Finding{Start: u.Start, End: u.End, Name: ",",
						Message: "unexpected token ','; expected '↦', '=>': a function is written fun x => … in Lean 4"})
					break scan
				}
			}
		}
	}
	return out
}

// binderHead reports whether a token starts a binder that a comma ends (∀,
// ∃, Σ, Π, ∑, ∏, ⋃, ⋂, ⨆, ⨅, ∫, a nested λ or fun), glued to a name or not
// (the scanner may read `ΣG` as one identifier).
func binderHead(tok string) bool {
	if tok == "fun" || tok == "forall" || tok == "exists" {
		return true
	}
	for _, h := range []string{"∀", "∃", "Σ", "Π", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫", "λ"} {
		if strings.HasPrefix(tok, h) {
			return true
		}
	}
	return false
}
