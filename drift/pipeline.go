// Package drift runs the DRIFT autoformalization pipeline — Decompose,
// Retrieve, Propose dependencies (DDR), Illustrate, Formalize, Sample and
// choose — plus the informalization of the user's own declarations. It knows
// nothing about LSP.
package drift

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// Retriever is what the pipeline needs from the retrieval engine (satisfied
// by *retrieval.Engine).
type Retriever interface {
	Retrieve(ctx context.Context, statement string, subs []retrieval.SubQuery, k int) ([]retrieval.Premise, error)
	Illustrate(ctx context.Context, statement string, premises []string, m int) (retrieval.Illustration, error)
	Lookup(name string) (*library.Decl, bool)
}

// Checker checks one stub (safety gate, unknown names, Lean when present); an
// adapter over the leanrepl checker implements it.
type Checker interface {
	Check(ctx context.Context, header, stub string) (*CheckResult, error)
}

// CheckResult is a checker's verdict on one candidate.
type CheckResult struct {
	// GateOK is false when the safety gate rejected the stub (GateReason says
	// why); such a candidate is never chosen.
	GateOK     bool   `json:"gate_ok"`
	GateReason string `json:"gate_reason,omitempty"`
	// Unknown lists identifiers that resolve to nothing (likely hallucinated).
	Unknown []string `json:"unknown,omitempty"`
	// Suggestions maps unknown names to library names probably meant.
	Suggestions map[string][]string `json:"suggestions,omitempty"`
	// Lints are warnings that do not affect ranking.
	Lints []string `json:"lints,omitempty"`
	// LeanRan tells whether Lean checked the stub; LeanOK is its verdict and
	// LeanSkipped why it did not run.
	LeanRan     bool     `json:"lean_ran"`
	LeanOK      bool     `json:"lean_ok"`
	LeanSkipped string   `json:"lean_skipped,omitempty"`
	Messages    []string `json:"messages,omitempty"`
}

// Params are the pipeline's knobs; zero values take the defaults.
type Params struct {
	// K is the number of premises retrieved for the whole statement when
	// decomposition yields nothing (default 5).
	K int
	// M is the illustrative-theorem budget (default 3).
	M int
	// Samples is the number of candidates drawn with retrieved context
	// (default 4).
	Samples int
	// NoContextSamples is the number of extra candidates drawn without
	// retrieved context when the budget allows (adaptive retrieval; default 1,
	// negative disables).
	NoContextSamples int
	// Temperature for sampling candidates (default 0.7).
	Temperature float64
	// PerSubQuery is the number of premises kept per sub-query (default 1,
	// DRIFT's top-1; more trades precision for recall).
	PerSubQuery int
	// MaxSubQueries bounds the sub-queries kept from Decompose (default 12).
	MaxSubQueries int
	// NoPropose disables the direct-dependency stage.
	NoPropose bool
	// NoDecompose skips Decompose: premises are retrieved with the whole
	// statement (top K), as in DRIFT's ablation.
	NoDecompose bool
	// NoContext formalizes without retrieved context: no Decompose, Propose,
	// retrieval or illustration, only draws without context.
	NoContext bool
	// NoNameRepair keeps candidates with unknown names as drawn instead of
	// replacing the names by the name check's suggestions (model-free
	// repair).
	NoNameRepair bool
	// RepairBudget is the number of repair attempts (Aria, leanrepl's loop)
	// on the chosen candidate when it fails Lean or names an unknown
	// constant; 0 disables repair (default), at most leanrepl.MaxRepairBudget.
	RepairBudget int
	// CallBudget bounds the model calls of one Formalize (default MaxCalls();
	// the client's Config.CallBudget, DRIFT_LLM_BUDGET, caps it further).
	CallBudget int
}

