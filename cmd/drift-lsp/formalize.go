package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/lsp"
)

func init() {
	register("formalize", "run the DRIFT pipeline on an informal statement (needs DRIFT_LLM_BASE_URL)", runFormalize)
}

// pipelineFlags are formalize's flags that set pipeline parameters.
type pipelineFlags struct {
	fs                           *flag.FlagSet
	samples, noCtx, repair, k, m *int
}

func addPipelineFlags(fs *flag.FlagSet) *pipelineFlags {
	return &pipelineFlags{fs: fs,
		samples: fs.Int("samples", 0, "candidates drawn with retrieved context (default: DRIFT_SAMPLES, else 4, as in the editor)"),
		noCtx:   fs.Int("no-context-samples", 0, "extra candidates drawn without retrieved context (default 1, -1 for none)"),
		repair:  fs.Int("repair", 0, "model repair attempts on the chosen candidate when it fails a check (default: DRIFT_REPAIR_BUDGET, else 4, as in the editor; 0: off; at most 16)"),
		k:       fs.Int("k", 0, "premises retrieved for the whole statement when decomposition fails (default 5)"),
		m:       fs.Int("m", 0, "illustrative theorems (default 3)"),
	}
}

// params are the pipeline's parameters of `formalize`: those of the
// settings (app.PipelineParams, as serve and mcp take them), with the
// flags given on the command line laid over them.
func (f *pipelineFlags) params(s settings.Settings) drift.Params {
	p := app.PipelineParams(s)
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "samples":
			p.Samples = *f.samples
		case "no-context-samples":
			p.NoContextSamples = *f.noCtx
		case "repair":
			p.RepairBudget = *f.repair
		case "k":
			p.K = *f.k
		case "m":
			p.M = *f.m
		}
	})
	return p
}

func runFormalize(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("formalize", stderr)
	idx := addIndexFlags(fs)
	corpusFlag := addCorpusFlag(fs)
	repl := fs.String("repl", "", "shell command starting a Lean REPL to check candidates with (default: a repl found in the workspace)")
	header := fs.String("header", "", "file header (imports and opens) the candidates are checked under, e.g. 'import Mathlib'")
	name := fs.String("name", "", "theorem name (default: the model chooses)")
	pf := addPipelineFlags(fs)
	informalize := fs.Bool("informalize", false, "first describe the workspace's own undocumented declarations with the model (cached) and search those descriptions too")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: drift-lsp formalize [--root DIR]... [--corpus FILE.jsonl] [--repl CMD] [--header TEXT] [--name NAME] [--samples K] [--json] STATEMENT")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	statement := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if statement == "" {
		fs.Usage()
		return 2
	}
	s, roots := commandSettings(envSettings(stderr), idx, *corpusFlag)
	if *repl != "" {
		s.REPL.Command = *repl
	}
	// The model as serve builds it: the endpoint, else the bundled local
	// model (started on the first request).
	client, localModel, err := app.NewModel(s, func(format string, args ...any) { fmt.Fprintf(stderr, "drift-lsp: "+format+"\n", args...) }, nil)
	if errors.Is(err, lsp.ErrNoModel) {
		fmt.Fprintf(stderr, "drift-lsp formalize: %v; `drift-lsp retrieve` works without one.\n", err)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
		return 2
	}
	if localModel != nil {
		defer localModel.Close()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var report progress.Func
	if !*asJSON {
		report = printProgress(stderr)
	}
	startModel(ctx, client, report)
	if *informalize && len(roots) > 0 {
		corpus, cleanup, err := informalizedCorpus(ctx, idx, client, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "drift-lsp formalize: informalize: %v\n", err)
			return 1
		}
		defer cleanup()
		roots, s.Roots, s.Corpus = nil, nil, append(s.Corpus, corpus)
	}
	eng, err := app.OpenEngine(ctx, s, roots, false, commandLog(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
		return 2
	}
	defer eng.Close()
	if err := waitEngine(ctx, eng); err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: index: %v\n", err)
		return 1
	}
	if st := eng.Status(); st.Decls == 0 {
		fmt.Fprintf(stderr, "drift-lsp formalize: warning: the index holds no declarations (roots %v, corpora %v); premises will be empty\n", roots, s.Corpus)
	}
	checker, pool, err := app.OpenChecker(eng, s, checkRoot(roots), app.CheckOptions{}, nil)
	if err != nil && *repl != "" {
		fmt.Fprintf(stderr, "drift-lsp formalize: Lean REPL: %v\n", err)
	}
	if pool != nil {
		defer pool.Close()
	}
	pl := drift.New(eng, client, checker, pf.params(s))
	start := time.Now()
	req := drift.Request{Statement: statement, Name: *name, Header: *header}
	if !*asJSON {
		req.Found = func(f drift.Found) { printFound(stderr, f, time.Since(start)) }
	}
	res, err := pl.Formalize(ctx, req, report)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "drift-lsp formalize: cancelled")
		} else {
			fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
		}
		return 1
	}
	// A stub that failed a check that ran is shown, but is not a success.
	code := 0
	if res.Report != nil && !res.Report.Passed() {
		code = 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(app.FormalizedOf(eng.Library(), res, time.Since(start))); err != nil {
			fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
			return 1
		}
		return code
	}
	printResult(stdout, res, pl.Params(), time.Since(start))
	return code
}

