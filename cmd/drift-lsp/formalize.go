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

	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

func init() {
	register("formalize", "run the DRIFT pipeline on an informal statement (needs DRIFT_LLM_BASE_URL)", runFormalize)
}

func runFormalize(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("formalize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	idx := addIndexFlags(fs)
	corpusFlag := addCorpusFlag(fs)
	repl := fs.String("repl", "", "shell command starting a Lean REPL to check candidates with")
	name := fs.String("name", "", "theorem name (default: the model chooses)")
	samples := fs.Int("samples", 0, "candidates drawn with retrieved context (default 4)")
	noCtx := fs.Int("no-context-samples", 0, "extra candidates drawn without retrieved context (default 1, -1 for none)")
	k := fs.Int("k", 0, "premises retrieved for the whole statement when decomposition fails (default 5)")
	m := fs.Int("m", 0, "illustrative theorems (default 3)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: drift-lsp formalize [--root DIR]... [--corpus FILE.jsonl] [--repl CMD] [--name NAME] [--samples K] [--json] STATEMENT")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	statement := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if statement == "" {
		fs.Usage()
		return 2
	}
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
		return 2
	}
	if !cfg.Configured() {
		fmt.Fprintf(stderr, "drift-lsp formalize: %s; `drift-lsp retrieve` works without one.\n", llm.HowToConfigure)
		return 2
	}
	client, err := llm.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
		return 2
	}
	if *repl != "" {
		fmt.Fprintln(stderr, "drift-lsp formalize: --repl: Lean checking of candidates is not wired into formalize yet; candidates are ranked without Lean")
	}
	roots, corpora := []string(idx.roots), []string(*corpusFlag)
	if len(roots) == 0 && len(corpora) == 0 {
		roots = append(roots, ".")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	eng, err := retrieval.Open(ctx, retrieval.Config{Roots: roots, Corpus: corpora, CacheDir: idx.cache})
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
		return 2
	}
	defer eng.Close()
	if err := eng.WaitReady(ctx); err != nil {
		fmt.Fprintf(stderr, "drift-lsp formalize: index: %v\n", err)
		return 1
	}
	if st := eng.Status(); st.Decls == 0 {
		fmt.Fprintf(stderr, "drift-lsp formalize: warning: the index holds no declarations (roots %v, corpora %v); premises will be empty\n", roots, corpora)
	}
	pl := drift.New(eng, client, nil, drift.Params{Samples: *samples, NoContextSamples: *noCtx, K: *k, M: *m})
	start := time.Now()
	res, err := pl.Formalize(ctx, drift.Request{Statement: statement, Name: *name}, func(e drift.Event) {
		if !*asJSON {
			fmt.Fprintf(stderr, "[%s] %s\n", e.Stage, e.Message)
		}
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "drift-lsp formalize: cancelled")
		} else {
			fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
		}
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(jsonResult(res, time.Since(start))); err != nil {
			fmt.Fprintf(stderr, "drift-lsp formalize: %v\n", err)
			return 1
		}
		return 0
	}
	printResult(stdout, res, pl.Params(), time.Since(start))
	return 0
}

// formalizeJSON is the --json form of a drift.Result.
type formalizeJSON struct {
	*drift.Result
	Premises     []premiseJSON `json:"premises"`
	Illustrative []illusJSON   `json:"illustrative"`
	Coverage     float64       `json:"coverage"`
	Seconds      float64       `json:"seconds"`
}

type premiseJSON struct {
	Name      string `json:"name"`
	Signature string `json:"signature"`
	Source    string `json:"source"`
	SubQuery  int    `json:"sub_query"`
}

type illusJSON struct {
	Name      string   `json:"name"`
	Signature string   `json:"signature"`
	Covers    []string `json:"covers"`
}

func jsonResult(res *drift.Result, d time.Duration) formalizeJSON {
	out := formalizeJSON{Result: res, Coverage: res.Illustration.Coverage, Seconds: d.Seconds(),
		Premises: []premiseJSON{}, Illustrative: []illusJSON{}}
	for _, p := range res.Premises {
		out.Premises = append(out.Premises, premiseJSON{p.Decl.Name, p.Decl.Signature, p.Source, p.SubQuery})
	}
	for i, t := range res.Illustration.Theorems {
		var cov []string
		if i < len(res.Illustration.Covers) {
			cov = res.Illustration.Covers[i]
		}
		out.Illustrative = append(out.Illustrative, illusJSON{t.Name, t.Signature, cov})
	}
	return out
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
				fmt.Fprintf(w, ", Lean: %s", strings.Join(c.Check.Messages, "; "))
			case c.Check.LeanSkipped != "":
				fmt.Fprintf(w, ", Lean not run: %s", c.Check.LeanSkipped)
			}
			if len(c.Check.Unknown) > 0 {
				fmt.Fprintf(w, ", unknown names: %s", strings.Join(c.Check.Unknown, ", "))
			}
		} else {
			fmt.Fprint(w, ", not checked")
		}
		if len(c.Notes) > 0 {
			fmt.Fprintf(w, "\n     notes: %s", strings.Join(c.Notes, "; "))
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
	fmt.Fprintf(w, "\nModel calls: %d (cache hits %d, HTTP attempts %d, failures %d; at most %d per action), tokens: %d prompt + %d completion, model time %.1fs summed over calls, wall %.1fs\n",
		u.Calls, u.CacheHits, u.Attempts, u.Failures, p.MaxCalls(), u.PromptTokens, u.CompletionTokens, u.Duration.Seconds(), d.Seconds())
	if len(res.Opens) > 0 {
		fmt.Fprintf(w, "\nNeeds in the header: %s\n", strings.Join(res.Opens, "; "))
	}
	fmt.Fprintf(w, "\nChosen stub:\n%s\n", res.Stub)
}

func oneLineSig(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	return s
}