func (p Params) withDefaults() Params {
	if p.K <= 0 {
		p.K = 5
	}
	if p.M <= 0 {
		p.M = 3
	}
	if p.PerSubQuery <= 0 {
		p.PerSubQuery = 1
	}
	if p.Samples <= 0 {
		p.Samples = 4
	}
	if p.NoContextSamples == 0 {
		p.NoContextSamples = 1
	}
	if p.NoContextSamples < 0 {
		p.NoContextSamples = 0
	}
	if p.Temperature <= 0 {
		p.Temperature = 0.7
	}
	if p.MaxSubQueries <= 0 {
		p.MaxSubQueries = 12
	}
	if p.RepairBudget > leanrepl.MaxRepairBudget {
		p.RepairBudget = leanrepl.MaxRepairBudget
	}
	if p.CallBudget <= 0 {
		p.CallBudget = p.MaxCalls()
	}
	return p
}

// MaxCalls is the number of model calls one Formalize makes at most with
// these parameters: one Decompose, one Propose, Samples with context,
// NoContextSamples without and RepairBudget repairs (each call may be retried
// on 429/5xx by the client, which counts as one call).
func (p Params) MaxCalls() int {
	if p.NoContext {
		return p.Samples + max(p.RepairBudget, 0)
	}
	n := p.Samples + max(p.NoContextSamples, 0) + max(p.RepairBudget, 0)
	if !p.NoDecompose {
		n++
	}
	if !p.NoPropose {
		n++
	}
	return n
}

// Pipeline runs DRIFT over one workspace.
type Pipeline struct {
	r       Retriever
	names   Names
	client  *llm.Client
	checker Checker
	p       Params
}

// New returns a pipeline over a retrieval engine, whose current name channel
// checks proposed names. client may be nil (only FindPremises works then);
// checker may be nil (then candidates get the safety gate and the
// unknown-name check, without Lean).
func New(engine *retrieval.Engine, client *llm.Client, checker Checker, p Params) *Pipeline {
	return NewWith(engine, engineNames{engine}, client, checker, p)
}

// NewWith returns a pipeline over any retriever and name channel. A nil
// checker means leanrepl's checker without Lean: the safety gate and, when
// names also resolves suggestions (leanrepl.Names), the unknown-name check.
func NewWith(r Retriever, names Names, client *llm.Client, checker Checker, p Params) *Pipeline {
	if checker == nil {
		checker = defaultChecker(names)
	}
	return &Pipeline{r: r, names: names, client: client, checker: checker, p: p.withDefaults()}
}

// engineNames reads the engine's current name index on every call, so that
// live updates are seen; before the index is ready every name is missing.
type engineNames struct{ e *retrieval.Engine }

// Exact reports whether name is a full name in the current index.
func (n engineNames) Exact(name string) bool {
	ix := n.e.Names()
	return ix != nil && ix.Exact(name)
}

// Suffix returns the names equal to s or ending in "."+s.
func (n engineNames) Suffix(s string) []string {
	if ix := n.e.Names(); ix != nil {
		return ix.Suffix(s)
	}
	return nil
}

// Partial returns up to limit names containing s.
func (n engineNames) Partial(s string, limit int) []string {
	if ix := n.e.Names(); ix != nil {
		return ix.Partial(s, limit)
	}
	return nil
}

// Similar suggests up to limit existing names for a misspelt one.
func (n engineNames) Similar(name string, limit int) []string {
	if ix := n.e.Names(); ix != nil {
		return ix.Similar(name, limit)
	}
	return nil
}

// Params returns the effective parameters.
func (pl *Pipeline) Params() Params { return pl.p }

// Stage names reported in events.
const (
	StageDecompose  = "decompose"
	StageRetrieve   = "retrieve"
	StagePropose    = "propose"
	StageIllustrate = "illustrate"
	StageFormalize  = "formalize"
	StageCheck      = "check"
	StageChoose     = "choose"
	StageRepair     = "repair"
	// StageModel reports the start of a model server drift-lsp runs itself.
	StageModel = "model"
)

// Event is one progress report.
type Event struct {
	Stage   string
	Message string
	Done    int
	Total   int
}

// Request is one formalization request.
type Request struct {
	// Statement is the informal statement.
	Statement string
	// Name is the theorem name to use; empty lets the model choose.
	Name string
	// Header is the file's import/open lines, passed to the checker.
	Header string
}

