package leanrepl

import (
	"context"
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/equivalence"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// BackTranslation is the model's restatement of a stub in words, compared
// with the informal statement (Aria's semantic check).
type BackTranslation struct {
	// Text is the model's restatement.
	Text string `json:"text"`
	// Score is the agreement with the informal statement, 0 to 1.
	Score float64 `json:"score"`
	// Method says how Score was computed: "lexical" or "lexical+dense".
	Method string `json:"method"`
}

// FalsifierJSON is the JSON form of the falsifier's result, its verdict
// named ("refuted", "not refuted", "unknown").
type FalsifierJSON struct {
	Verdict        string `json:"verdict"`
	Counterexample string `json:"counterexample"`
	Assignments    int    `json:"assignments"`
	Reason         string `json:"reason"`
	// Explanation is how the counterexample (or, for a closed statement,
	// the statement itself) is false: the values of the hypotheses, of each
	// ℕ/ℤ division that truncated, and of the conclusion.
	Explanation string `json:"explanation,omitempty"`
}

func falsifierJSON(r *falsify.Result) *FalsifierJSON {
	if r == nil {
		return nil
	}
	return &FalsifierJSON{Verdict: r.Verdict.String(), Counterexample: r.Counterexample, Assignments: r.Assignments, Reason: r.Reason, Explanation: r.Explanation}
}

// Refuted reports whether the falsifier found a counterexample.
func (r *Report) Refuted() bool {
	return r.Falsifier != nil && r.Falsifier.Verdict == falsify.Refuted
}

// counterexample says what refutes the stub: the assignment, or, for a
// statement with no variables, the values that make it false
// ("1000000^(1/3) = 1 (1/3 is ℕ division: 0) · left side 999 ≠ 900").
func (r *Report) counterexample() string {
	if r.Falsifier.Counterexample == "" {
		if r.Falsifier.Explanation != "" {
			return r.Falsifier.Explanation
		}
		return "false as stated"
	}
	return r.Falsifier.Counterexample
}

// CoverageFindings returns the conditions of the informal statement the
// stub omits (nil when coverage was not checked).
func (r *Report) CoverageFindings() []coverage.Finding {
	if r.Coverage == nil {
		return nil
	}
	return r.Coverage.Findings()
}

// StatementOf is the statement the falsifier evaluates: the stub's binders
// and its type.
func StatementOf(s *leansrc.Stub) falsify.Statement {
	st := falsify.Statement{Conclusion: s.Type}
	for _, b := range s.Binders {
		st.Binders = append(st.Binders, falsify.Param{Names: b.Names, Type: b.Type, Explicit: b.Bracket == "(" || b.Bracket == ""})
	}
	return st
}

// MeaningLibrary resolves the names of stub s under header as the name
// check does, with the library's definitions to unfold when the checker
// has a library.
func (c *Checker) MeaningLibrary(s *leansrc.Stub, header string) falsify.Library {
	resolve := newResolver(s, readHeader(header), c.cfg.Names, c.cfg.Kinds).fullNames
	var l *library.Library
	if c.cfg.Library != nil {
		l = c.cfg.Library()
	}
	if l == nil {
		return namesOnly(resolve)
	}
	return falsify.FromLibrary(l, resolve)
}

// namesOnly is the Library of a checker without a library: it resolves
// names and knows no definition or notation.
type namesOnly func(name string) []string

// Resolve returns the full names name may denote.
func (r namesOnly) Resolve(name string) []string { return r(name) }

// Definition knows no definition.
func (namesOnly) Definition(string) (falsify.Definition, bool) { return falsify.Definition{}, false }

// Notation knows no notation.
func (namesOnly) Notation(string) (falsify.Notation, bool) { return falsify.Notation{}, false }

// falsifyStatement runs the falsifier on a stub that passed the gate.
func (c *Checker) falsifyStatement(ctx context.Context, s *leansrc.Stub, header string) *falsify.Result {
	res := falsify.Falsify(ctx, StatementOf(s), c.MeaningLibrary(s, header), falsify.Options{})
	return &res
}

// coverageOf checks that the stub accounts for every condition of the
// informal statement: the request's, else the stub's own docstring. Without
// either it checks only that the stub's hypotheses can hold (nil when they
// can; a placeholder `: True` is no finding there).
func coverageOf(s *leansrc.Stub, req CheckRequest, falsified *falsify.Result) *coverage.Result {
	if strings.TrimSpace(req.Statement) == "" {
		req.Statement = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s.Doc, "/--"), "-/"))
	}
	res := Coverage(s, req.Statement, req.Concepts, falsified)
	if req.Statement == "" && len(res.Conditions) == 0 {
		return nil
	}
	return &res
}

