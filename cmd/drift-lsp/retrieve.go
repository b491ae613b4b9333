package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

func init() {
	register("retrieve", "premises and illustrative theorems for a statement", runRetrieve)
}

func runRetrieve(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("retrieve", stderr, "usage: drift-lsp retrieve [--root DIR]... [--corpus FILE.jsonl] [-k N] [-m 3] [--json] STATEMENT")
	rf := addRetrievalFlags(fs)
	k := fs.Int("k", 5, "number of premises")
	m := fs.Int("m", 3, "number of illustrative theorems")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	stmt := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(stmt) == "" {
		fs.Usage()
		return 2
	}
	ctx := context.Background()
	e, err := rf.open(ctx, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp retrieve:", err)
		return 1
	}
	defer e.Close()
	prem, err := e.Retrieve(ctx, stmt, nil, *k)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp retrieve:", err)
		return 1
	}
	names := make([]string, len(prem))
	for i, p := range prem {
		names[i] = p.Decl.Name
	}
	ill, err := e.Illustrate(ctx, stmt, names, *m)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp retrieve:", err)
		return 1
	}
	if *asJSON {
		type thm struct {
			mcpserver.Hit
			Covers []string `json:"covers"`
		}
		out := struct {
			Premises     []mcpserver.Hit `json:"premises"`
			Illustrative []thm           `json:"illustrative"`
			Coverage     float64         `json:"coverage"`
		}{Premises: []mcpserver.Hit{}, Illustrative: []thm{}, Coverage: ill.Coverage}
		lib := e.Library()
		for _, p := range prem {
			out.Premises = append(out.Premises, app.HitOf(lib, p.Hit))
		}
		for i, d := range ill.Theorems {
			covers := ill.Covers[i]
			if covers == nil {
				covers = []string{}
			}
			out.Illustrative = append(out.Illustrative, thm{app.HitOf(lib, retrieval.Hit{Decl: d}), covers})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(stderr, "drift-lsp retrieve:", err)
			return 1
		}
		return 0
	}
	fmt.Fprintln(stdout, "Premises:")
	if len(prem) == 0 {
		fmt.Fprintln(stdout, "  (none found)")
	}
	for i, p := range prem {
		d := p.Decl
		fmt.Fprintf(stdout, "%2d. %s  [%s]  %s:%d\n    %s\n", i+1, d.Name, d.Kind, d.File, d.Range.Start.Line+1, textcut.Line(d.Signature, 160))
	}
	fmt.Fprintf(stdout, "\nIllustrative theorems (coverage %.0f%%):\n", 100*ill.Coverage)
	if len(ill.Theorems) == 0 {
		fmt.Fprintln(stdout, "  (none)")
	}
	for i, d := range ill.Theorems {
		fmt.Fprintf(stdout, "%2d. %s  %s:%d  covers %s\n    %s\n", i+1, d.Name, d.File, d.Range.Start.Line+1, strings.Join(ill.Covers[i], ", "), textcut.Line(d.Signature, 200))
	}
	return 0
}