// informalizedCorpus loads the workspace, describes the user's declarations
// that lack a docstring (drift's Informalize stage, in dependency order,
// cached), and writes the whole library with those descriptions as a
// temporary decls corpus for the retrieval engine.
func informalizedCorpus(ctx context.Context, idx *indexFlags, client *llm.Client, stderr io.Writer) (string, func(), error) {
	lib, err := idx.load(ctx, stderr)
	if err != nil {
		return "", nil, err
	}
	decls := lib.Decls()
	targets := drift.InformalizeTargets(decls)
	pl := drift.NewWith(nil, nil, client, nil, drift.Params{})
	desc, usage, err := pl.Informalize(ctx, targets, lib.Lookup, 0, printProgress(stderr))
	if err != nil && ctx.Err() != nil {
		return "", nil, err
	}
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: warning: %v\n", err)
	}
	fmt.Fprintf(stderr, "drift-lsp formalize: described %d of %d undocumented declarations (%d calls, %d cache hits)\n", len(desc), len(targets), usage.Calls, usage.CacheHits)
	out := make([]*library.Decl, len(decls))
	for i, d := range decls {
		if text, ok := desc[d.Name]; ok {
			c := *d
			c.Informal = text
			d = &c
		}
		out[i] = d
	}
	f, err := os.CreateTemp("", "drift-informalized-*.jsonl")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.Remove(f.Name()) }
	if err := library.WriteDecls(f, out); err != nil {
		f.Close()
		cleanup()
		return "", nil, err
	}
	if err := f.Close(); err != nil {
		cleanup()
		return "", nil, err
	}
	return f.Name(), cleanup, nil
}

