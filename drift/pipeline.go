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
	"time"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// Retriever is what the pipeline needs from the retrieval engine (satisfied
// by *retrieval.Engine).
type Retriever interface {
	Retrieve(ctx context.Context, statement string, subs []retrieval.SubQuery, k int) ([]retrieval.Premise, error)
	Illustrate(ctx context.Context, statement string, premises []string, m int) (retrieval.Illustration, error)
	Lookup(name string) (*library.Decl, bool)
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
	// giving them the library's namespaced names (RepairNames, no model).
	NoNameRepair bool
	// NoConditionRepair keeps candidates that omit a numeral comparison of
	// the statement as drawn instead of adding it as a hypothesis
	// (AddOmittedConditions, no model).
	NoConditionRepair bool
	// RepairBudget is the number of repair attempts (Aria's loop, the
	// repair stage) on the chosen candidate when it fails a check (Lean, an
	// unknown constant, a counterexample, an omitted condition); 0 disables
	// repair (the zero Params'; app.PipelineParams gives the settings'
	// pipeline.repairBudget, 4), at most MaxRepairBudget.
	RepairBudget int
	// NoBackTranslate skips the back-translation of candidates (Aria's
	// semantic check: one call per surviving candidate).
	NoBackTranslate bool
	// RankByForm ranks candidates by the checks of form only (Lean, unknown
	// names, agreement), as before the checks of meaning: the
	// benchmark's "before".
	RankByForm bool
	// CallBudget bounds the model calls of one Formalize (default MaxCalls();
	// the client's Config.CallBudget, DRIFT_LLM_BUDGET, caps it further).
	CallBudget int
	// TimeBudget bounds the wall time of one Formalize, counted from the
	// moment the model is ready, for the calls the choice can do without:
	// the back-translation starts only while time is left; a repair
	// attempt only when the time left covers one more attempt as long as
	// the last one took; and (with a client that calls one at a time) the
	// draw without context, after draws with context that gave a usable
	// candidate, only when the time left covers a third of what they
	// took. Decompose, Propose and the draws with context always run, so
	// an action can outlast it by the calls it had started. 0: no bound
	// (the zero Params'; app.PipelineParams gives the settings'
	// pipeline.timeBudgetSeconds, settings.DefaultTimeBudgetSeconds).
	TimeBudget time.Duration
}

