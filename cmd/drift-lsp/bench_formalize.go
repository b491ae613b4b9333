package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/equivalence"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

func init() {
	registerBench("formalize", "formalization with a real model: well-formed stubs, unknown names, repairs, cost (proxy metrics, no Lean)", runBenchFormalize)
}

// benchConfig is one pipeline configuration of the formalize benchmark.
type benchConfig struct {
	Name string
	// Text sends no response_format (the text formats only).
	Text   bool
	Params drift.Params
	About  string
}

// benchConfigs are the configurations, in table order, over base, the
// pipeline's parameters under the settings (app.PipelineParams: the
// editor's, the command line's and MCP's, repair budget included). The
// benchmark's one change to all of them is its cost, to keep the number of
// calls of a slow local model low: one candidate with context and none
// without (but the full+plain ones, which add no-retrieval's candidate, as
// the default pipeline does), no Propose (but full+plain+propose, the
// default pipeline's stages) and no back-translation (but the full+plain
// ones). Each configuration then overrides only what it is about: the
// "before" configurations turn off the repairs that came after them.
// "structured" and "full" ask the same questions, so the second is served
// from the response cache, and full+plain asks full's and no-retrieval's.
func benchConfigs(base drift.Params) []benchConfig {
	base.Samples, base.NoContextSamples, base.NoPropose, base.NoBackTranslate = 1, -1, true, true
	with := func(f func(*drift.Params)) drift.Params { p := base; f(&p); return p }
	noRepairs := func(p *drift.Params) { p.NoNameRepair, p.NoConditionRepair, p.RepairBudget = true, true, 0 }
	return []benchConfig{
		{"text", true, with(noRepairs), "before: text formats, no repairs"},
		{"structured", false, with(noRepairs), "structured output, no repairs"},
		{"full", false, base, "after: structured output and the repairs (names, conditions, the model's)"},
		{"no-retrieval", false, with(func(p *drift.Params) { p.NoContext = true }), "full, without retrieved context"},
		{"no-decompose", false, with(func(p *drift.Params) { p.NoDecompose = true }), "full, retrieval with the whole statement"},
		{"full+plain/form", false, with(func(p *drift.Params) {
			p.NoContextSamples, p.RankByForm, p.NoConditionRepair, p.RepairBudget = 1, true, true, 0
		}), "before meaning: full with name repair only, plus one candidate drawn without context, ranked by the checks of form"},
		{"full+plain", false, with(func(p *drift.Params) { p.NoContextSamples, p.NoBackTranslate = 1, false }),
			"after: full, plus one candidate drawn without context, back-translated, ranked by meaning"},
		{"full+plain+propose", false, with(func(p *drift.Params) { p.NoContextSamples, p.NoBackTranslate, p.NoPropose = 1, false, false }),
			"full+plain with Propose: the default pipeline's stages, one candidate with context"},
	}
}

// benchRow is one problem under one configuration (a line of --out).
type benchRow struct {
	Config     string `json:"config"`
	ID         string `json:"id"`
	WellFormed bool   `json:"well_formed"`
	Passed     bool   `json:"passed"`
	Unknown    int    `json:"unknown"`
	Repairs    int    `json:"repairs"`
	Calls      int    `json:"calls"`
	Tokens     int    `json:"tokens"`
	// CachedTokens are the prompt tokens the model server served from its
	// prompt cache; Stages the pipeline's per-stage cost (model calls only,
	// not answers a configuration reused from another's).
	CachedTokens int                       `json:"cached_tokens"`
	Stages       map[string]llm.StageUsage `json:"stages,omitempty"`
	Seconds      float64                   `json:"seconds"`
	SubQueries   int                       `json:"sub_queries"`
	Stub         string                    `json:"stub,omitempty"`
	Verdict      string                    `json:"verdict,omitempty"`
	Error        string                    `json:"error,omitempty"`
	// Refuted: the falsifier refuted the chosen stub; Omits: the coverage
	// check found a condition of the statement it omits.
	Refuted bool `json:"refuted"`
	Omits   bool `json:"omits"`
	// Equal: the stub equals the reference after normalisation; Versus:
	// the falsifier's comparison with it ("agree", "disagree",
	// "undecided"; "" without a reference or a well-formed stub).
	Equal  bool   `json:"equal"`
	Versus string `json:"versus,omitempty"`
	// Grammar reports Formalize's constrained decoding (absent when no
	// grammar was sent), with whether it was in force (not_applied).
	Grammar *drift.GrammarReport `json:"grammar,omitempty"`
}