func printResult(w io.Writer, res *drift.Result, p drift.Params, d time.Duration) {
	fmt.Fprintf(w, "Statement: %s\n", res.Statement)
	fmt.Fprintf(w, "\nSub-queries (%d):\n", len(res.SubQueries))
	for i, s := range res.SubQueries {
		fmt.Fprintf(w, "  %d. %s\n     Lean: %s\n", i+1, s.Informal, s.Formal)
	}
	fmt.Fprintf(w, "\nPremises (%d):\n", len(res.Premises))
	for _, pr := range res.Premises {
		from := "whole statement"
		switch {
		case pr.Source == "propose":
			from = "proposed by the model"
		case pr.SubQuery >= 0:
			from = fmt.Sprintf("sub-query %d", pr.SubQuery+1)
		}
		fmt.Fprintf(w, "  %-40s  [%s]\n      %s\n", pr.Decl.Name, from, oneLineSig(pr.Decl.Signature))
	}
	fmt.Fprintf(w, "\nProposed names (%d, hallucination rate %.0f%%):\n", len(res.Proposed), 100*res.HallucinationRate)
	for _, pn := range res.Proposed {
		fmt.Fprintf(w, "  %-40s  %s", pn.Name, pn.Check)
		if len(pn.Resolved) > 0 && !(len(pn.Resolved) == 1 && pn.Resolved[0] == pn.Name) {
			fmt.Fprintf(w, " → %s", strings.Join(pn.Resolved, ", "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nIllustrative theorems (%d, coverage %.0f%%):\n", len(res.Illustration.Theorems), 100*res.Illustration.Coverage)
	for i, t := range res.Illustration.Theorems {
		var cov []string
		if i < len(res.Illustration.Covers) {
			cov = res.Illustration.Covers[i]
		}
		fmt.Fprintf(w, "  %s  (covers %s)\n      %s\n", t.Name, strings.Join(cov, ", "), oneLineSig(t.Signature))
	}
	fmt.Fprintf(w, "\nCandidates (%d, best first):\n", len(res.Candidates))
	for i, c := range res.Candidates {
		ctx := "with context"
		if !c.WithContext {
			ctx = "without context"
		}
		if c.Error != "" {
			fmt.Fprintf(w, "  %d. unusable (%s, seeds %v): %s\n", i+1, ctx, c.Seeds, c.Error)
			continue
		}
		fmt.Fprintf(w, "  %d. %s\n     %s, seeds %v, agreement %d", i+1, c.Stub, ctx, c.Seeds, c.Agreement)
		if c.Check != nil {
			switch {
			case c.Check.LeanRan && c.Check.LeanOK:
				fmt.Fprint(w, ", Lean: ok")
			case c.Check.LeanRan:
				fmt.Fprint(w, ", Lean: rejected")
			case c.Check.LeanSkipped != "":
				fmt.Fprintf(w, ", Lean not run: %s", c.Check.LeanSkipped)
			}
			for _, f := range c.Check.Findings() {
				if f.Severity == leanrepl.SeverityError {
					fmt.Fprintf(w, "\n     %d:%d %s", f.Line, max(f.Column, 0), oneLineSig(f.Message))
				}
			}
		} else {
			fmt.Fprint(w, ", not checked")
		}
		if len(c.Notes) > 0 {
			fmt.Fprintf(w, "\n     notes: %s", strings.Join(c.Notes, "; "))
		}
		fmt.Fprintln(w)
	}
	if res.NameRepairs > 0 {
		fmt.Fprintf(w, "\nName repair: %d candidate(s) had unknown names replaced by the library's namespaced names\n", res.NameRepairs)
	}
	if res.ConditionRepairs > 0 {
		fmt.Fprintf(w, "\nCondition repair: %d candidate(s) were given a comparison their statement states and they omitted\n", res.ConditionRepairs)
	}
	if r := res.Repair; r != nil {
		fmt.Fprintf(w, "\nRepair: %d attempt(s), fixed %v (stopped: %s)\n", r.Attempts, r.Fixed, r.Stop)
	}
	if g := res.Grammar; g != nil {
		fmt.Fprintf(w, "\nGrammar: %d answers constrained by a grammar of %d names (%d bytes)", g.Answers, g.Names, g.Bytes)
		if g.NotApplied != "" {
			fmt.Fprintf(w, "; %s", g.NotApplied)
		}
		fmt.Fprintln(w)
	}
	for _, wmsg := range res.Warnings {
		fmt.Fprintf(w, "\nwarning: %s", wmsg)
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintln(w)
	}
	u := res.Usage
	fmt.Fprintf(w, "\nModel calls: %d (cache hits %d, HTTP attempts %d, failures %d; at most %d answers per action), tokens: %d prompt (%d served from the server's prompt cache) + %d completion, model time %.1fs summed over calls, wall %.1fs\n",
		u.Calls, u.CacheHits, u.Attempts, u.Failures, p.MaxCalls(), u.PromptTokens, u.CachedPromptTokens, u.CompletionTokens, u.Duration.Seconds(), d.Seconds())
	for _, c := range u.Log {
		fmt.Fprintf(w, "  %s\n", callLine(c))
	}
	if len(res.Opens) > 0 {
		fmt.Fprintf(w, "\nNeeds in the header: %s\n", strings.Join(res.Opens, "; "))
	}
	if r := res.Report; r != nil && r.GatePassed && !r.LeanRan && !r.LeanFailed {
		fmt.Fprintf(w, "\nLean was not run: %s\n", strings.TrimPrefix(r.LeanSkipped, "Lean was not run: "))
	}
	if res.Report != nil && !res.Report.Passed() {
		fmt.Fprintf(w, "\nChosen stub (FAILED the checks: %s):\n%s\n", res.Report.Verdict(), res.Stub)
		return
	}
	if res.Report != nil {
		fmt.Fprintf(w, "\nVerdict: passed the checks that ran — %s\n", res.Report.Verdict())
	}
	fmt.Fprintf(w, "\nChosen stub:\n%s\n", res.Stub)
}

// printFound prints the premises and illustrative theorems the pipeline
// found, while the model works, d after the start.
func printFound(w io.Writer, f drift.Found, d time.Duration) {
	what := "retrieved with the whole statement, while the model decomposes it"
	if f.Final {
		what = "the context the candidates are drawn with"
	}
	fmt.Fprintf(w, "Premises at %.1fs (%s):\n", d.Seconds(), what)
	for _, p := range f.Premises {
		fmt.Fprintf(w, "  %-40s  %s\n", p.Decl.Name, oneLineSig(p.Decl.Signature))
	}
	fmt.Fprintf(w, "Illustrative theorems (coverage %.0f%%):\n", 100*f.Illustration.Coverage)
	for _, t := range f.Illustration.Theorems {
		fmt.Fprintf(w, "  %-40s  %s\n", t.Name, oneLineSig(t.Signature))
	}
}

// callLine describes one model call: stage, answers, tokens, seconds.
func callLine(c llm.Call) string {
	switch {
	case c.CacheHit:
		return fmt.Sprintf("%-11s %d answer(s) from the response cache", c.Stage, c.Answers)
	case c.Error != "":
		return fmt.Sprintf("%-11s failed after %.1fs: %s", c.Stage, c.Seconds, c.Error)
	}
	return fmt.Sprintf("%-11s %d answer(s), %d prompt tokens (%d cached) + %d completion, %.1fs",
		c.Stage, c.Answers, c.PromptTokens, c.CachedPromptTokens, c.CompletionTokens, c.Seconds)
}

func oneLineSig(s string) string { return textcut.Line(s, 160) }

// startModel starts a model server that drift-lsp runs itself (the local
// model) in the background, so that it loads while the index does; the
// pipeline's own start then finds it running (or waits for it). Progress
// goes to report.
func startModel(ctx context.Context, client *llm.Client, report progress.Func) {
	go func() {
		_ = client.Start(ctx, func(msg string) { report.Report(progress.Event{Stage: drift.StageModel, Message: msg}) })
	}()
}

// printProgress prints progress events as "[stage] message" lines on w.
func printProgress(w io.Writer) progress.Func {
	return func(e progress.Event) { fmt.Fprintf(w, "[%s] %s\n", e.Stage, e.Message) }
}