// Candidate is one sampled formalization.
type Candidate struct {
	Stub      string   `json:"stub,omitempty"`
	Statement string   `json:"-"`
	Notes     []string `json:"notes,omitempty"`
	// WithContext tells whether the prompt carried premises and theorems.
	WithContext bool `json:"with_context"`
	// Seeds lists the samples that produced this candidate.
	Seeds []int `json:"seeds"`
	// Agreement is the number of samples that produced the same statement.
	Agreement int          `json:"agreement"`
	Check     *CheckResult `json:"check,omitempty"`
	// Error says why the sample is unusable (call failure or normalisation).
	Error string `json:"error,omitempty"`
	// Repaired is true when unknown names were replaced by the name check's
	// suggestions (see RepairNames; Notes lists the replacements).
	Repaired bool `json:"repaired,omitempty"`
	opens []string
}

// Result is the outcome of one Formalize, with every stage's detail.
type Result struct {
	Statement  string               `json:"statement"`
	Name       string               `json:"name"`
	SubQueries []retrieval.SubQuery `json:"sub_queries"`
	// Premises are the retrieved premises (SubQuery says which sub-query
	// found each) followed by verified proposed names (Source "propose").
	Premises          []retrieval.Premise    `json:"-"`
	Proposed          []ProposedName         `json:"proposed"`
	HallucinationRate float64                `json:"hallucination_rate"`
	Illustration      retrieval.Illustration `json:"-"`
	// Candidates are ranked best first; Candidates[0] is chosen.
	Candidates []*Candidate `json:"candidates"`
	// Stub is the chosen `theorem … := by sorry`.
	Stub string `json:"stub"`
	// Opens are `open` lines the chosen candidate needs in the header.
	Opens []string `json:"opens,omitempty"`
	// Repair reports the repair loop when it ran.
	Repair *RepairInfo `json:"repair,omitempty"`
	// Passed is true when the chosen stub passed every check that ran (the
	// safety gate, the name check, Lean when it ran); Verdict says so in
	// words, or which check failed. A stub that did not pass is only a
	// failed attempt: callers must say so (the CLI exits 1).
	Passed  bool   `json:"passed"`
	Verdict string `json:"verdict"`
	// NameRepairs counts candidates whose unknown names were replaced by
	// the name check's suggestions.
	NameRepairs int `json:"name_repairs"`
	// Warnings record degraded stages (e.g. Decompose gave no \boxed{}).
	Warnings []string  `json:"warnings,omitempty"`
	Usage    llm.Usage `json:"usage"`
	// FormalizePrompt is the user message of the with-context Formalize
	// prompt, for inspection.
	FormalizePrompt string `json:"-"`
}

// MaxStatementBytes bounds the informal statement of one request.
const MaxStatementBytes = 32 << 10

// RepairInfo summarises a run of the repair loop on the chosen candidate.
type RepairInfo struct {
	// Attempts is the number of repaired candidates checked.
	Attempts int `json:"attempts"`
	// Fixed tells whether the last attempt passed every check that ran.
	Fixed bool `json:"fixed"`
	// Stop is leanrepl's reason for stopping ("passed", "budget", …).
	Stop string `json:"stop"`
}

// ErrNoCandidate means no sampled candidate survived normalisation and the
// gate; the error text lists why each failed.
var ErrNoCandidate = errors.New("drift: no usable candidate")

// FindPremises retrieves the top k premises for statement and m illustrative
// theorems, without a model.
func (pl *Pipeline) FindPremises(ctx context.Context, statement string, k, m int) ([]retrieval.Premise, retrieval.Illustration, error) {
	prem, err := pl.r.Retrieve(ctx, statement, nil, k)
	if err != nil {
		return nil, retrieval.Illustration{}, err
	}
	ill, err := pl.r.Illustrate(ctx, statement, premiseNames(prem), m)
	if err != nil {
		return nil, retrieval.Illustration{}, err
	}
	return prem, ill, nil
}

func premiseNames(ps []retrieval.Premise) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if p.Decl != nil {
			out = append(out, p.Decl.Name)
		}
	}
	return out
}

