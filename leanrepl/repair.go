package leanrepl

import (
	"context"
	"fmt"
	"strings"
)

// Repair budgets: attempts are model calls after the first check.
const (
	DefaultRepairBudget = 4
	MaxRepairBudget     = 16
)

// Model proposes a corrected stub; the LLM stages implement it.
type Model interface {
	Repair(ctx context.Context, req RepairRequest) (string, error)
}

// RepairError is one problem of the failing stub, as the model sees it.
type RepairError struct {
	// Line (1-based) and Column (0-based, code points) in the stub; 0/-1
	// when the problem is not located (a gate rejection).
	Line, Column int
	// Kind is "gate", "unknown-name", "lint" or a Classify category.
	Kind    string
	Message string
	// Name is the invented name for hallucinations.
	Name string
	// Suggestions are existing library names the model may have meant.
	Suggestions []string
}

// RepairRequest is what the model gets to repair a stub (Aria's repair
// step): the stub, every problem with its position, and for invented names
// suggestions and fresh retrieval results.
type RepairRequest struct {
	Header string
	Stub   string
	// Attempt counts repair attempts, from 1.
	Attempt int
	Errors  []RepairError
	// Retrieved are library declarations (one per line: name and
	// signature) retrieved for the concepts behind invented names.
	Retrieved []string
	// Previous are earlier failed candidates, oldest first.
	Previous []string
}

// RetrieveFunc returns library declarations (name and signature, one per
// string) relevant to a concept, for example an invented name.
type RetrieveFunc func(ctx context.Context, concept string) ([]string, error)

// RepairConfig configures Checker.Repair.
type RepairConfig struct {
	// Model proposes fixes; nil reports errors and suggestions only.
	Model Model
	// Retrieve, if set, is asked about each invented name.
	Retrieve RetrieveFunc
	// Budget is the number of repair attempts (DefaultRepairBudget if 0,
	// at most MaxRepairBudget).
	Budget int
	// OnAttempt is called after every check, the first one included.
	OnAttempt func(Attempt)
}

// Attempt is one checked candidate.
type Attempt struct {
	// N is 0 for the original stub, then 1, 2, … for repairs.
	N      int
	Stub   string
	Report *Report
	// Request is what the model was asked for this candidate (nil for the
	// original stub).
	Request *RepairRequest
}

// RepairResult is the outcome of the repair loop.
type RepairResult struct {
	// Fixed is true when the last attempt passed every check that ran.
	Fixed bool
	// Final is the report of the last attempt.
	Final    *Report
	Attempts []Attempt
	// Stop says why the loop ended: "passed", "budget", "no model",
	// "model error: …", "cancelled".
	Stop string
	// Errors are the problems of the last attempt, with suggestions: what is
	// shown to the user when no model is configured.
	Errors []RepairError
}

// Repair checks the stub and, while it fails, asks the model for a fix and
// checks again, until a candidate passes, the budget is spent or ctx ends.
// Every check is reported through cfg.OnAttempt. The error is non-nil only
// when ctx ended before the first check finished.
func (c *Checker) Repair(ctx context.Context, req CheckRequest, cfg RepairConfig) (*RepairResult, error) {
	budget := cfg.Budget
	if budget <= 0 {
		budget = DefaultRepairBudget
	}
	if budget > MaxRepairBudget {
		budget = MaxRepairBudget
	}
	res := &RepairResult{}
	stub := req.Stub
	var request *RepairRequest
	var previous []string
	for n := 0; ; n++ {
		rep, err := c.Check(ctx, CheckRequest{Header: req.Header, Stub: stub})
		if err != nil {
			if n == 0 {
				return nil, err
			}
			res.Stop = "cancelled"
			return res, nil
		}
		att := Attempt{N: n, Stub: stub, Report: rep, Request: request}
		res.Attempts = append(res.Attempts, att)
		res.Final = rep
		if cfg.OnAttempt != nil {
			cfg.OnAttempt(att)
		}
		res.Errors = c.repairErrors(rep)
		if rep.Passed() {
			res.Fixed, res.Stop = true, "passed"
			return res, nil
		}
		switch {
		case cfg.Model == nil:
			res.Stop = "no model"
			return res, nil
		case n >= budget:
			res.Stop = "budget"
			return res, nil
		case ctx.Err() != nil:
			res.Stop = "cancelled"
			return res, nil
		}
		previous = append(previous, stub)
		request = &RepairRequest{Header: req.Header, Stub: stub, Attempt: n + 1, Errors: res.Errors,
			Previous: append([]string(nil), previous[:len(previous)-1]...)}
		if cfg.Retrieve != nil {
			request.Retrieved = c.retrieveFor(ctx, cfg.Retrieve, res.Errors)
		}
		next, err := cfg.Model.Repair(ctx, *request)
		if err != nil {
			if ctx.Err() != nil {
				res.Stop = "cancelled"
			} else {
				res.Stop = "model error: " + err.Error()
			}
			return res, nil
		}
		stub = extractLean(next)
	}
}