func (p Params) withDefaults() Params {
	if p.K <= 0 {
		p.K = settings.DefaultK
	}
	if p.M <= 0 {
		p.M = settings.DefaultM
	}
	if p.PerSubQuery <= 0 {
		p.PerSubQuery = 1
	}
	if p.Samples <= 0 {
		p.Samples = settings.DefaultSamples
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
	if p.RepairBudget > MaxRepairBudget {
		p.RepairBudget = MaxRepairBudget
	}
	if p.CallBudget <= 0 {
		p.CallBudget = p.MaxCalls()
	}
	return p
}

// MaxCalls is the number of model calls one Formalize makes at most with
// these parameters: one Decompose, one Propose, Samples with context,
// NoContextSamples without, a back-translation per candidate and
// RepairBudget repairs (each call may be retried on 429/5xx by the client,
// which counts as one call).
func (p Params) MaxCalls() int {
	draws := p.Samples
	if !p.NoContext {
		draws += max(p.NoContextSamples, 0)
	}
	n := draws + max(p.RepairBudget, 0)
	if !p.NoBackTranslate {
		n += draws
	}
	if p.NoContext {
		return n
	}
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
	names   leanrepl.Names
	client  *llm.Client
	checker Checker
	p       Params
	// now is the clock of Params.TimeBudget (time.Now; tests set it).
	now func() time.Time
}

// clock measures one action's time against Params.TimeBudget.
type clock struct {
	start  time.Time
	budget time.Duration
	now    func() time.Time
}

// allows reports whether work expected to take est still ends within the
// budget (always, without one).
func (c clock) allows(est time.Duration) bool {
	return c.budget <= 0 || c.now().Sub(c.start)+est <= c.budget
}

// New returns a pipeline over a retrieval engine, whose current name channel
// (LiveNames) checks proposed names. client may be nil (only FindPremises
// works then); checker may be nil (then candidates get the safety gate and
// the unknown-name check, without Lean).
func New(engine *retrieval.Engine, client *llm.Client, checker Checker, p Params) *Pipeline {
	return NewWith(engine, LiveNames(engine), client, checker, p)
}

// NewWith returns a pipeline over any retriever and name channel (names may
// be nil: then proposed names are not checked). A nil checker means
// leanrepl's checker without Lean: the safety gate and, with names, the
// unknown-name check.
func NewWith(r Retriever, names leanrepl.Names, client *llm.Client, checker Checker, p Params) *Pipeline {
	if checker == nil {
		checker = defaultChecker(names)
	}
	return &Pipeline{r: r, names: names, client: client, checker: checker, p: p.withDefaults(), now: time.Now}
}

// Params returns the effective parameters.
func (pl *Pipeline) Params() Params { return pl.p }

// Stage names reported in events; the stages that call the model are
// llm's stage names (a model may be configured per stage).
const (
	StageDecompose  = llm.StageDecompose
	StageRetrieve   = "retrieve"
	StagePropose    = llm.StagePropose
	StageIllustrate = "illustrate"
	StageFormalize  = llm.StageFormalize
	StageCheck      = "check"
	StageChoose     = "choose"
	StageRepair     = llm.StageRepair
	// StageBackTranslate restates the candidates in words.
	StageBackTranslate = llm.StageBackTranslate
	// StageModel reports the start of a model server drift-lsp runs itself.
	StageModel = "model"
)

// Request is one formalization request.
type Request struct {
	// Statement is the informal statement.
	Statement string
	// Name is the theorem name to use as given (a placeholder's, --name);
	// empty lets the statement's "name: foo" or the model choose.
	Name string
	// Header is the file's import/open lines, passed to the checker.
	Header string
	// Taken are names the chosen name must differ from (DeclaredNames of
	// the file the stub goes into); they do not constrain Name.
	Taken []string
	// Context are declarations the statement builds on that retrieval
	// may not find (a blueprint node's formalized dependencies: stubs of
	// the same run, not yet in the index): they lead the premises, Source
	// "context". Their names must resolve for the checks: declare them in
	// Header when they are not in the library.
	Context []*library.Decl
	// Found, when set, hears the premises and illustrative theorems while
	// the model works: first those retrieved with the whole statement, at
	// once, then the context the candidates are drawn with. It is not
	// called after Formalize returns.
	Found func(Found)
}

// Candidate is one sampled formalization.
type Candidate struct {
	// Stub is the normalised `theorem … := by sorry` ("" when unusable);
	// Statement its signature, whitespace-collapsed (the deduplication key).
	Stub      string
	Statement string
	// Notes say what normalisation changed.
	Notes []string
	// WithContext tells whether the prompt carried premises and theorems.
	WithContext bool
	// Seeds lists the samples that produced this candidate.
	Seeds []int
	// Agreement is the number of samples that produced the same statement.
	Agreement int
	// Check is the checker's report on Stub (nil for an unusable sample).
	Check *leanrepl.Report
	// Error says why the sample is unusable (call failure or normalisation).
	Error string
	// Repaired is true when unknown names were given the library's
	// namespaced names (RepairNames; Notes lists the replacements).
	Repaired bool
	opens    []string
}

// Result is the outcome of one Formalize, with every stage's detail.
type Result struct {
	Statement  string
	Name       string
	SubQueries []retrieval.SubQuery
	// Premises are the retrieved premises (SubQuery says which sub-query
	// found each) followed by verified proposed names (Source "propose").
	Premises          []retrieval.Premise
	Proposed          []ProposedName
	HallucinationRate float64
	Illustration      retrieval.Illustration
	// Candidates are ranked best first; Candidates[0] is chosen.
	Candidates []*Candidate
	// Stub is the chosen `theorem … := by sorry`, named as decided (Name).
	Stub string
	// Report is the checker's report on Stub, positions in Stub: what the
	// editor shows, without checking the stub again.
	Report *leanrepl.Report
	// Opens are `open` lines the chosen candidate needs in the header.
	Opens []string
	// Repair reports the repair loop when it ran.
	Repair *RepairInfo
	// NameRepairs counts candidates whose unknown names were given the
	// library's namespaced names (no model involved).
	NameRepairs int
	// TypeRepairs counts candidates whose binders were retyped to the
	// numeric type a signature demands (elab.Retype) with fewer type
	// findings after.
	TypeRepairs int
	// ConditionRepairs counts candidates given a hypothesis their
	// statement's omitted comparison asks for (AddOmittedConditions; no
	// model involved).
	ConditionRepairs int
	// Warnings record degraded stages (e.g. Decompose gave no \boxed{}).
	Warnings []string
	Usage    llm.Usage
	// FormalizePrompt is the user message of the with-context Formalize
	// prompt, for inspection.
	FormalizePrompt string
	// Grammar reports the constrained decoding of Formalize (nil when the
	// client sends no grammar); see GrammarReport.NotApplied.
	Grammar *GrammarReport
}

// MaxStatementBytes bounds the informal statement of one request.
const MaxStatementBytes = 32 << 10

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
// nil: nothing is half-applied. report may be nil; its events' Stage is one
// of the Stage constants.
func (pl *Pipeline) Formalize(ctx context.Context, req Request, report progress.Func) (*Result, error) {
	if pl.client == nil {
		return nil, llm.ErrNotConfigured
	}
	// Someone listens (an editor, the command line): premises reach them
	// at once, retrieved with the whole statement while the model works.
	firstLook := report != nil || req.Found != nil
	if report == nil {
		report = func(progress.Event) {}
	}
	report, req.Found = serialized(report, req.Found)
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
	var order looks
	if firstLook && !pl.p.NoContext {
		wait := pl.firstLook(ctx, statement, &order, req.Found, report)
		defer wait()
	}
	if err := pl.client.Start(ctx, func(msg string) { report(progress.Event{Stage: StageModel, Message: msg}) }); err != nil {
		return nil, err
	}
	act := pl.client.NewAction(budget)
	clk := clock{start: pl.now(), budget: pl.p.TimeBudget, now: pl.now}
	res := &Result{Statement: statement, SubQueries: []retrieval.SubQuery{}, Proposed: []ProposedName{}, Candidates: []*Candidate{}}
	warn := func(format string, args ...any) { res.Warnings = append(res.Warnings, fmt.Sprintf(format, args...)) }
	// ask sends one request, with the stage's schema when the client does
	// structured output.
	ask := func(stage string, msgs []llm.Message, schema *llm.Schema, temp float64, seed *int) (*llm.Response, error) {
		return act.Complete(ctx, pl.request(stage, msgs, schema, temp, seed))
	}
	if pl.p.NoContext {
		return pl.formalizeFrom(ctx, act, clk, res, req, nil, report)
	}

	// 1. Decompose (unless skipped: then retrieval uses the whole statement).
	if !pl.p.NoDecompose {
		report(progress.Event{Stage: StageDecompose, Message: "Decomposing…"})
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
		report(progress.Event{Stage: StageRetrieve, Message: fmt.Sprintf("Retrieving %d sub-queries…", len(res.SubQueries)), Total: len(res.SubQueries)})
	} else {
		report(progress.Event{Stage: StageRetrieve, Message: "Retrieving premises…"})
	}
	perQuery := pl.p.K
	if len(res.SubQueries) > 0 {
		perQuery = pl.p.PerSubQuery
	}
	prem, err := pl.r.Retrieve(ctx, statement, res.SubQueries, perQuery)
	if err != nil {
		return nil, fmt.Errorf("drift: retrieve: %w", err)
	}
	res.Premises = withContext(req.Context, prem)
	have := map[string]bool{}
	for _, p := range res.Premises {
		if p.Decl != nil {
			have[p.Decl.Name] = true
		}
	}

	// 3. Propose dependencies directly (DDR).
	if !pl.p.NoPropose && pl.names != nil {
		report(progress.Event{Stage: StagePropose, Message: "Asking the model for dependencies…"})
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
	report(progress.Event{Stage: StageIllustrate, Message: fmt.Sprintf("Finding illustrative theorems for %d premises…", len(res.Premises))})
	ill, err := pl.r.Illustrate(ctx, statement, premiseNames(res.Premises), pl.p.M)
	if err != nil {
		return nil, fmt.Errorf("drift: illustrate: %w", err)
	}
	res.Illustration = ill
	if firstLook {
		order.last(func() {
			Found{Premises: res.Premises, Illustration: ill, Final: true}.handOver(StageIllustrate, req.Found, report)
		})
	}
	var decls []*library.Decl
	for _, p := range res.Premises {
		if p.Decl != nil {
			decls = append(decls, p.Decl)
		}
	}
	return pl.formalizeFrom(ctx, act, clk, res, req, decls, report)
}

// withContext puts the request's context declarations before the
// retrieved premises, each once.
func withContext(ctx []*library.Decl, prem []retrieval.Premise) []retrieval.Premise {
	if len(ctx) == 0 {
		return prem
	}
	out := make([]retrieval.Premise, 0, len(ctx)+len(prem))
	seen := map[string]bool{}
	for _, d := range ctx {
		if d != nil && !seen[d.Name] {
			seen[d.Name] = true
			out = append(out, retrieval.Premise{Hit: retrieval.Hit{Decl: d}, SubQuery: -1, Source: "context"})
		}
	}
	for _, p := range prem {
		if p.Decl == nil || !seen[p.Decl.Name] {
			out = append(out, p)
		}
	}
	return out
}

// stageMaxTokens caps the answers of the stages whose answers are short (a
// statement, a few queries, a list of names): above what a good answer
// takes, so that a small model that rambles (or loops inside a JSON
// string) stops early. An answer cut there is a failed call, and with the
// bundled model on 2 cores every 8 tokens of it cost a second.
//
// Every stage of Formalize has its cap here (a stage missing would get
// the client's default, 512; Informalize, outside the action, has it).
// Decompose's answer is bounded by its schema too (at most 4 queries,
// each sentence at most 200 characters and its Lean form 100): good
// answers take 70–140 tokens. A statement takes 40–120 (ProofNet's
// longest references, 350 characters, about 190); a repair answers one
// statement, as Formalize does.
var stageMaxTokens = map[string]int{
	llm.StageDecompose:     192,
	llm.StagePropose:       160,
	llm.StageFormalize:     256,
	llm.StageBackTranslate: 120,
	llm.StageRepair:        256,
}

// formalizeFrom runs stages 5–6 and the repairs: sample, normalise, name,
// check, repair names, choose, repair with the model. With no premises and
// no illustrative theorems every draw is without context.
func (pl *Pipeline) formalizeFrom(ctx context.Context, act *llm.Action, clk clock, res *Result, req Request, decls []*library.Decl, report progress.Func) (*Result, error) {
	statement, ill := res.Statement, res.Illustration
	warn := func(format string, args ...any) { res.Warnings = append(res.Warnings, fmt.Sprintf(format, args...)) }
	names := newNamer(req, statement, func(s string) bool { _, ok := pl.r.Lookup(s); return ok })
	name := names.forced
	structured := pl.client.Structured()
	hints := hintsFor(statement, conceptsOf(res))
	examples := examplesFor(func(n string) bool { _, ok := pl.r.Lookup(n); return ok })
	withCtx := formalizeMessages(statement, nameOrAsk(name), hints, decls, ill.Theorems, examples, structured)
	res.FormalizePrompt = withCtx[len(withCtx)-1].Content
	hasCtx := len(decls) > 0 || len(ill.Theorems) > 0
	groups := []drawGroup{{msgs: withCtx, withCtx: hasCtx}}
	for i := 0; i < pl.p.Samples; i++ {
		groups[0].seeds = append(groups[0].seeds, i+1)
	}
	if hasCtx {
		g := drawGroup{msgs: formalizeMessages(statement, nameOrAsk(name), hints, nil, nil, examples, structured), optional: true}
		for i := 0; i < min(pl.p.NoContextSamples, act.Remaining()-len(groups[0].seeds)); i++ {
			g.seeds = append(g.seeds, 101+i)
		}
		groups = append(groups, g)
	}
	grammar := pl.formalizeGrammar(decls, ill.Theorems)
	left, asked := max(act.Remaining(), 0), 0
	for i := range groups {
		if grammar != nil {
			groups[i].grammar = grammar.text
		}
		asked += len(groups[i].seeds)
		groups[i].seeds = groups[i].seeds[:min(len(groups[i].seeds), left)]
		left -= len(groups[i].seeds)
	}
	drawn := min(asked, max(act.Remaining(), 0))
	if drawn < asked {
		warn("call budget allows %d of %d samples", drawn, asked)
	}
	report(progress.Event{Stage: StageFormalize, Message: fmt.Sprintf("Formalizing: drawing %d candidates…", drawn), Total: drawn})
	samples, skipped := pl.drawCandidates(ctx, act, clk, groups, pl.p.Temperature, func(text string) (*Normalized, error) {
		st, err := ParseFormalizeAnswer(text, name)
		if err == nil {
			st.rename(names.name(st.given))
		}
		return st, err
	}, report)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if skipped > 0 {
		warn("time budget: %d of %d samples without context left out (the draws with context ended at %.0f s of %.0f)", skipped, drawn, clk.now().Sub(clk.start).Seconds(), clk.budget.Seconds())
	}
	grammar.record(res, samples)

	// Deduplicate by statement, counting agreement.
	byStmt := map[string]*Candidate{}
	for _, s := range samples {
		if s.err != nil {
			res.Candidates = append(res.Candidates, &Candidate{WithContext: s.withCtx, Seeds: []int{s.seed}, Error: s.err.Error()})
			continue
		}
		key := s.stub.Statement
		if c, ok := byStmt[key]; ok {
			c.Agreement++
			c.Seeds = append(c.Seeds, s.seed)
			c.WithContext = c.WithContext || s.withCtx
			continue
		}
		c := &Candidate{Stub: s.stub.Text, Statement: key, Notes: s.stub.Notes, WithContext: s.withCtx, Seeds: []int{s.seed}, Agreement: 1, opens: s.stub.Opens}
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
			ev := progress.Event{Stage: StageCheck, Message: fmt.Sprintf("Checking candidate %d/%d…", i+1, len(valid)), Done: i, Total: len(valid)}
			report(ev)
			header := req.Header
			if len(c.opens) > 0 {
				header = strings.TrimRight(header, "\n") + "\n" + strings.Join(c.opens, "\n")
			}
			rep, err := pl.checker.Check(ctx, pl.checkRequest(res, strings.TrimSpace(header), c.Stub, within(ev, report)))
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				c.Error = "checker failed: " + err.Error()
				continue
			}
			c.Check = rep
			if !rep.GatePassed {
				c.Error = "rejected by the safety gate: " + rep.GateReason
				continue
			}
			if !pl.p.NoNameRepair && len(rep.Unknown) > 0 && pl.repairNames(ctx, res, c, strings.TrimSpace(header)) {
				res.NameRepairs++
			}
			if len(c.Check.Types) > 0 && pl.repairTypes(ctx, res, c, strings.TrimSpace(header)) {
				res.TypeRepairs++
			}
			if !pl.p.NoConditionRepair && pl.fixOmissions(ctx, res, c, strings.TrimSpace(header)) {
				res.ConditionRepairs++
			}
		}
	}

	// A restatement is a short prompt and a short answer: it is expected
	// to take as long as the action's quickest call (Decompose's, in
	// practice), which measures this machine and server under their load.
	switch est := quickestCall(act.Usage()); {
	case pl.p.NoBackTranslate:
	case !clk.allows(est):
		warn("time budget of %s spent, or too little of it left for a restatement (about %s): the candidates are not restated in words", clk.budget, est.Round(time.Second))
	default:
		report(progress.Event{Stage: StageBackTranslate, Message: "Restating the candidates in words…"})
		pl.backTranslate(ctx, act, statement, res.Candidates)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}

	// Rank and choose.
	report(progress.Event{Stage: StageChoose, Message: "Choosing the best candidate…"})
	sort.SliceStable(res.Candidates, func(i, j int) bool { return better(res.Candidates[i], res.Candidates[j], !pl.p.RankByForm) })
	res.Usage = act.Usage()
	if len(res.Candidates) == 0 || res.Candidates[0].Error != "" {
		var why []string
		for _, c := range res.Candidates {
			why = append(why, c.Error)
		}
		return nil, fmt.Errorf("%w: %s", ErrNoCandidate, strings.Join(uniq(why), "; "))
	}
	best := res.Candidates[0]
	res.Name = stubName(best)
	if pl.p.RepairBudget > 0 && needsRepair(best.Check) && act.Remaining() > 0 {
		header := req.Header
		if len(best.opens) > 0 {
			header = strings.TrimRight(header, "\n") + "\n" + strings.Join(best.opens, "\n")
		}
		fixed, err := pl.repair(ctx, act, clk, res, best, strings.TrimSpace(header), report)
		if err != nil {
			return nil, err
		}
		if fixed != nil {
			res.Candidates = append([]*Candidate{fixed}, res.Candidates...)
			best = fixed
		}
		res.Usage = act.Usage()
	}
	res.Stub, res.Report, res.Opens = best.Stub, best.Check, best.opens
	return res, nil
}

