// Package coverage checks that a stub accounts for every quantity and
// condition of the informal statement it formalizes: the numerals and
// comparisons ("greater than 2"), the concepts behind the premises retrieved
// for the statement's sub-queries (prime, odd) and the quantifier words
// ("every", "there exists", "exactly", "unique", "distinct"). It needs no
// model and no Lean: the statement is read with a small phrase grammar over
// its prose and its LaTeX, the stub with the project's Lean scanner. It
// favours precision: a condition is covered by any of the usual ways Lean
// states it, so that a correct stub is rarely flagged.
package coverage

import (
	"fmt"
	"strings"
)

// Kind names what sort of condition of the statement a Condition is.
type Kind string

// The kinds of condition.
const (
	KindQuantity   Kind = "quantity"   // a numeral or number word that must appear ("898", "twice")
	KindComparison Kind = "comparison" // a numeral with an order relation ("greater than 2", "at most 3", "$n \geq 1$", "positive")
	KindConcept    Kind = "concept"    // a sub-query's concept, stated by one of its premises ("prime number")
	KindQuantifier Kind = "quantifier" // a quantifier word ("every", "there exists", "exactly 2", "unique", "distinct")
)

// Concept is one sub-query of a statement's decomposition with the full
// names of the premises retrieved for it.
type Concept struct {
	Phrase string
	Names  []string
}

// Condition is one quantity or condition of the statement and whether the
// stub accounts for it; Phrase is the statement's own text for it.
type Condition struct {
	Phrase  string `json:"phrase"`
	Kind    Kind   `json:"kind"`
	Covered bool   `json:"covered"`
}

// Finding is one condition the stub omits.
type Finding struct {
	Kind    Kind   `json:"kind"`
	Phrase  string `json:"phrase"`
	Message string `json:"message"`
}

// Result is the outcome of Check: the statement's conditions in the order
// they occur (concepts last).
type Result struct {
	Conditions []Condition `json:"conditions"`
}

// Covered counts the covered conditions.
func (r Result) Covered() int {
	n := 0
	for _, c := range r.Conditions {
		if c.Covered {
			n++
		}
	}
	return n
}

// Complete reports whether every condition is covered.
func (r Result) Complete() bool { return r.Covered() == len(r.Conditions) }

// Findings returns one finding per uncovered condition, naming its phrase
// as the statement writes it ("omits 'greater than 2'").
func (r Result) Findings() []Finding {
	out := []Finding{}
	for _, c := range r.Conditions {
		if !c.Covered {
			out = append(out, Finding{Kind: c.Kind, Phrase: c.Phrase, Message: fmt.Sprintf("omits '%s'", c.Phrase)})
		}
	}
	return out
}

// Verdict is the one-line summary of r: "covers 2/3 conditions" (or "no
// conditions found" when the statement has none).
func (r Result) Verdict() string {
	if len(r.Conditions) == 0 {
		return "no conditions found"
	}
	noun := "conditions"
	if len(r.Conditions) == 1 {
		noun = "condition"
	}
	return fmt.Sprintf("covers %d/%d %s", r.Covered(), len(r.Conditions), noun)
}

// Check extracts the conditions of the informal statement and tells which
// of them stub accounts for. stub is the stub's statement: its binders and,
// after the colon, its type (`(n : ℕ) (hp : Nat.Prime n) : Odd n`); a bare
// type is read as the type. concepts are optional. Check never fails: text
// it cannot read yields fewer conditions, never an error.
func Check(statement, stub string, concepts []Concept) Result {
	statement = strings.ToValidUTF8(statement, " ")
	st := readStub(stub)
	var res Result
	seen := map[string]bool{}
	add := func(phrase string, kind Kind, covered bool) {
		phrase = strings.TrimSpace(phrase)
		key := string(kind) + "\x00" + phrase
		if phrase == "" || seen[key] {
			return
		}
		seen[key] = true
		res.Conditions = append(res.Conditions, Condition{Phrase: phrase, Kind: kind, Covered: covered})
	}
	for _, c := range extract(statement) {
		add(c.phrase, c.kind, st.covers(c))
	}
	for _, c := range concepts {
		if words := conceptWords(c.Phrase); len(words) > 0 || len(c.Names) > 0 {
			add(c.Phrase, KindConcept, st.mentions(c.Names, words))
		}
	}
	return res
}