// repairErrors lists a report's problems for the model and the user.
func (c *Checker) repairErrors(rep *Report) []RepairError {
	var out []RepairError
	if !rep.GatePassed {
		return []RepairError{{Column: -1, Kind: "gate", Message: "rejected by the safety gate: " + rep.GateReason}}
	}
	for _, u := range rep.Unknown {
		l, col := lineColumn(rep.Stub, u.Start)
		out = append(out, RepairError{Line: l, Column: col, Kind: "unknown-name", Name: u.Name, Suggestions: u.Suggestions,
			Message: fmt.Sprintf("unknown name `%s` (not in the library; likely invented)", u.Name)})
	}
	for _, m := range rep.Messages {
		if m.Severity != "error" {
			continue
		}
		e := RepairError{Line: m.Pos.Line, Column: m.Pos.Column, Kind: m.Category, Message: m.Data, Name: m.Name}
		if m.Class == Hallucination && m.Name != "" && c.cfg.Names != nil {
			e.Suggestions = c.cfg.Names.Similar(m.Name, 5)
		}
		out = append(out, e)
	}
	if rep.LeanFailed {
		out = append(out, RepairError{Column: -1, Kind: "lean-failed", Message: rep.LeanSkipped})
	}
	for _, l := range rep.Lints {
		line, col := lineColumn(rep.Stub, l.Start)
		out = append(out, RepairError{Line: line, Column: col, Kind: "lint", Message: l.Message, Suggestions: l.Suggestions})
	}
	return out
}

// retrieveFor asks retrieval about every invented name, once each.
func (c *Checker) retrieveFor(ctx context.Context, retrieve RetrieveFunc, errs []RepairError) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range errs {
		if e.Name == "" || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		got, err := retrieve(ctx, conceptOf(e.Name))
		if err != nil {
			continue
		}
		for _, g := range got {
			if !seen["\x00"+g] {
				seen["\x00"+g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// conceptOf turns an invented name into words for retrieval:
// Nat.isPrimeFactor → "Nat is prime factor".
func conceptOf(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '.' || r == '_':
			b.WriteByte(' ')
			prevLower = false
			continue
		case r >= 'A' && r <= 'Z' && prevLower:
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prevLower = r >= 'a' && r <= 'z'
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// extractLean returns the content of the first ```lean (or ```) block of a
// model answer, or the answer itself.
func extractLean(s string) string {
	i := strings.Index(s, "```")
	if i < 0 {
		return strings.TrimSpace(s)
	}
	rest := s[i+3:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[nl+1:]
	}
	if j := strings.Index(rest, "```"); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest)
}

// lineColumn converts a byte offset to a 1-based line and 0-based code-point
// column, as Lean reports positions.
func lineColumn(text string, off int) (int, int) {
	if off < 0 || off > len(text) {
		return 0, -1
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, len([]rune(text[start:off]))
}