// checkRequest asks for every check of stub, coverage of the statement and
// of the sub-queries' concepts included.
func (pl *Pipeline) checkRequest(res *Result, header, stub string, report progress.Func) leanrepl.CheckRequest {
	concepts := subjectConcepts(res.Statement, conceptsOf(res), pl.r.Lookup)
	return leanrepl.CheckRequest{Header: header, Stub: stub, Statement: res.Statement, Concepts: concepts, Progress: report}
}

// within passes the checker's events on as parts of the stage ev reports:
// ev's stage and counts, ev's message followed by the checker's.
func within(ev progress.Event, report progress.Func) progress.Func {
	return func(sub progress.Event) {
		report(progress.Event{Stage: ev.Stage, Message: strings.TrimSuffix(ev.Message, "…") + ": " + sub.Message, Done: ev.Done, Total: ev.Total})
	}
}

// repairNames gives c's unknown names the library's namespaced names
// (RepairNames) and keeps the result when it passes the gate with fewer
// unknown names; it reports whether it did.
func (pl *Pipeline) repairNames(ctx context.Context, res *Result, c *Candidate, header string) bool {
	var unknown []string
	sugg := map[string][]string{}
	for _, u := range c.Check.Unknown {
		unknown = append(unknown, u.Name)
		sugg[u.Name] = u.Suggestions
	}
	fixed, notes := RepairNames(c.Stub, unknown, sugg, pl.statementName)
	if len(notes) == 0 {
		return false
	}
	rep, err := pl.checker.Check(ctx, pl.checkRequest(res, header, fixed, nil))
	if err != nil || !rep.GatePassed || len(rep.Unknown) >= len(c.Check.Unknown) {
		return false
	}
	c.Stub, c.Check, c.Repaired = fixed, rep, true
	c.Notes = append(c.Notes, notes...)
	return true
}