// Formalize runs the whole pipeline for one statement. On error the result is
// nil: nothing is half-applied. progress may be nil.
func (pl *Pipeline) Formalize(ctx context.Context, req Request, progress func(Event)) (*Result, error) {
	if pl.client == nil {
		return nil, llm.ErrNotConfigured
	}
	if progress == nil {
		progress = func(Event) {}
	}
	statement := strings.TrimSpace(req.Statement)
	if statement == "" {
		return nil, errors.New("drift: empty statement")
	}
	if len(statement) > MaxStatementBytes {
		return nil, fmt.Errorf("drift: the statement is %d bytes, more than the limit of %d", len(statement), MaxStatementBytes)
	}
	budget := pl.p.CallBudget
	if cb := pl.client.Config().CallBudget; cb > 0 && cb < budget {
		budget = cb
	}
	if err := pl.client.Start(ctx, func(msg string) { progress(Event{Stage: StageModel, Message: msg}) }); err != nil {
		return nil, err
	}
	act := pl.client.NewAction(budget)
	res := &Result{Statement: statement, Name: req.Name}
	warn := func(format string, args ...any) { res.Warnings = append(res.Warnings, fmt.Sprintf(format, args...)) }
	ask := func(stage string, msgs []llm.Message, schema *llm.Schema, temp float64, seed *int) (*llm.Response, error) {
		r := llm.Request{Stage: stage, Messages: msgs, Temperature: temp, Seed: seed}
		if pl.client.Structured() {
			r.Schema = schema
		}
		return act.Complete(ctx, r)
	}
	if pl.p.NoContext {
		return pl.formalizeFrom(ctx, act, res, req, nil, progress, ask)
	}

	// 1. Decompose (unless skipped: then retrieval uses the whole statement).
	if !pl.p.NoDecompose {
		progress(Event{Stage: StageDecompose, Message: "Decomposing…"})
		ans, err := ask(llm.StageDecompose, decomposeMessages(statement, pl.client.Structured()), decomposeSchema, 0.2, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			warn("decompose failed (%v); retrieving with the whole statement", err)
		} else {
			subs, dropped, perr := ParseDecomposition(ans.Text)
			if perr != nil {
				warn("decompose: %v; retrieving with the whole statement", perr)
			}
			if dropped > 0 {
				warn("decompose: dropped %d unbalanced \\boxed{", dropped)
			}
			if len(subs) > pl.p.MaxSubQueries {
				warn("decompose: kept the first %d of %d sub-queries", pl.p.MaxSubQueries, len(subs))
				subs = subs[:pl.p.MaxSubQueries]
			}
			res.SubQueries = subs
		}
	}

	// 2. Retrieve.
	if len(res.SubQueries) > 0 {
		progress(Event{Stage: StageRetrieve, Message: fmt.Sprintf("Retrieving %d sub-queries…", len(res.SubQueries)), Total: len(res.SubQueries)})
	} else {
		progress(Event{Stage: StageRetrieve, Message: "Retrieving premises…"})
	}
	perQuery := pl.p.K
	if len(res.SubQueries) > 0 {
		perQuery = pl.p.PerSubQuery
	}
	prem, err := pl.r.Retrieve(ctx, statement, res.SubQueries, perQuery)
	if err != nil {
		return nil, fmt.Errorf("drift: retrieve: %w", err)
	}
	res.Premises = prem
	have := map[string]bool{}
	for _, p := range prem {
		if p.Decl != nil {
			have[p.Decl.Name] = true
		}
	}

	// 3. Propose dependencies directly (DDR).
	if !pl.p.NoPropose && pl.names != nil {
		progress(Event{Stage: StagePropose, Message: "Asking the model for dependencies…"})
		ans, err := ask(llm.StagePropose, proposeMessages(statement), proposeSchema, 0.2, nil)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			warn("propose failed: %v", err)
		default:
			names, perr := ParseDependencies(ans.Text)
			if perr != nil {
				warn("propose: %v", perr)
			}
			res.Proposed, res.HallucinationRate = CheckNames(pl.names, names)
			for _, pn := range res.Proposed {
				for _, n := range pn.Resolved {
					if have[n] {
						continue
					}
					d, ok := pl.r.Lookup(n)
					if !ok {
						continue
					}
					have[n] = true
					res.Premises = append(res.Premises, retrieval.Premise{Hit: retrieval.Hit{Decl: d}, SubQuery: -1, Source: "propose"})
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// 4. Illustrate over the union.
	progress(Event{Stage: StageIllustrate, Message: fmt.Sprintf("Finding illustrative theorems for %d premises…", len(res.Premises))})
	ill, err := pl.r.Illustrate(ctx, statement, premiseNames(res.Premises), pl.p.M)
	if err != nil {
		return nil, fmt.Errorf("drift: illustrate: %w", err)
	}
	res.Illustration = ill
	var decls []*library.Decl
	for _, p := range res.Premises {
		if p.Decl != nil {
			decls = append(decls, p.Decl)
		}
	}
	return pl.formalizeFrom(ctx, act, res, req, decls, progress, ask)
}

// formalizeFrom runs stages 5–6 and the repairs: sample, normalise, check,
// repair names, choose, repair with the model, and the verdict. With no
// premises and no illustrative theorems every draw is without context.
func (pl *Pipeline) formalizeFrom(ctx context.Context, act *llm.Action, res *Result, req Request, decls []*library.Decl,
	progress func(Event), ask func(string, []llm.Message, *llm.Schema, float64, *int) (*llm.Response, error)) (*Result, error) {
	statement, ill := res.Statement, res.Illustration
	warn := func(format string, args ...any) { res.Warnings = append(res.Warnings, fmt.Sprintf(format, args...)) }
	name := req.Name
	structured := pl.client.Structured()
	withCtx := formalizeMessages(statement, nameOrAsk(name), decls, ill.Theorems, structured)
	res.FormalizePrompt = withCtx[len(withCtx)-1].Content
	type draw struct {
		msgs    []llm.Message
		withCtx bool
		seed    int
	}
	hasCtx := len(decls) > 0 || len(ill.Theorems) > 0
	var draws []draw
	for i := 0; i < pl.p.Samples; i++ {
		draws = append(draws, draw{withCtx, hasCtx, i + 1})
	}
	if hasCtx {
		extra := min(pl.p.NoContextSamples, act.Remaining()-len(draws))
		noCtx := formalizeMessages(statement, nameOrAsk(name), nil, nil, structured)
		for i := 0; i < extra; i++ {
			draws = append(draws, draw{noCtx, false, 101 + i})
		}
	}
	if n := act.Remaining(); len(draws) > n {
		warn("call budget allows %d of %d samples", max(n, 0), len(draws))
		draws = draws[:max(n, 0)]
	}
	type sample struct {
		stub *Stub
		err  error
	}
	samples := make([]sample, len(draws))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	progress(Event{Stage: StageFormalize, Message: fmt.Sprintf("Formalizing: drawing %d candidates…", len(draws)), Total: len(draws)})
	for i, d := range draws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seed := d.seed
			ans, err := ask(llm.StageFormalize, d.msgs, formalizeSchema, pl.p.Temperature, &seed)
			if err == nil {
				var st *Stub
				st, err = ParseFormalizeAnswer(ans.Text, name)
				samples[i] = sample{st, err}
			} else {
				samples[i] = sample{nil, err}
			}
			mu.Lock()
			done++
			progress(Event{Stage: StageFormalize, Message: fmt.Sprintf("Formalizing: candidate %d/%d", done, len(draws)), Done: done, Total: len(draws)})
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Deduplicate by statement, counting agreement.
	byStmt := map[string]*Candidate{}
	for i, s := range samples {
		d := draws[i]
		if s.err != nil {
			res.Candidates = append(res.Candidates, &Candidate{WithContext: d.withCtx, Seeds: []int{d.seed}, Error: s.err.Error()})
			continue
		}
		key := s.stub.Statement
		if c, ok := byStmt[key]; ok {
			c.Agreement++
			c.Seeds = append(c.Seeds, d.seed)
			c.WithContext = c.WithContext || d.withCtx
			continue
		}
		c := &Candidate{Stub: s.stub.Text, Statement: key, Notes: s.stub.Notes, WithContext: d.withCtx, Seeds: []int{d.seed}, Agreement: 1, opens: s.stub.Opens}
		byStmt[key] = c
		res.Candidates = append(res.Candidates, c)
	}

	// Check each unique candidate.
	var valid []*Candidate
	for _, c := range res.Candidates {
		if c.Error == "" {
			valid = append(valid, c)
		}
	}
	if pl.checker != nil {
		for i, c := range valid {
			progress(Event{Stage: StageCheck, Message: fmt.Sprintf("Checking candidate %d/%d…", i+1, len(valid)), Done: i, Total: len(valid)})
			header := req.Header
			if len(c.opens) > 0 {
				header = strings.TrimRight(header, "\n") + "\n" + strings.Join(c.opens, "\n")
			}
			cr, err := pl.checker.Check(ctx, strings.TrimSpace(header), c.Stub)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				c.Check = &CheckResult{GateOK: true, LeanSkipped: checkerFailed + err.Error()}
				continue
			}
			c.Check = cr
			if !cr.GateOK {
				c.Error = "rejected by the safety gate: " + cr.GateReason
				continue
			}
			if !pl.p.NoNameRepair && len(cr.Unknown) > 0 {
				pl.repairNames(ctx, c, header)
				if c.Repaired {
					res.NameRepairs++
				}
			}
		}
	}

	// Rank and choose.
	progress(Event{Stage: StageChoose, Message: "Choosing the best candidate…"})
	sort.SliceStable(res.Candidates, func(i, j int) bool { return better(res.Candidates[i], res.Candidates[j]) })
	res.Usage = act.Usage()
	if len(res.Candidates) == 0 || res.Candidates[0].Error != "" {
		var why []string
		for _, c := range res.Candidates {
			why = append(why, c.Error)
		}
		return nil, fmt.Errorf("%w: %s", ErrNoCandidate, strings.Join(uniq(why), "; "))
	}
	best := res.Candidates[0]
	if lc, ok := pl.checker.(leanChecker); ok && pl.p.RepairBudget > 0 && needsRepair(best.Check) && act.Remaining() > 0 {
		fixed, err := pl.repair(ctx, lc, act, res, best, req.Header, progress)
		if err != nil {
			return nil, err
		}
		if fixed != nil {
			res.Candidates = append([]*Candidate{fixed}, res.Candidates...)
			best = fixed
		}
		res.Usage = act.Usage()
	}
	res.Stub = best.Stub
	res.Opens = best.opens
	res.Passed, res.Verdict = verdict(best.Check)
	if res.Name == "" {
		st, _ := NormalizeStub("```lean\n"+best.Stub+"\n```", "")
		if st != nil {
			res.Name = st.Name
		}
	}
	return res, nil
}

// repairNames replaces c's unknown names by the name check's suggestions
// and keeps the result when it passes the gate with fewer unknown names.
func (pl *Pipeline) repairNames(ctx context.Context, c *Candidate, header string) {
	fixed, notes := RepairNames(c.Stub, c.Check.Unknown, c.Check.Suggestions)
	if len(notes) == 0 {
		return
	}
	cr, err := pl.checker.Check(ctx, header, fixed)
	if err != nil || !cr.GateOK || len(cr.Unknown) >= len(c.Check.Unknown) {
		return
	}
	c.Stub, c.Check, c.Repaired = fixed, cr, true
	c.Notes = append(c.Notes, notes...)
}

// checkerFailed prefixes CheckResult.LeanSkipped when the checker itself
// failed on a candidate.
const checkerFailed = "checker failed: "

// verdict says whether a chosen candidate passed every check that ran, and
// in words what passed or which check failed.
func verdict(c *CheckResult) (bool, string) {
	switch {
	case c == nil:
		return false, "not checked"
	case strings.HasPrefix(c.LeanSkipped, checkerFailed):
		return false, "not checked: " + c.LeanSkipped
	case !c.GateOK:
		return false, "rejected by the safety gate: " + c.GateReason
	case len(c.Unknown) > 0:
		var parts []string
		for _, u := range c.Unknown {
			if s := c.Suggestions[u]; len(s) > 0 {
				u += " (did you mean " + strings.Join(s, ", ") + "?)"
			}
			parts = append(parts, u)
		}
		return false, "failed the name check: unknown " + strings.Join(parts, ", ")
	case c.LeanRan && !c.LeanOK:
		msg := "Lean rejected it"
		if len(c.Messages) > 0 {
			msg += ": " + c.Messages[0]
		}
		return false, msg
	case c.LeanRan:
		return true, "passed every check: safety gate, name check, Lean"
	}
	why := c.LeanSkipped
	if why == "" {
		why = "no Lean"
	}
	return true, "passed the safety gate and the name check; Lean not run (" + why + ")"
}

// needsRepair reports whether a usable candidate failed a check that repair
// can address: Lean's verdict or invented names.
func needsRepair(c *CheckResult) bool {
	return c != nil && c.GateOK && (c.LeanRan && !c.LeanOK || len(c.Unknown) > 0)
}

// repair runs leanrepl's repair loop on best; it returns the repaired
// candidate when the loop fixed it, and an error only when ctx ended.
func (pl *Pipeline) repair(ctx context.Context, lc leanChecker, act *llm.Action, res *Result, best *Candidate, header string, progress func(Event)) (*Candidate, error) {
	budget := min(pl.p.RepairBudget, act.Remaining())
	name := res.Name
	if name == "" {
		if st, err := NormalizeStub("```lean\n"+best.Stub+"\n```", ""); err == nil {
			name = st.Name
		}
	}
	if len(best.opens) > 0 {
		header = strings.TrimRight(header, "\n") + "\n" + strings.Join(best.opens, "\n")
	}
	progress(Event{Stage: StageRepair, Message: "Repairing the best candidate…", Total: budget})
	rr, err := lc.c.Repair(ctx, leanrepl.CheckRequest{Header: strings.TrimSpace(header), Stub: best.Stub}, leanrepl.RepairConfig{
		Model:  repairModel{act: act, statement: res.Statement, name: name},
		Budget: budget,
		Retrieve: func(ctx context.Context, concept string) ([]string, error) {
			prem, err := pl.r.Retrieve(ctx, concept, nil, 3)
			var out []string
			for _, p := range prem {
				out = append(out, p.Decl.Name+" : "+oneLine(p.Decl.Signature))
			}
			return out, err
		},
		OnAttempt: func(a leanrepl.Attempt) {
			if a.N > 0 {
				progress(Event{Stage: StageRepair, Message: fmt.Sprintf("Checking repair %d/%d…", a.N, budget), Done: a.N, Total: budget})
			}
		},
	})
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	res.Repair = &RepairInfo{Attempts: len(rr.Attempts) - 1, Fixed: rr.Fixed, Stop: rr.Stop}
	if !rr.Fixed || len(rr.Attempts) < 2 {
		return nil, nil
	}
	last := rr.Attempts[len(rr.Attempts)-1]
	return &Candidate{
		Stub:        last.Stub,
		Statement:   last.Stub,
		Notes:       []string{fmt.Sprintf("repaired from the best sampled candidate in %d attempt(s)", last.N)},
		WithContext: best.WithContext,
		Seeds:       best.Seeds,
		Agreement:   1,
		Check:       resultOf(last.Report),
		opens:       best.opens,
	}, nil
}

func nameOrAsk(name string) string {
	if name == "" {
		return "(choose a short descriptive snake_case name)"
	}
	return name
}

// better orders candidates: usable first; then Lean accepted, Lean not run,
// Lean rejected; then fewer unknown names; then more agreement; then drawn
// with context.
func better(a, b *Candidate) bool {
	if (a.Error == "") != (b.Error == "") {
		return a.Error == ""
	}
	if ra, rb := leanRank(a.Check), leanRank(b.Check); ra != rb {
		return ra < rb
	}
	if ua, ub := unknownCount(a.Check), unknownCount(b.Check); ua != ub {
		return ua < ub
	}
	if a.Agreement != b.Agreement {
		return a.Agreement > b.Agreement
	}
	return a.WithContext && !b.WithContext
}

func leanRank(c *CheckResult) int {
	switch {
	case c == nil || !c.LeanRan:
		return 1
	case c.LeanOK:
		return 0
	}
	return 2
}

func unknownCount(c *CheckResult) int {
	if c == nil {
		return 0
	}
	return len(c.Unknown)
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
