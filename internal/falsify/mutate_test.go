package falsify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// mutant is a variant of a statement that is false in general: the
// autoformalization errors the falsifier is for.
type mutant struct {
	desc string
	st   Statement
}

// flips are the relation changes applied to a conclusion.
var flips = map[string][]string{"<": {"≤", ">"}, "≤": {"<", "≥"}, ">": {"≥", "<"}, "≥": {">", "≤"}, "=": {"≠"}, "≠": {"="}}

// mutants drops each hypothesis, flips each relation of the conclusion
// and shifts each numeral of the conclusion by one.
func mutants(st Statement) []mutant {
	var out []mutant
	for i, b := range st.Binders {
		if k := typeOf(leansrc.ParseTerm(b.Type, nil)); k != kNone || len(b.Names) == 0 {
			continue
		}
		if isTypeTerm(leansrc.ParseTerm(b.Type, nil)) {
			continue
		}
		m := st
		m.Binders = append(append([]Param(nil), st.Binders[:i]...), st.Binders[i+1:]...)
		out = append(out, mutant{"drop " + strings.Join(b.Names, " "), m})
	}
	src := st.Conclusion
	var walk func(t *leansrc.Term)
	walk = func(t *leansrc.Term) {
		if t == nil {
			return
		}
		switch t.Kind {
		case leansrc.TermInfix:
			if alts, ok := flips[t.Text]; ok {
				gap := src[t.Args[0].End:t.Args[1].Start]
				if i := strings.Index(gap, t.Text); i >= 0 {
					at := t.Args[0].End + i
					for _, a := range alts {
						m := st
						m.Conclusion = src[:at] + a + src[at+len(t.Text):]
						out = append(out, mutant{fmt.Sprintf("%s → %s", t.Text, a), m})
					}
				}
			}
		case leansrc.TermNum:
			if v, ok := literal(t.Text); ok && v.isInt() {
				if w, ok := addNum(v, small(1)); ok {
					m := st
					m.Conclusion = src[:t.Start] + w.String() + src[t.End:]
					out = append(out, mutant{fmt.Sprintf("%s → %s", t.Text, w), m})
				}
			}
		}
		for _, a := range t.Args {
			walk(a)
		}
		for _, b := range t.Binders {
			walk(b.Bound)
		}
	}
	walk(leansrc.ParseTerm(src, nil))
	return out
}

func TestMutants(t *testing.T) {
	st := stmt(t, "(n : ℕ) (h₀ : 0 < n) (h₁ : n < 5) : n + 1 ≤ 6", nil)
	var got []string
	for _, m := range mutants(st) {
		got = append(got, m.desc+": "+headerOf(m.st))
	}
	want := []string{
		"drop h₀: (n : ℕ) (h₁ : n < 5) : n + 1 ≤ 6",
		"drop h₁: (n : ℕ) (h₀ : 0 < n) : n + 1 ≤ 6",
		"≤ → <: (n : ℕ) (h₀ : 0 < n) (h₁ : n < 5) : n + 1 < 6",
		"≤ → ≥: (n : ℕ) (h₀ : 0 < n) (h₁ : n < 5) : n + 1 ≥ 6",
		"1 → 2: (n : ℕ) (h₀ : 0 < n) (h₁ : n < 5) : n + 2 ≤ 6",
		"6 → 7: (n : ℕ) (h₀ : 0 < n) (h₁ : n < 5) : n + 1 ≤ 7",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mutants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the falsifier refutes the false ones
	refuted := 0
	for _, m := range mutants(st) {
		if r := Falsify(t.Context(), m.st, nil, Options{Budget: 1e9}); r.Verdict == Refuted {
			refuted++
		}
	}
	// dropping h₁ (n = 6) and ≤ → ≥ (n = 1) make it false; the other
	// mutants stay true on 1 ≤ n ≤ 4
	if refuted != 2 {
		t.Errorf("%d mutants refuted, want 2", refuted)
	}
}

// headerOf renders a statement as a theorem header.
func headerOf(st Statement) string {
	var sb strings.Builder
	for _, b := range st.Binders {
		open, close := "{", "}"
		if b.Explicit {
			open, close = "(", ")"
		}
		fmt.Fprintf(&sb, "%s%s : %s%s ", open, strings.Join(b.Names, " "), b.Type, close)
	}
	return sb.String() + ": " + st.Conclusion
}