// repairTypes retypes the binders of c that a ℕ-only (say) signature is
// applied to with a wider numeric type, where that is safe (elab.Retype),
// or else writes a number type applied to a value as a cast
// (AscribeAppliedTypes), or else puts the elaborator's replacements in
// (elab.Replace: a Set function where a Finset is expected, a floor where a
// ℕ is), and keeps the result when it passes the gate with fewer type
// findings and no new unknown name; it reports whether it did.
func (pl *Pipeline) repairTypes(ctx context.Context, res *Result, c *Candidate, header string) bool {
	fixed, ok := elab.Retype(c.Check.Stub, c.Check.Types)
	note := "retyped binders to the numeric type their signatures demand"
	if f := AscribeAppliedTypes(c.Check.Stub, c.Check.Types); !ok && f != nil {
		fixed, ok, note = f.Stub, true, strings.Join(f.Notes, "; ")
	}
	if !ok {
		if fixed, ok = elab.Replace(c.Check.Stub, c.Check.Types); !ok {
			return false
		}
		note = "wrote what the signatures expect: " + replacements(c.Check.Stub, c.Check.Types)
	}
	rep, err := pl.checker.Check(ctx, pl.checkRequest(res, header, fixed, nil))
	if err != nil || !rep.GatePassed || len(rep.Types) >= len(c.Check.Types) || len(rep.Unknown) > len(c.Check.Unknown) ||
		rep.LeanRan && !rep.LeanOK && c.Check.LeanOK {
		return false
	}
	c.Stub, c.Check, c.Repaired = fixed, rep, true
	c.Notes = append(c.Notes, note)
	return true
}

