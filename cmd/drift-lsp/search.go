package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

func init() {
	register("search", "hybrid search over the workspace library", runSearch)
}

// retrievalFlags are the flags shared by search, retrieve and bench
// retrieval: the workspace roots, the cache and declaration dumps.
type retrievalFlags struct {
	index  *indexFlags
	corpus *multiFlag
}

func addRetrievalFlags(fs *flag.FlagSet) *retrievalFlags {
	return &retrievalFlags{index: addIndexFlags(fs), corpus: addCorpusFlag(fs)}
}

// open starts a retrieval engine over the flags' roots and corpora (the
// current directory's workspace when neither is given) under the
// environment's settings, as serve does, and waits until it is ready.
func (f *retrievalFlags) open(ctx context.Context, stderr io.Writer) (*retrieval.Engine, error) {
	s, roots := commandSettings(envSettings(stderr), f.index, *f.corpus)
	return openEngine(ctx, s, roots, stderr)
}

func runSearch(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("search", stderr, "usage: drift-lsp search [--root DIR]... [--corpus FILE.jsonl] [-k N] [--kind def,class,...] [--json] QUERY")
	rf := addRetrievalFlags(fs)
	k := fs.Int("k", 10, "number of hits")
	kinds := fs.String("kind", "", "comma-separated declaration kinds to keep (def,theorem,class,structure,…)")
	asJSON := fs.Bool("json", false, "print hits as JSON")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		fs.Usage()
		return 2
	}
	q := retrieval.Query{Text: query, K: *k}
	for _, kd := range strings.Split(*kinds, ",") {
		if kd = strings.TrimSpace(kd); kd != "" {
			q.Kinds = append(q.Kinds, library.Kind(kd))
		}
	}
	ctx := context.Background()
	e, err := rf.open(ctx, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp search:", err)
		return 1
	}
	defer e.Close()
	hits, err := e.Search(ctx, q)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp search:", err)
		return 1
	}
	if *asJSON {
		lib := e.Library()
		out := make([]mcpserver.Hit, len(hits))
		for i, h := range hits {
			out[i] = app.HitOf(lib, h)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(stderr, "drift-lsp search:", err)
			return 1
		}
		return 0
	}
	if len(hits) == 0 {
		fmt.Fprintln(stdout, "no matches")
	}
	for i, h := range hits {
		d := h.Decl
		fmt.Fprintf(stdout, "%2d. %s  [%s]  %s:%d\n    %s\n", i+1, d.Name, d.Kind, d.File, d.Range.Start.Line+1, textcut.Line(d.Signature, 160))
		if h.Summary != "" {
			fmt.Fprintf(stdout, "    %s\n", textcut.Line(h.Summary, 160))
		}
		if h.Why != "" {
			fmt.Fprintf(stdout, "    why: %s\n", h.Why)
		}
	}
	return 0
}
