package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/blueprint"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/lsp"
)

func init() {
	register("blueprint", "formalize a leanblueprint's nodes that have no Lean yet, in \\uses order, into a Lean file", runBlueprint)
}

func runBlueprint(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("blueprint", stderr)
	idx := addIndexFlags(fs)
	corpusFlag := addCorpusFlag(fs)
	tex := fs.String("tex", "", "the blueprint's source directory, holding content.tex (default: blueprint/src under a root)")
	outPath := fs.String("out", "", "Lean file the stubs are appended to (kept as it is otherwise; read to resume); without it nothing is written")
	only := fs.String("only", "", "comma-separated labels: formalize only these nodes")
	limit := fs.Int("limit", 0, "formalize at most N nodes (in \\uses order)")
	header := fs.String("header", "", "header (imports, opens) the stubs are checked under and a new --out starts with (default: --out's header)")
	repl := fs.String("repl", "", "shell command starting a Lean REPL to check stubs with (default: a repl found in the workspace)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: drift-lsp blueprint [--root DIR]... [--tex DIR] [--out FILE.lean] [--only LABEL,...] [--limit N] [--header TEXT] [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	s, roots := commandSettings(envSettings(stderr), idx, *corpusFlag)
	if *repl != "" {
		s.REPL.Command = *repl
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var report progress.Func
	if !*asJSON {
		report = printProgress(stderr)
	}
	// Without a model the report still says which nodes are in Lean.
	client, localModel, err := app.NewModel(s, func(format string, args ...any) { fmt.Fprintf(stderr, "drift-lsp: "+format+"\n", args...) }, nil)
	if errors.Is(err, lsp.ErrNoModel) {
		fmt.Fprintf(stderr, "drift-lsp blueprint: %v; reporting the nodes' status only\n", err)
		client = nil
	} else if err != nil {
		fmt.Fprintf(stderr, "drift-lsp blueprint: %v\n", err)
		return 2
	}
	if localModel != nil {
		defer localModel.Close()
	}
	if client != nil {
		startModel(ctx, client, report)
	}
	eng, err := app.OpenEngine(ctx, s, roots, false, commandLog(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp blueprint: %v\n", err)
		return 2
	}
	defer eng.Close()
	if err := waitEngine(ctx, eng); err != nil {
		fmt.Fprintf(stderr, "drift-lsp blueprint: index: %v\n", err)
		return 1
	}
	job := app.BlueprintJob{Roots: append(roots, "."), Tex: *tex, Out: *outPath, Header: *header, Limit: *limit, Concurrency: s.Pipeline.Concurrency}
	if *only != "" {
		job.Only = strings.Split(*only, ",")
	}
	var pl *drift.Pipeline
	var checker *leanrepl.Checker
	if client != nil {
		var pool *leanrepl.Pool
		checker, pool, err = app.OpenChecker(eng, s, checkRoot(roots), app.CheckOptions{}, nil)
		if err != nil && *repl != "" {
			fmt.Fprintf(stderr, "drift-lsp blueprint: Lean REPL: %v\n", err)
		}
		if pool != nil {
			defer pool.Close()
		}
		// The pipeline's parameters: the settings', as `formalize` without
		// flags and the editor.
		pl = drift.New(eng, client, checker, app.PipelineParams(s))
		if report != nil {
			job.NodeProgress = func(label string, e progress.Event) {
				report(progress.Event{Stage: e.Stage, Message: label + ": " + e.Message})
			}
		}
	}
	var mu sync.Mutex
	if !*asJSON {
		job.Loaded = func(dir string, bp *blueprint.Blueprint) {
			fmt.Fprintf(stderr, "drift-lsp blueprint: %d nodes in %s (%d files)\n", len(bp.Nodes), dir, len(bp.Files))
		}
		job.Started = func(n *blueprint.Node) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, "drift-lsp blueprint: formalizing %s (%s)…\n", n.Label, n.Env)
		}
		job.Progress = func(r blueprint.NodeResult, done, total int) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stdout, "[%*d/%d] %-12s %-10s %-40s %s\n", len(fmt.Sprint(total)), done, total, r.Status, r.Env, r.Label, nodeDetail(r))
		}
	}
	rep, err := app.RunBlueprint(ctx, eng, pl, checker, job)
	if errors.Is(err, blueprint.ErrNotFound) || rep == nil && err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "drift-lsp blueprint: %v\n", err)
		return 2
	}
	if rep == nil {
		fmt.Fprintln(stderr, "drift-lsp blueprint: interrupted")
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "drift-lsp blueprint: %v\n", err)
			return 1
		}
	} else {
		for _, w := range rep.Warnings {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
		sm := rep.Summary
		fmt.Fprintf(stdout, "\n%d nodes: %d in Lean, %d stubbed, %d failed, %d without a statement, %d skipped; %d model calls\n",
			sm.Nodes, sm.InLean, sm.Stubbed, sm.Failed, sm.NoStatement, sm.Skipped, sm.ModelCalls)
		if *outPath != "" && sm.Stubbed+sm.Failed > 0 {
			fmt.Fprintf(stdout, "Stubs written to %s\n", *outPath)
		}
	}
	switch {
	case rep.Summary.Cancelled:
		fmt.Fprintln(stderr, "drift-lsp blueprint: interrupted; every finished node is kept")
		return 1
	case rep.Summary.Failed > 0:
		return 1
	}
	return 0
}

// nodeDetail is a node's last column: its name and verdict or why.
func nodeDetail(r blueprint.NodeResult) string {
	name := strings.Join(r.Lean, ", ")
	switch {
	case r.Error != "":
		return name + " — " + r.Error
	case r.Status == blueprint.Failed:
		return name + " — FAILED: " + r.Verdict
	case r.Status == blueprint.Stubbed:
		return name + " — " + r.Verdict
	}
	return name
}
