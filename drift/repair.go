package drift

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
)

// MaxRepairBudget caps Params.RepairBudget: repair attempts are model calls
// after the chosen candidate's check.
const MaxRepairBudget = 16

const repairSystem = `You are an expert in Lean 4 and its mathematical library. A theorem STATEMENT written for the informal statement below fails a check: Lean rejects it, it names constants the library lacks, a counterexample shows it false, or it leaves out a condition the informal statement states. Correct the statement so that it says exactly what the informal statement says and type-checks against the workspace's library; do not prove it. Replace invented names by existing ones (use the suggestions and the library declarations listed); against a counterexample or an omission, state the informal statement's hypotheses and conclusion as it writes them. Keep the theorem name, end with ":= by sorry", and answer with a single ` + "```lean" + ` code block containing only the theorem.`

// RepairInfo summarises the repair stage on the chosen candidate.
type RepairInfo struct {
	// Attempts is the number of repaired candidates checked.
	Attempts int `json:"attempts"`
	// Fixed tells whether an attempt passed every check that ran.
	Fixed bool `json:"fixed"`
	// Stop says why the stage ended: "passed", "budget", StopTimeBudget,
	// "model error: …", "cancelled". Unless it passed, the
	// best attempt may still have replaced the chosen candidate, when its
	// checks ranked it higher.
	Stop string `json:"stop"`
}

// StopTimeBudget is RepairInfo.Stop when the time left (Params.TimeBudget)
// would not cover another attempt as long as the last one.
const StopTimeBudget = "time budget"

// repairRequest is what the model gets to repair a stub (Aria's repair
// step): the stub, every problem the checks found with its position, library
// declarations retrieved for invented names, and the earlier failed
// attempts.
type repairRequest struct {
	statement, header, stub string
	attempt                 int
	problems                []leanrepl.Finding
	retrieved               []string
	previous                []string
	// counterexample is the falsifier's assignment when the stub is
	// refuted ("" otherwise, or when it has no variables).
	counterexample string
}

// needsRepair reports whether a usable candidate failed a check that repair
// can address: Lean's verdict, invented names, a type finding of the light
// elaborator, a counterexample or an omitted condition.
func needsRepair(r *leanrepl.Report) bool {
	return r != nil && r.GatePassed && (r.LeanRan && !r.LeanOK || len(r.Unknown) > 0 || len(r.Types) > 0 || r.Refuted() || len(r.CoverageFindings()) > 0)
}

// repair is the repair stage (Aria): while the chosen candidate fails, it
// asks the model for a corrected statement, quoting every finding of the
// last attempt's report (Lean's errors, unknown names, the counterexample,
// the omitted conditions, and any other code), normalises the answer and
// checks it again, until a candidate passes, the budget is spent or ctx
// ends. It returns the best attempt that the checks rank strictly above
// best (checkedBetter; nil when none) and an error only when ctx ended.
func (pl *Pipeline) repair(ctx context.Context, act *llm.Action, clk clock, res *Result, best *Candidate, header string, report progress.Func) (*Candidate, error) {
	budget := min(pl.p.RepairBudget, act.Remaining())
	info := &RepairInfo{Stop: "budget"}
	res.Repair = info
	stub, rep := best.Stub, best.Check
	var previous []string
	var kept *Candidate
	// last is how long the last attempt took, model call and check: the
	// time the next one needs from the budget; before the first, the
	// action's quickest model call (a repair's prompt is short, its answer
	// one statement).
	last := quickestCall(act.Usage())
	report(progress.Event{Stage: StageRepair, Message: "Repairing the best candidate…", Total: budget})
	for n := 1; n <= budget; n++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if n == 1 && !clk.allows(0) || n > 1 && !clk.allows(last) {
			// the first repair of a failed candidate starts while the
			// budget lasts (a stub that failed its checks is the worse
			// outcome); each later one only when it fits
			info.Stop = StopTimeBudget
			res.Warnings = append(res.Warnings, fmt.Sprintf("time budget of %s spent: %d of %d repair attempts made", clk.budget, n-1, budget))
			return kept, nil
		}
		began := clk.now()
		req := repairRequest{statement: res.Statement, header: header, stub: stub, attempt: n,
			problems: rep.Findings(), previous: append([]string(nil), previous...)}
		if rep.Refuted() && rep.Falsifier != nil {
			req.counterexample = rep.Falsifier.Counterexample
		}
		req.retrieved = pl.retrieveFor(ctx, req.problems)
		ans, err := act.Complete(ctx, llm.Request{Stage: llm.StageRepair, Messages: repairMessages(req), Temperature: 0.2, MaxTokens: stageMaxTokens[llm.StageRepair]})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			info.Stop = "model error: " + err.Error()
			return kept, nil
		}
		// An answer that does not normalise is checked as the model wrote
		// it, so that the safety gate's reason reaches the next attempt.
		next := strings.TrimSpace(ans.Text)
		if st, err := NormalizeStub(ans.Text, res.Name); err == nil {
			next = st.Text
		}
		previous = append(previous, stub)
		ev := progress.Event{Stage: StageRepair, Message: fmt.Sprintf("Checking repair %d/%d…", n, budget), Done: n, Total: budget}
		report(ev)
		rep, err = pl.checker.Check(ctx, pl.checkRequest(res, header, next, within(ev, report)))
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			info.Stop = "checker failed: " + err.Error()
			return kept, nil
		}
		stub = rep.Stub
		info.Attempts = n
		c := &Candidate{
			Stub:        stub,
			Statement:   stub,
			Notes:       []string{fmt.Sprintf("repaired from the best sampled candidate in %d attempt(s)", n)},
			WithContext: best.WithContext,
			Seeds:       best.Seeds,
			Agreement:   1,
			Check:       rep,
			opens:       best.opens,
		}
		if !rep.GatePassed {
			c.Error = "rejected by the safety gate: " + rep.GateReason
		}
		than := best
		if kept != nil {
			than = kept
		}
		if less, decided := checkedBetter(c, than, !pl.p.RankByForm); decided && less {
			kept = c
		}
		if rep.Passed() {
			info.Fixed, info.Stop = true, "passed"
			return kept, nil
		}
		last = clk.now().Sub(began)
	}
	return kept, nil
}