// benchSummary aggregates the rows of one configuration.
type benchSummary struct {
	Config   string `json:"config"`
	About    string `json:"about"`
	Problems int    `json:"problems"`
	// WellFormed is the share of problems with a stub that passed the
	// safety gate; Passed the share that also passed the name check.
	WellFormed float64 `json:"well_formed_rate"`
	Passed     float64 `json:"passed_rate"`
	// UnknownRate is the share of well-formed stubs naming at least one
	// constant the library lacks.
	UnknownRate float64 `json:"unknown_name_rate"`
	Repairs     float64 `json:"mean_repairs"`
	Calls       float64 `json:"calls_per_problem"`
	Tokens      float64 `json:"tokens_per_problem"`
	Cached      float64 `json:"cached_tokens_per_problem"`
	Seconds     float64 `json:"median_seconds_per_problem"`
	// RefutedRate and OmitsRate are shares of the well-formed stubs; Equal
	// and Disagree shares of the problems.
	RefutedRate float64 `json:"refuted_rate"`
	OmitsRate   float64 `json:"coverage_flag_rate"`
	Equal       float64 `json:"equal_rate"`
	Disagree    float64 `json:"disagree_rate"`
}

func runBenchFormalize(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench formalize", stderr,
		"usage: drift-lsp bench formalize --bench FILE.jsonl|--minif2f INFORMAL_DIR,LEAN_DIR [--root DIR]... [--limit N] [--offset N] [--configs a,b] [--out ROWS.jsonl] [--answers RAW.jsonl] [--json]",
		"       drift-lsp bench formalize --from ROWS.jsonl [--json]     (summarise an earlier run)",
		"Runs drift's pipeline with the configured model (or the local one) on the informal statements only.")
	rf := addRetrievalFlags(fs)
	bench := fs.String("bench", "", "benchmark JSONL in ProofNet's format (informal_stmt, and formal_stmt and header for the comparison)")
	minif2f := fs.String("minif2f", "", "miniF2F informal and Lean 4 statement directories, comma-separated, instead of --bench")
	limit := fs.Int("limit", 50, "problems to run")
	offset := fs.Int("offset", 0, "problems to skip first")
	configs := fs.String("configs", "", "comma-separated configurations (default all: text, structured, full, no-retrieval, no-decompose, full+plain/form, full+plain, full+plain+propose)")
	out := fs.String("out", "", "append one JSON line per problem and configuration to this file")
	answers := fs.String("answers", "", "append the model's raw answers (stage, statement, answer; no prompt or library text) to this file")
	from := fs.String("from", "", "summarise the rows of an earlier --out file instead of running")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	s := envSettings(stderr)
	all := benchConfigs(app.PipelineParams(s))
	about := map[string]string{}
	for _, c := range all {
		about[c.Name] = c.About
	}
	if *from != "" {
		rows, err := readRows(*from)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
			return 1
		}
		return printBenchSummary(stdout, stderr, summarize(rows, all), *asJSON)
	}
	if (*bench == "") == (*minif2f == "") || *limit <= 0 {
		fs.Usage()
		return 2
	}
	var chosen []benchConfig
	if *configs == "" {
		chosen = all
	} else {
		for _, name := range strings.Split(*configs, ",") {
			var found bool
			for _, c := range all {
				if c.Name == strings.TrimSpace(name) {
					chosen, found = append(chosen, c), true
				}
			}
			if !found {
				fmt.Fprintf(stderr, "drift-lsp bench formalize: unknown configuration %q\n", name)
				return 2
			}
		}
	}
	items, err := formalizeProblems(*bench, *minif2f)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
		return 2
	}
	if *offset < len(items) {
		items = items[*offset:]
	} else {
		items = nil
	}
	if len(items) > *limit {
		items = items[:*limit]
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var rec *answerLog
	if *answers != "" {
		if rec, err = openAnswerLog(*answers); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
			return 1
		}
		defer rec.close()
	}
	cfg, local, err := app.ModelSetup(s, func(format string, args ...any) { fmt.Fprintf(stderr, "drift-lsp: "+format+"\n", args...) }, nil)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
		return 2
	}
	if local != nil {
		defer local.Close()
	}
	m := &meter{log: rec}
	cfg.Observe = m.observe
	// structured and full ask the same questions: full must meet the same
	// answers, failures included, or the comparison measures re-sampling.
	cfg.ReplayFailures = true
	clients := map[bool]*llm.Client{}
	for _, text := range []bool{false, true} {
		c := cfg
		c.NoStructured = text
		if clients[text], err = llm.New(c); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
			return 2
		}
	}
	startModel(ctx, clients[false], nil)
	eng, err := rf.open(ctx, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
		return 1
	}
	defer eng.Close()
	checker, pool, _ := app.OpenChecker(eng, s, "", app.CheckOptions{}, nil)
	if pool != nil {
		defer pool.Close()
	}
	var rows []benchRow
	var rowOut *json.Encoder
	if *out != "" {
		of, err := os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
			return 1
		}
		defer of.Close()
		rowOut = json.NewEncoder(of)
		rowOut.SetEscapeHTML(false)
	}
	for i, it := range items {
		for _, c := range chosen {
			if ctx.Err() != nil {
				break
			}
			m.start(it.Informal)
			pl := drift.New(eng, clients[c.Text], checker, c.Params)
			start := time.Now()
			res, err := pl.Formalize(ctx, drift.Request{Statement: it.Informal, Header: "import Mathlib"}, nil)
			row := benchRow{Config: c.Name, ID: it.ID, Seconds: time.Since(start).Seconds()}
			row.Calls, row.Tokens, row.CachedTokens = m.usage()
			switch {
			case err != nil:
				row.Error = err.Error()
			default:
				row.Stages = res.Usage.Stages
				if r := res.Report; r != nil {
					row.WellFormed, row.Passed, row.Unknown, row.Verdict = r.GatePassed, r.Passed(), len(r.Unknown), r.Verdict()
					row.Refuted, row.Omits = r.Refuted(), len(r.CoverageFindings()) > 0
					row.Equal, row.Versus = versusReference(ctx, checker, r, it)
				}
				row.Repairs = res.NameRepairs + res.ConditionRepairs
				if res.Repair != nil {
					row.Repairs += res.Repair.Attempts
				}
				row.SubQueries = len(res.SubQueries)
				row.Stub, row.Grammar = res.Stub, res.Grammar
			}
			if ctx.Err() != nil {
				break
			}
			rows = append(rows, row)
			if rowOut != nil {
				_ = rowOut.Encode(row)
			}
			fmt.Fprintf(stderr, "[%d/%d %s] %s: well-formed %v, passed %v, unknown %d, refuted %v, omits %v, equal %v, versus %q, %.0fs %s\n",
				i+1, len(items), c.Name, it.ID, row.WellFormed, row.Passed, row.Unknown, row.Refuted, row.Omits, row.Equal, row.Versus, row.Seconds, shortErr(row.Error))
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "drift-lsp bench formalize: interrupted; summarising the finished problems")
	}
	return printBenchSummary(stdout, stderr, summarize(rows, chosen), *asJSON)
}