// replacements lists the elaborator's replacements of type findings fs
// on stub, "`Set.Icc 1 n` as `Finset.Icc 1 n`".
func replacements(stub string, fs []elab.Finding) string {
	var out []string
	for _, f := range fs {
		if f.Replace != "" && f.Start >= 0 && f.End <= len(stub) && f.Start < f.End {
			out = append(out, fmt.Sprintf("`%s` as `%s`", stub[f.Start:f.End], f.Replace))
		}
	}
	return strings.Join(out, ", ")
}

// statementName reports whether a statement can sensibly name the library
// declaration name: anything but a theorem, an alias (of one, as a rule) or
// an instance, which statements use through their class.
func (pl *Pipeline) statementName(name string) bool {
	d, ok := pl.r.Lookup(name)
	if !ok {
		return true
	}
	switch d.Kind {
	case library.KindTheorem, library.KindAlias, library.KindInstance:
		return false
	}
	return true
}

// stubName returns the theorem name of a checked candidate.
func stubName(c *Candidate) string {
	if c.Check != nil && c.Check.Parsed != nil {
		return c.Check.Parsed.Name
	}
	if st, err := NormalizeStub("```lean\n"+c.Stub+"\n```", ""); err == nil {
		return st.Name
	}
	return ""
}

func nameOrAsk(name string) string {
	if name == "" {
		return "(choose a short descriptive snake_case name)"
	}
	return name
}

