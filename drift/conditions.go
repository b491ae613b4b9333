package drift

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// statementHints are what the statement's words tell the model with the
// statement, before any stub exists: the conditions it assumes
// (conditionHints) and the notation of the relations it names in words
// ("divides": a ∣ b; coverage.Notations).
type statementHints struct {
	conditions, notation []string
}

// hintsFor reads statementHints from statement and its concepts.
func hintsFor(statement string, concepts []coverage.Concept) statementHints {
	h := statementHints{conditions: conditionHints(statement, concepts)}
	for _, n := range coverage.Notations(statement) {
		h.notation = append(h.notation, fmt.Sprintf("'%s': %s", n.Word, n.Lean))
	}
	return h
}

// conditionHints are the assumptions the statement's words make, read
// before any stub exists (coverage.Check of the statement against an empty
// stub, with the concepts of its sub-queries) and told to the model with
// the statement, so that its first answer states them: a numeral
// comparison said of a subject ("greater than 2") and a concept said of
// the subject ("two odd integers": Odd of each). The checks ask for the
// same conditions afterwards; a stub that drops one is repaired
// (AddOmittedConditions) or asked again with the finding.
func conditionHints(statement string, concepts []coverage.Concept) []string {
	cov := coverage.Check(statement, "", concepts)
	var out []string
	for _, c := range cov.Conditions {
		switch {
		case c.Bound != nil:
			v := "x"
			of := c.Subject.Noun
			if len(c.Subject.Vars) > 0 {
				v, of = c.Subject.Vars[0], strings.Join(c.Subject.Vars, ", ")
			}
			if of == "" {
				continue
			}
			out = append(out, fmt.Sprintf("'%s' (of %s): a hypothesis such as (h : %s)", c.Phrase, of, comparison(v, c.Bound)))
		case c.Kind == coverage.KindConcept && c.Of != "":
			pred := ""
			for _, n := range c.Names {
				if namesConcept(n, c) {
					pred = n
					break
				}
			}
			if pred == "" {
				out = append(out, fmt.Sprintf("'%s' is said of '%s': state it as a hypothesis of each", c.Phrase, c.Of))
				continue
			}
			out = append(out, fmt.Sprintf("'%s' is said of '%s': a hypothesis such as (h : %s x) for each", c.Phrase, c.Of, pred))
		}
	}
	return out
}

// subjectConcepts adds to concepts those the statement says of its subject
// that no sub-query named: an adjective before the subject's noun ("two
// even integers") whose capitalized word is a definition or a type at the
// library's root (Even), with that name, so that coverage and the
// omission repair see the hypothesis a stub drops.
func subjectConcepts(statement string, concepts []coverage.Concept, lookup func(string) (*library.Decl, bool)) []coverage.Concept {
	for _, w := range coverage.SubjectAdjectives(statement) {
		if slices.ContainsFunc(concepts, func(c coverage.Concept) bool { return strings.Contains(strings.ToLower(c.Phrase), w) }) {
			continue
		}
		name := strings.ToUpper(w[:1]) + w[1:]
		if d, ok := lookup(name); !ok || d.Kind != library.KindDef && d.Kind != library.KindStructure && d.Kind != library.KindClass && d.Kind != library.KindInductive {
			continue
		}
		concepts = append(concepts, coverage.Concept{Phrase: w, Names: []string{name}})
	}
	return concepts
}

// conceptsOf are the statement's concepts for the checks: each sub-query
// with the names of the premises retrieved for it.
func conceptsOf(res *Result) []coverage.Concept {
	concepts := make([]coverage.Concept, len(res.SubQueries))
	for i, q := range res.SubQueries {
		concepts[i].Phrase = q.Informal
	}
	for _, p := range res.Premises {
		if p.Decl != nil && p.SubQuery >= 0 && p.SubQuery < len(concepts) {
			concepts[p.SubQuery].Names = append(concepts[p.SubQuery].Names, p.Decl.Name)
		}
	}
	return concepts
}