// formalizeProblems reads the problems of --bench (ProofNet's format: the
// problems with oracle premises, in file order, as retrieval's benchmark
// reads them) or of --minif2f.
func formalizeProblems(bench, minif2f string) ([]coverageProblem, error) {
	if minif2f != "" {
		dirs := strings.Split(minif2f, ",")
		if len(dirs) != 2 {
			return nil, errors.New("--minif2f wants INFORMAL_DIR,LEAN_DIR")
		}
		return readMiniF2FPairs(dirs[0], dirs[1])
	}
	f, err := os.Open(bench)
	if err != nil {
		return nil, err
	}
	items, err := retrieval.ReadBench(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	pairs, err := readProofNetPairs(bench)
	if err != nil {
		return nil, err
	}
	byID := map[string]coverageProblem{}
	for _, p := range pairs {
		byID[p.ID] = p
	}
	out := make([]coverageProblem, len(items))
	for i, it := range items {
		out[i] = byID[it.ID]
		out[i].ID, out[i].Informal = it.ID, it.Query
	}
	return out, nil
}

// versusReference compares a well-formed stub with the problem's reference
// statement: equal after normalisation, and the falsifier's verdict on
// their common assignments.
func versusReference(ctx context.Context, checker *leanrepl.Checker, r *leanrepl.Report, p coverageProblem) (bool, string) {
	if !r.GatePassed || p.Formal == "" {
		return false, ""
	}
	ref, err := leanrepl.Gate(p.Formal)
	if err != nil {
		return false, ""
	}
	a, b := leanrepl.StatementOf(r.Parsed), leanrepl.StatementOf(ref)
	v := equivalence.Compare(ctx, a, b, checker.MeaningLibrary(r.Parsed, p.Header), falsify.Options{})
	return equivalence.Equal(a, b), v.String()
}

func shortErr(s string) string {
	if s == "" {
		return ""
	}
	return "(" + textcut.Cut(s, 100) + ")"
}

// summarize aggregates rows per configuration, in the order of configs;
// a failed pipeline (no usable candidate, a model error) counts as a
// problem without a well-formed stub.
func summarize(rows []benchRow, configs []benchConfig) []benchSummary {
	var out []benchSummary
	for _, c := range configs {
		s := benchSummary{Config: c.Name, About: c.About}
		var secs []float64
		wf := 0
		for _, r := range rows {
			if r.Config != c.Name {
				continue
			}
			s.Problems++
			if r.WellFormed {
				wf++
				if r.Unknown > 0 {
					s.UnknownRate++
				}
				if r.Refuted {
					s.RefutedRate++
				}
				if r.Omits {
					s.OmitsRate++
				}
			}
			if r.Equal {
				s.Equal++
			}
			if r.Versus == equivalence.Disagree.String() {
				s.Disagree++
			}
			if r.Passed {
				s.Passed++
			}
			s.Repairs += float64(r.Repairs)
			s.Calls += float64(r.Calls)
			s.Tokens += float64(r.Tokens)
			s.Cached += float64(r.CachedTokens)
			secs = append(secs, r.Seconds)
		}
		if s.Problems == 0 {
			continue
		}
		n := float64(s.Problems)
		s.WellFormed = float64(wf) / n
		s.Passed /= n
		if wf > 0 {
			s.UnknownRate /= float64(wf)
			s.RefutedRate /= float64(wf)
			s.OmitsRate /= float64(wf)
		}
		s.Equal /= n
		s.Disagree /= n
		s.Repairs /= n
		s.Calls /= n
		s.Tokens /= n
		s.Cached /= n
		sort.Float64s(secs)
		s.Seconds = secs[len(secs)/2]
		out = append(out, s)
	}
	return out
}

func printBenchSummary(stdout, stderr io.Writer, sums []benchSummary, asJSON bool) int {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sums); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench formalize:", err)
			return 1
		}
		return 0
	}
	fmt.Fprintln(stdout, "| configuration | problems | well-formed (gate) | passed (every check) | unknown-name rate | refuted | omits a condition | equal to reference | disagrees with reference | mean repairs | calls | tokens | cached prompt tokens | median s |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range sums {
		fmt.Fprintf(stdout, "| %s (%s) | %d | %.0f%% | %.0f%% | %.0f%% | %.0f%% | %.0f%% | %.0f%% | %.0f%% | %.2f | %.1f | %.0f | %.0f | %.0f |\n",
			s.Config, s.About, s.Problems, 100*s.WellFormed, 100*s.Passed, 100*s.UnknownRate, 100*s.RefutedRate, 100*s.OmitsRate,
			100*s.Equal, 100*s.Disagree, s.Repairs, s.Calls, s.Tokens, s.Cached, s.Seconds)
	}
	return 0
}

