package leanrepl

import (
	"context"
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
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

// Refuted reports whether the falsifier found a counterexample.
func (r *Report) Refuted() bool {
	return r.Falsifier != nil && r.Falsifier.Verdict == falsify.Refuted
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
func StatementOf(s *Stub) falsify.Statement {
	st := falsify.Statement{Conclusion: s.Type}
	for _, b := range s.Binders {
		st.Binders = append(st.Binders, falsify.Param{Names: b.Names, Type: b.Type, Explicit: b.Bracket == "(" || b.Bracket == ""})
	}
	return st
}

// MeaningLibrary resolves the names of stub s under header as the name
// check does, with the library's definitions to unfold when the checker
// has a library.
func (c *Checker) MeaningLibrary(s *Stub, header string) falsify.Library {
	var l *library.Library
	if c.cfg.Library != nil {
		l = c.cfg.Library()
	}
	return falsify.FromLibrary(l, newResolver(s, ParseHeader(header), c.cfg.Names, c.cfg.Kinds).fullNames)
}

// falsifyStatement runs the falsifier on a stub that passed the gate.
func (c *Checker) falsifyStatement(ctx context.Context, s *Stub, header string) *falsify.Result {
	res := falsify.Falsify(ctx, StatementOf(s), c.MeaningLibrary(s, header), falsify.Options{})
	return &res
}

// coverageOf checks that the stub accounts for every condition of the
// informal statement.
func coverageOf(s *Stub, req CheckRequest) *coverage.Result {
	if strings.TrimSpace(req.Statement) == "" {
		return nil
	}
	var b strings.Builder
	for _, bd := range s.Binders {
		b.WriteString(s.Text[bd.Start:bd.End])
		b.WriteByte(' ')
	}
	b.WriteString(": ")
	b.WriteString(s.Type)
	res := coverage.Check(req.Statement, b.String(), req.Concepts)
	return &res
}

// meaningVerdicts are the verdict parts of the meaning checks, in the order
// of Verdict.
func (r *Report) meaningVerdicts() []string {
	var out []string
	if f := r.Falsifier; f != nil {
		switch f.Verdict {
		case falsify.Refuted:
			out = append(out, "refuted: "+f.Counterexample)
		case falsify.NotRefuted:
			out = append(out, fmt.Sprintf("not refuted (%d assignments)", f.Assignments))
		default:
			out = append(out, "falsifier undecided ("+f.Reason+")")
		}
	}
	if cv := r.Coverage; cv != nil {
		if fs := cv.Findings(); len(fs) > 0 {
			msgs := make([]string, len(fs))
			for i, f := range fs {
				msgs[i] = f.Message
			}
			out = append(out, strings.Join(msgs, ", "))
		} else {
			out = append(out, cv.Verdict())
		}
	}
	if bt := r.BackTranslation; bt != nil {
		out = append(out, fmt.Sprintf("back-translation agrees %.2f", bt.Score))
	}
	return out
}
