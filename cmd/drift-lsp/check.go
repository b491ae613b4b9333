package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/leanrepl"
)

func init() {
	register("check", "check a theorem stub: safety gate, unknown names, lints, Lean", runCheck)
}

// checkOutput is the --json form of `drift-lsp check`: the report and the
// header it was checked under.
type checkOutput struct {
	leanrepl.ReportJSON
	Header string  `json:"header"`
	Ms     float64 `json:"check_ms"`
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", stderr)
	idx := addIndexFlags(fs)
	corpusFlag := addCorpusFlag(fs)
	repl := fs.String("repl", "", "shell command that starts a Lean REPL (default: a repl built under the workspace's .lake or on PATH)")
	leanCmd := fs.String("lean", "", "command that runs lean (split at spaces), used when no REPL is found (default: lake env lean in a Lake workspace, else the lean of its lean-toolchain or on PATH)")
	noLean := fs.Bool("no-lean", false, "do not run Lean even if a REPL or lean is found")
	header := fs.String("header", "", "file header (imports and opens) the stub is checked under (default: \"import Mathlib\" when the workspace uses Mathlib)")
	timeout := fs.Duration("timeout", leanrepl.DefaultTimeout, "deadline for Lean to check the stub")
	importTimeout := fs.Duration("import-timeout", leanrepl.DefaultImportTimeout, "deadline for Lean to import the header")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	statement := fs.String("statement", "", "the informal statement the stub formalizes: check that the stub covers each of its conditions")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: drift-lsp check [--root DIR]... [--corpus FILE.jsonl] [--repl CMD] [--lean CMD] [--statement TEXT] [--json] "theorem foo … := by sorry"`)
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nexit status: 0 the stub passed every check that ran, 1 a check failed, 2 usage or setup error")
	}
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	stub := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if stub == "" {
		fs.Usage()
		return 2
	}
	s, roots := commandSettings(envSettings(stderr), idx, *corpusFlag)
	if *repl != "" {
		s.REPL.Command = *repl
	}
	if *leanCmd != "" {
		s.Lean.Command = *leanCmd
	}
	hdr := *header
	if hdr == "" {
		hdr = app.DefaultHeader(roots)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	// The gate needs nothing: refuse hostile input before loading anything.
	if _, err := leanrepl.Gate(stub); err != nil {
		rep, _ := leanrepl.NewChecker(leanrepl.CheckerConfig{}).Check(ctx, leanrepl.CheckRequest{Header: hdr, Stub: stub})
		return printCheck(stdout, stderr, rep, hdr, 0, *asJSON)
	}

	// The engine as serve opens it; the checks need its names, not its
	// ranking, so the command does not wait for the embedding.
	eng, err := app.OpenEngine(ctx, s, roots, false, commandLog(stderr))
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp check: %v\n", err)
		return 2
	}
	defer eng.Close()
	if err := eng.WaitReady(ctx); err != nil {
		fmt.Fprintf(stderr, "drift-lsp check: index: %v\n", err)
		return 2
	}
	opts := app.CheckOptions{Timeout: *timeout, ImportTimeout: *importTimeout, CacheDir: s.Cache()}
	if *noLean {
		opts.NoLean = "Lean was not run: --no-lean"
	}
	checker, pool, err := app.OpenChecker(eng, s, checkRoot(roots), opts, nil)
	switch {
	case err != nil && (s.REPL.Command != "" || s.Lean.Command != ""):
		fmt.Fprintf(stderr, "drift-lsp check: %v\n", err)
		return 2
	case err != nil:
		// The JSON report's lean_skipped has always carried this prefix.
		opts.NoLean = "Lean was not run: " + err.Error()
		checker, _, _ = app.OpenChecker(eng, s, checkRoot(roots), opts, nil)
	}
	if pool != nil {
		defer pool.Close()
	}
	start := time.Now()
	rep, err := checker.Check(ctx, leanrepl.CheckRequest{Header: hdr, Stub: stub, Statement: *statement})
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp check: %v\n", err)
		return 2
	}
	return printCheck(stdout, stderr, rep, hdr, time.Since(start), *asJSON)
}

// printCheck prints the report and returns the exit status.
func printCheck(stdout, stderr io.Writer, rep *leanrepl.Report, header string, took time.Duration, asJSON bool) int {
	code := 0
	switch {
	case rep.LeanFailed:
		code = 2
	case !rep.Passed():
		code = 1
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(checkOutput{ReportJSON: rep.JSON(), Header: header, Ms: float64(took.Microseconds()) / 1000}); err != nil {
			fmt.Fprintf(stderr, "drift-lsp check: %v\n", err)
			return 2
		}
		return code
	}
	w := func(format string, args ...any) { fmt.Fprintf(stdout, format+"\n", args...) }
	if !rep.GatePassed {
		w("gate:  REJECTED — %s", rep.GateReason)
		w("names: not checked; lints: not checked")
		w("lean:  not run — the stub was rejected by the safety gate")
		w("verdict: FAIL")
		return code
	}
	what := rep.Parsed.Keyword
	if rep.Parsed.Name != "" {
		what += " " + rep.Parsed.Name
	}
	w("gate:  passed (%s)", what)
	fs := rep.Findings()
	switch {
	case rep.NamesSkipped != "":
		w("names: not checked — %s", rep.NamesSkipped)
	case len(rep.Unknown) == 0:
		w("names: all known")
	default:
		w("names: %d unknown", len(rep.Unknown))
		printFindings(w, fs, func(f leanrepl.Finding) bool { return f.Code == leanrepl.CodeUnknownName })
	}
	if len(rep.Types) > 0 {
		w("types: %d ill-typed application(s)", len(rep.Types))
		printFindings(w, fs, func(f leanrepl.Finding) bool { return f.Code == leanrepl.CodeType })
	}
	if len(rep.Lints) == 0 {
		w("lints: none")
	} else {
		w("lints: %d", len(rep.Lints))
		printFindings(w, fs, func(f leanrepl.Finding) bool {
			return f.Severity == leanrepl.SeverityWarning && f.Code != leanrepl.CodeLean
		})
	}
	switch {
	case rep.LeanFailed:
		w("lean:  FAILED — %s", rep.LeanSkipped)
	case !rep.LeanRan:
		w("lean:  not run — %s", strings.TrimPrefix(rep.LeanSkipped, "Lean was not run: "))
	case rep.LeanOK:
		w("lean:  accepted")
	default:
		w("lean:  %s", rep.LeanVerdict())
	}
	printFindings(w, fs, func(f leanrepl.Finding) bool { return f.Code == leanrepl.CodeLean })
	if rep.LeanBackend != "" {
		w("backend: %s — %s", rep.LeanBackend, rep.LeanCommand)
	}
	switch f := rep.Falsifier; {
	case rep.Refuted():
		w("falsifier: REFUTED")
		printFindings(w, fs, func(f leanrepl.Finding) bool { return f.Code == leanrepl.CodeRefuted })
	case f.Verdict == falsify.NotRefuted:
		w("falsifier: not refuted (%d assignments)", f.Assignments)
	default:
		w("falsifier: undecided — %s", f.Reason)
	}
	if rep.Coverage != nil {
		if n := len(rep.CoverageFindings()); n > 0 {
			w("coverage: %d of %d conditions omitted", n, len(rep.Coverage.Conditions))
			printFindings(w, fs, func(f leanrepl.Finding) bool { return f.Code == leanrepl.CodeCoverage })
		} else {
			w("coverage: %s", rep.Coverage.Verdict())
		}
	}
	verdict := "PASS"
	if code != 0 {
		verdict = "FAIL"
	}
	if code == 0 && !rep.LeanRan {
		verdict = "PASS (without Lean)"
	}
	w("verdict: %s (checked in %.1f ms)", verdict, float64(took.Microseconds())/1000)
	return code
}

// printFindings prints the findings that keep, one a line, at their
// position.
func printFindings(w func(string, ...any), fs []leanrepl.Finding, keep func(leanrepl.Finding) bool) {
	for _, f := range fs {
		if !keep(f) {
			continue
		}
		kind := f.Code
		if f.Category != "" {
			kind = f.Severity.String() + ", " + f.Category
		}
		at := fmt.Sprintf("%d:%d ", f.Line, max(f.Column, 0))
		if f.Start < 0 {
			at = "" // about the whole stub
		}
		w("  %s[%s] %s", at, kind, strings.ReplaceAll(f.Message, "\n", "\n    "))
	}
}

func checkRoot(roots []string) string {
	if len(roots) == 0 {
		return "."
	}
	return roots[0]
}