func readRows(path string) ([]benchRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []benchRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r benchRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 && sc.Err() == nil {
		return nil, errors.New(path + ": no rows")
	}
	return rows, sc.Err()
}

// meter counts the answers (cache hits included: configurations that ask
// the same question share them) and tokens of the current problem, and
// passes them to the answer log.
type meter struct {
	mu                  sync.Mutex
	calls, toks, cached int
	log                 *answerLog
}

func (m *meter) start(statement string) {
	m.mu.Lock()
	m.calls, m.toks, m.cached = 0, 0, 0
	m.mu.Unlock()
	m.log.setStatement(statement)
}

// usage returns the answers, tokens and prompt tokens served from the
// server's prompt cache of the current problem.
func (m *meter) usage() (calls, tokens, cached int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls, m.toks, m.cached
}

// observe is the llm.Config.Observe hook.
func (m *meter) observe(req llm.Request, resp *llm.Response) {
	m.mu.Lock()
	m.calls++
	m.toks += resp.PromptTokens + resp.CompletionTokens
	m.cached += resp.CachedPromptTokens
	m.mu.Unlock()
	m.log.observe(req, resp)
}

// answerLog appends the model's raw answers, one JSON line each: the stage,
// the informal statement of the problem, whether structured output was on,
// and the answer text. Prompts (which hold library text) are not written.
type answerLog struct {
	mu        sync.Mutex
	f         *os.File
	enc       *json.Encoder
	statement string
}

func openAnswerLog(path string) (*answerLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	return &answerLog{f: f, enc: enc}, nil
}

func (l *answerLog) setStatement(s string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.statement = s
	l.mu.Unlock()
}

// observe records one answer (a nil log records nothing).
func (l *answerLog) observe(req llm.Request, resp *llm.Response) {
	if l == nil || resp.Cached {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.enc.Encode(map[string]any{"stage": req.Stage, "statement": l.statement, "structured": resp.Structured, "answer": resp.Text})
}

func (l *answerLog) close() {
	if l != nil {
		l.f.Close()
	}
}