// quickestCall is the wall time of the quickest model call u made (0 when
// none: cache hits and failures do not count).
func quickestCall(u llm.Usage) time.Duration {
	var q time.Duration
	for _, c := range u.Log {
		d := time.Duration(c.Seconds * float64(time.Second))
		if !c.CacheHit && c.Error == "" && d > 0 && (q == 0 || d < q) {
			q = d
		}
	}
	return q
}

// retrieveFor asks retrieval about every invented name of problems, once
// each, and returns the declarations found ("name : signature").
func (pl *Pipeline) retrieveFor(ctx context.Context, problems []leanrepl.Finding) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, f := range problems {
		if f.Name == "" || seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		prem, err := pl.r.Retrieve(ctx, conceptOf(f.Name), nil, 3)
		if err != nil {
			continue
		}
		for _, p := range prem {
			if p.Decl == nil {
				continue
			}
			d := p.Decl.Name + " : " + oneLine(p.Decl.Signature)
			if !seen["\x00"+d] {
				seen["\x00"+d] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// conceptOf turns an invented name into words for retrieval:
// Nat.isPrimeFactor → "Nat is Prime Factor".
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

func repairMessages(req repairRequest) []llm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "## Informal statement\n\n%s\n\n", strings.TrimSpace(req.statement))
	if h := strings.TrimSpace(req.header); h != "" {
		fmt.Fprintf(&b, "## File header\n\n```lean\n%s\n```\n\n", h)
	}
	// The earlier attempts come before the failing statement, oldest
	// first: the next attempt's prompt then repeats this one's up to the
	// last of them, which a server with a prompt cache does not process
	// again.
	if len(req.previous) > 0 {
		b.WriteString("## Earlier attempts that also failed\n\n")
		for _, p := range req.previous {
			fmt.Fprintf(&b, "```lean\n%s\n```\n", p)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "## Failing statement (repair attempt %d)\n\n```lean\n%s\n```\n\n## Problems\n\n", req.attempt, req.stub)
	for _, f := range req.problems {
		kind := f.Code
		if f.Category != "" {
			kind = f.Category
		}
		msg := clip(oneLine(f.Message), maxDocChars)
		switch f.Code {
		case leanrepl.CodeRefuted:
			msg = refutedProblem(req.counterexample, req.statement)
		case leanrepl.CodeCoverage:
			msg += fmt.Sprintf(": the informal statement says it (%q) and no hypothesis or conclusion of the statement states it", clip(oneLine(req.statement), maxDocChars))
		}
		if f.Line > 0 {
			fmt.Fprintf(&b, "- line %d, column %d (%s): %s\n", f.Line, f.Column, kind, msg)
		} else {
			fmt.Fprintf(&b, "- (%s): %s\n", kind, msg)
		}
	}
	if len(req.retrieved) > 0 {
		b.WriteString("\n## Library declarations that may help\n\n")
		for _, r := range req.retrieved {
			fmt.Fprintf(&b, "- %s\n", clip(oneLine(r), maxSigChars))
		}
	}
	return []llm.Message{{Role: "system", Content: repairSystem}, {Role: "user", Content: b.String()}}
}

// refutedProblem quotes a counterexample for the repair prompt: "refuted:
// m = 0, n = 0 satisfy every hypothesis and falsify the conclusion — the
// informal statement says: …".
func refutedProblem(counterexample, statement string) string {
	said := fmt.Sprintf(" — the informal statement says: %q", clip(oneLine(statement), maxDocChars))
	switch {
	case counterexample == "":
		return "refuted: the statement has no variables and is false as stated" + said
	case strings.Contains(counterexample, ","):
		return "refuted: " + counterexample + " satisfy every hypothesis and falsify the conclusion" + said
	}
	return "refuted: " + counterexample + " satisfies every hypothesis and falsifies the conclusion" + said
}