// Coverage checks that stub s accounts for every condition of statement
// (coverage.Check on its binders and type) and states its claim: a
// conclusion that is one of its own hypotheses, or True, or relates a term
// to itself states nothing (equivalence.Assumed and Reflexive; only
// against a statement), and neither do
// hypotheses that cannot all hold, which falsified (the falsifier's result
// on s, or nil) proves (falsify.Result.Contradiction; with statement ""
// that alone is checked).
func Coverage(s *leansrc.Stub, statement string, concepts []coverage.Concept, falsified *falsify.Result) coverage.Result {
	var b strings.Builder
	for _, bd := range s.Binders {
		b.WriteString(s.Text[bd.Start:bd.End])
		b.WriteByte(' ')
	}
	b.WriteString(": ")
	b.WriteString(s.Type)
	var res coverage.Result
	assumed := false
	if statement != "" {
		res = coverage.Check(statement, b.String(), concepts)
		var hyp string
		if hyp, assumed = equivalence.Assumed(StatementOf(s)); assumed {
			res.ClaimAssumed(hyp)
		} else if concl, ok := equivalence.Reflexive(StatementOf(s)); ok {
			res.ClaimReflexive(concl)
			assumed = true
		}
	}
	if !assumed && falsified != nil && falsified.Contradiction != "" {
		res.ClaimContradicted(falsified.Contradiction)
	}
	return res
}

// verdictPart is one check's part of a Verdict.
type verdictPart struct {
	text   string
	failed bool
}

// meaningVerdicts are the verdict parts of the meaning checks: the
// falsifier, coverage and back-translation.
func (r *Report) meaningVerdicts() []verdictPart {
	var out []verdictPart
	if f := r.Falsifier; f != nil {
		switch f.Verdict {
		case falsify.Refuted:
			out = append(out, verdictPart{"refuted: " + r.counterexample(), true})
		case falsify.NotRefuted:
			out = append(out, verdictPart{fmt.Sprintf("not refuted (%d assignments)", f.Assignments), false})
		default:
			out = append(out, verdictPart{"falsifier undecided (" + f.Reason + ")", false})
		}
	}
	if cv := r.Coverage; cv != nil {
		if fs := cv.Findings(); len(fs) > 0 {
			msgs := make([]string, len(fs))
			for i, f := range fs {
				msgs[i] = f.Message
			}
			out = append(out, verdictPart{strings.Join(msgs, ", "), true})
		} else {
			out = append(out, verdictPart{cv.Verdict(), false})
		}
	}
	if bt := r.BackTranslation; bt != nil {
		out = append(out, verdictPart{fmt.Sprintf("back-translation agrees %.2f", bt.Score), false})
	}
	return out
}

// refutedMessage is the finding of a refuted stub, with the values that
// make it false when the falsifier gave them.
func refutedMessage(counterexample, explanation string) string {
	if counterexample == "" {
		if explanation != "" {
			return "refuted: the statement has no variables and is false: " + explanation
		}
		return "refuted: the statement has no variables and is false as stated"
	}
	msg := "refuted: " + counterexample + " satisfies every hypothesis and falsifies the conclusion"
	if explanation != "" {
		msg += " (" + explanation + ")"
	}
	return msg
}
