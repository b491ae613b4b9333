package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// benchTB reports the fake model's request-shape errors on stderr.
type benchTB struct{ w io.Writer }

// Errorf prints one error of the fake model.
func (b benchTB) Errorf(format string, args ...any) {
	fmt.Fprintf(b.w, "fake model: "+format+"\n", args...)
}

// Helper does nothing; it completes the fake model's testing.TB subset.
func (b benchTB) Helper() {}

func runBenchLSP(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("drift-bench lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", os.Getenv("DRIFT_MATHLIB"), "workspace to index (default $DRIFT_MATHLIB)")
	file := fs.String("file", "", "Lean file to edit (default: the largest .lean file under --root)")
	cache := fs.String("cache", "", "index cache directory (default: a temporary directory, i.e. a cold index)")
	requests := fs.Int("requests", 300, "measured requests of each kind")
	soak := fs.Int("soak", 3000, "edits in the soak phase")
	modelURL := fs.String("model-url", "", "OpenAI-compatible endpoint for the formalize job (default: the built-in fake model)")
	delay := fs.Duration("model-delay", 300*time.Millisecond, "answer delay of the built-in fake model")
	settle := fs.Duration("settle", 10*time.Second, "pause after the index is ready, before measuring")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *root == "" {
		fmt.Fprintln(stderr, "drift-bench lsp: --root (or DRIFT_MATHLIB) is required")
		return 2
	}
	url := *modelURL
	if url == "" {
		ws := llmtest.Workspace()
		srv := llmtest.New(benchTB{stderr}, func(n int, req llmtest.Request) llmtest.Reply {
			r := ws(n, req)
			r.Delay = *delay
			return r
		})
		defer srv.Close()
		url = srv.URL
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := runSession(ctx, sessionConfig{
		Root: *root, File: *file, CacheDir: *cache, ModelURL: url, Requests: *requests, SoakEdits: *soak, Settle: *settle,
		Logf: func(format string, args ...any) { fmt.Fprintf(stderr, "bench lsp: "+format+"\n", args...) },
	})
	if err != nil {
		fmt.Fprintf(stderr, "drift-bench lsp: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
		return 0
	}
	row := func(name string, l latency) {
		fmt.Fprintf(stdout, "%-28s n=%-5d p50=%7.2f ms  p95=%7.2f ms  max=%7.2f ms\n", name, l.N, l.P50, l.P95, l.Max)
	}
	fmt.Fprintf(stdout, "file %s (%d lines); index %d decls in %.1fs; initialize %.2f ms\n", res.File, res.FileLines, res.Decls, res.IndexSeconds, res.InitializeMS)
	row("textDocument/codeAction", res.CodeAction)
	row("workspace/symbol", res.Symbol)
	row("edit → searchable", res.EditSearchable)
	row("during job: codeAction", res.DuringJobActions)
	row("during job: workspace/symbol", res.DuringJobSymbol)
	fmt.Fprintf(stdout, "formalize job: %.1fs, %s\n", res.JobSeconds, strings.TrimSpace(res.JobOutcome))
	fmt.Fprintf(stdout, "soak: %d edits + %d requests in %.1fs; RSS %.0f → %.0f MiB (%.0f before indexing); heap %.0f → %.0f MiB; goroutines %d → %d\n",
		res.SoakEdits, res.SoakActions, res.SoakSeconds, res.RSSStartMB, res.RSSEndMB, res.RSSBeforeIndexMB, res.HeapStartMB, res.HeapEndMB, res.Goroutines[0], res.Goroutines[1])
	return 0
}