// better orders candidates: usable first; then Lean accepted, Lean not run,
// Lean rejected; then not refuted; then fewer unknown names; then fewer
// omitted conditions; then better back-translation agreement (by more than
// its noise); then more sample agreement; then drawn with context. Without
// meaning, the refutation, coverage and back-translation steps are
// skipped.
func better(a, b *Candidate, meaning bool) bool {
	if less, decided := checkedBetter(a, b, meaning); decided {
		return less
	}
	if sa, sb := backScore(a.Check), backScore(b.Check); meaning && (sa-sb > backNoise || sb-sa > backNoise) {
		return sa > sb
	}
	if a.Agreement != b.Agreement {
		return a.Agreement > b.Agreement
	}
	return a.WithContext && !b.WithContext
}

// checkedBetter orders candidates by the steps of better that come before
// the back-translation (the checks' verdicts); decided is false when a and
// b tie on all of them.
func checkedBetter(a, b *Candidate, meaning bool) (less, decided bool) {
	if (a.Error == "") != (b.Error == "") {
		return a.Error == "", true
	}
	if ra, rb := leanRank(a.Check), leanRank(b.Check); ra != rb {
		return ra < rb, true
	}
	if ra, rb := a.Check != nil && a.Check.Refuted(), b.Check != nil && b.Check.Refuted(); meaning && ra != rb {
		return !ra, true
	}
	if ua, ub := unknownCount(a.Check), unknownCount(b.Check); ua != ub {
		return ua < ub, true
	}
	if ca, cb := omitted(a.Check), omitted(b.Check); meaning && ca != cb {
		return ca < cb, true
	}
	return false, false
}

// leanRank ranks Lean's verdict: accepted, not run, rejected. A stub the
// light elaborator finds ill-typed, or that names a constant the library
// lacks, ranks as rejected, which Lean would do (an unknown identifier):
// below every well-typed candidate Lean did not run on, a refuted one
// included.
func leanRank(c *leanrepl.Report) int {
	switch {
	case c != nil && (len(c.Types) > 0 || len(c.Unknown) > 0):
		return 2
	case c == nil || !c.LeanRan:
		return 1
	case c.LeanOK:
		return 0
	}
	return 2
}

// backNoise is the difference of back-translation scores below which two
// restatements count as agreeing equally.
const backNoise = 0.05

func backScore(c *leanrepl.Report) float64 {
	if c == nil || c.BackTranslation == nil {
		return 0
	}
	return c.BackTranslation.Score
}

func omitted(c *leanrepl.Report) int {
	if c == nil {
		return 0
	}
	return len(c.CoverageFindings())
}

func unknownCount(c *leanrepl.Report) int {
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
