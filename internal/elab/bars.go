package elab

import (
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
