package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/cmd/internal/docref"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

func init() {
	register("lint-docs", "report names in comments and docstrings that do not resolve (exit 1 when any)", runLintDocs)
}

// lintFinding is the --json form of one finding.
type lintFinding struct {
	File        string   `json:"file"`
	Line        int      `json:"line"`
	Col         int      `json:"col"`
	Name        string   `json:"name"`
	Status      string   `json:"status"`
	Target      string   `json:"target,omitempty"`
	Suggestions []string `json:"suggestions"`
	Sure        bool     `json:"sure"`
	Fixed       bool     `json:"fixed,omitempty"`
}

func runLintDocs(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("lint-docs", stderr, "usage: drift-lsp lint-docs [--root DIR]... [--cache DIR] [--json] [--fix]")
	f := addIndexFlags(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per finding")
	fix := fs.Bool("fix", false, "rewrite references that have one unambiguous suggestion (atomic writes, comments only)")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	lib, err := f.load(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp lint-docs: %v\n", err)
		return 2
	}
	ix := names.New(lib.Decls())
	reports, refs, err := docref.Lint(ctx, lib, ix, library.Parser(f.cache, lib.Workspace()), 0)
	if err != nil {
		fmt.Fprintf(stderr, "drift-lsp lint-docs: %v\n", err)
		return 2
	}
	wsDir := lib.Workspace().Dir
	found, fixed, failed := 0, 0, false
	enc := json.NewEncoder(stdout)
	for _, r := range reports {
		rel := r.Path
		if p, err := filepath.Rel(wsDir, r.Path); err == nil && !strings.HasPrefix(p, "..") {
			rel = p
		}
		done := map[int]bool{}
		if *fix {
			n, err := fixFile(r)
			if err != nil {
				fmt.Fprintf(stderr, "drift-lsp lint-docs: %s: %v\n", rel, err)
				failed = true
			}
			if n > 0 {
				fixed += n
				for _, x := range r.Findings {
					if x.Sure && len(x.Suggestions) > 0 {
						done[x.Start] = true
					}
				}
			}
		}
		for _, x := range r.Findings {
			found++
			line, col := x.Range.Start.Line+1, x.Range.Start.Character+1
			if *asJSON {
				sugg := x.Suggestions
				if sugg == nil {
					sugg = []string{}
				}
				_ = enc.Encode(lintFinding{File: rel, Line: line, Col: col, Name: x.Name, Status: x.Status.String(),
					Target: x.Target, Suggestions: sugg, Sure: x.Sure, Fixed: done[x.Start]})
				continue
			}
			fmt.Fprintf(stdout, "%s:%d:%d %s → %s\n", rel, line, col, x.Name, describe(x, done[x.Start]))
		}
	}
	fmt.Fprintf(stderr, "drift-lsp lint-docs: %d findings among %d references in %d files (%.1f s)", found, refs,
		len(lib.Files()), time.Since(start).Seconds())
	if *fix {
		fmt.Fprintf(stderr, "; %d fixed", fixed)
	}
	fmt.Fprintln(stderr)
	if failed {
		return 2
	}
	if found > fixed {
		return 1
	}
	return 0
}

// describe renders the right-hand side of a finding's line.
func describe(x docref.Finding, fixed bool) string {
	var s string
	switch {
	case x.Status == docref.Deprecated && len(x.Suggestions) > 0:
		s = x.Suggestions[0] + " (deprecated alias)"
	case x.Status == docref.Deprecated:
		s = "? (deprecated, no replacement named)"
	case len(x.Suggestions) == 0:
		s = "?"
	case x.Sure:
		s = x.Suggestions[0]
	default:
		s = strings.Join(x.Suggestions, " | ") + " (ambiguous)"
	}
	if fixed {
		s += " (fixed)"
	}
	return s
}

// fixFile rewrites a file's sure findings in place, only when the file on
// disk is still the text the findings were computed from.
func fixFile(r docref.FileReport) (int, error) {
	raw, err := os.ReadFile(r.Path)
	if err != nil {
		return 0, err
	}
	if prepared, _ := leansrc.Prepare(raw); !bytes.Equal(prepared, raw) || !bytes.Equal(raw, r.Src) {
		return 0, fmt.Errorf("not rewritten: the file changed, or has a byte order mark or invalid UTF-8")
	}
	out, n, err := docref.Fix(raw, r.Findings)
	if err != nil || n == 0 {
		return 0, err
	}
	return n, docref.WriteAtomic(r.Path, out)
}
