package stmtgrammar

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// The variable classes of the grammar (varRegex, hypRegex) for whole
// identifiers.
var (
	varRE = regexp.MustCompile(`^[a-zA-Zα-κμ-ω][0-9']*$`)
	hypRE = regexp.MustCompile(`^h[A-Za-z0-9_₀-₉']*$`)
)

// keywords are the identifiers the grammar writes as literals.
var keywords = map[string]bool{"fun": true, "in": true, "MOD": true, "ZMOD": true, "Type": true, "Sort": true}

// symbolRunes are the characters of the grammar's symbols.
const symbolRunes = "(){}[]⦃⦄,:|=<>≤≥≠→↔∧∨¬∣∈∉⊆⊂∩∪+-*/%^∘•×≡!⁻¹ᶜ⌊⌋⌈⌉₊⟨⟩√∀∃∑∏↑."

// Check reports how an answer departs from v's grammar — nothing when it
// keeps to it. A server that was sent the grammar and answers something
// else did not apply it (llama.cpp's server answers 200 and generates
// unconstrained when it cannot load a grammar), so the answer is checked
// the way the grammar would have: the JSON shape, no LaTeX, and every
// identifier a name of the vocabulary or of the variable classes. Check
// is no stricter than the grammar (an answer the grammar produced always
// passes), and it is not a parser: a wrong nesting it does not see.
func (v *Vocabulary) Check(answer string) []string {
	var out []string
	add := func(format string, args ...any) {
		if len(out) < 5 {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}
	text := strings.TrimSpace(answer)
	if latex(text) {
		add("answer has LaTeX")
	} else if strings.Contains(text, "\\") {
		add("answer has a JSON escape (the grammar writes none)")
	}
	var a struct {
		Name       *string   `json:"name"`
		Binders    *[]string `json:"binders"`
		Conclusion *string   `json:"conclusion"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	if !strings.HasPrefix(text, "{") || strings.Contains(text, "\n") || dec.Decode(&a) != nil || dec.More() ||
		a.Name == nil || a.Binders == nil || a.Conclusion == nil {
		add("answer is not the grammar's one-line JSON object {name, binders, conclusion}")
		return out
	}
	if len(*a.Binders) > 10 {
		add("answer has %d binders, more than 10", len(*a.Binders))
	}
	for _, b := range *a.Binders {
		b = strings.TrimSpace(b)
		if b == "" || !strings.ContainsAny(b[:1], "({[⦃") {
			add("binder %q is not bracketed", b)
		}
		v.checkTerm(b, add)
	}
	v.checkTerm(*a.Conclusion, add)
	if bareNumber.MatchString(*a.Conclusion) {
		add("conclusion %q is a number, not a proposition", *a.Conclusion)
	}
	return out
}

// bareNumber matches a conclusion the grammar does not write: a lone
// numeral, with the prefixes and postfixes it allows.
var bareNumber = regexp.MustCompile(`^[\s¬↑-]*[0-9]+(\.[0-9]+)?\s*(⁻¹|!|ᶜ)?\s*$`)

// latex reports whether text has LaTeX: a dollar sign, a subscript or
// superscript group, or a command (a backslash that JSON doubles before a
// letter, or a common command after one; a single backslash before a
// letter is otherwise a JSON escape such as \n or \u003e).
func latex(text string) bool {
	if strings.ContainsAny(text, "$") || strings.Contains(text, "_{") || strings.Contains(text, "^{") {
		return true
	}
	return latexCommand.MatchString(text)
}

var latexCommand = regexp.MustCompile(`\\\\[a-zA-Z]|\\(sum|prod|frac|mathbb|mathrm|text|cdot|times|forall|exists|sqrt|le|ge|leq|geq|lt|gt|neq|ne|in|notin|mid|infty|subseteq|cup|cap|to|iff|land|lor|neg)\b`)

// checkTerm reports the identifiers and symbols of a piece of Lean text
// that the grammar does not have.
func (v *Vocabulary) checkTerm(text string, add func(string, ...any)) {
	toks, errs := leansrc.Scan([]byte(text))
	if len(errs) > 0 {
		add("%q does not scan as Lean", text)
	}
	for i, t := range toks {
		s := text[t.Start:t.End]
		switch t.Kind {
		case leansrc.TokIdent:
			if i > 0 && toks[i-1].Kind == leansrc.TokSymbol && text[toks[i-1].Start:toks[i-1].End] == "." && v.fields[s] {
				continue // (…).field
			}
			if !v.allowed(s) {
				add("answer names `%s`, outside the vocabulary", s)
			}
		case leansrc.TokSymbol:
			for _, r := range s {
				if !strings.ContainsRune(symbolRunes, r) {
					add("answer uses `%s`, outside the grammar", s)
					break
				}
			}
		}
	}
}

// allowed reports whether an identifier is one the grammar writes.
func (v *Vocabulary) allowed(s string) bool {
	if v.names[s] || keywords[s] || varRE.MatchString(s) || hypRE.MatchString(s) {
		return true
	}
	if i := strings.IndexByte(s, '.'); i > 0 && varRE.MatchString(s[:i]) && v.fields[s[i+1:]] {
		return true
	}
	return false
}
