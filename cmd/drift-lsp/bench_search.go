package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/drift-lsp/drift-lsp/retrieval"
)

func init() {
	registerBench("search", "library search quality (R@1/5/10, MRR) and latency on a ProofNet-format benchmark", runBenchSearch)
}

func runBenchSearch(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench search", stderr, "usage: drift-lsp bench search --bench FILE.jsonl [--root DIR]... [--corpus FILE.jsonl] [-k 10] [--json] [--out PER_QUERY.jsonl] [--baseline | --toggle SIGNAL,...]")
	rf := addRetrievalFlags(fs)
	bench := fs.String("bench", "", "benchmark JSONL (query = informal_stmt, gold = mathlib_dependencies)")
	k := fs.Int("k", 10, "cut-off for MRR (recall is reported at 1, 5, 10 and k)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	out := fs.String("out", "", "write one JSON line per query to this file")
	baseline := fs.Bool("baseline", false, "rank by plain BM25 over split names and docstrings instead (the baseline)")
	off := fs.String("toggle", "", "switch these search signals (ablation; on ones off, off ones on): "+strings.Join(retrieval.SearchSignals, ","))
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if *bench == "" || *k <= 0 || fs.NArg() > 0 || *baseline && *off != "" {
		fs.Usage()
		return 2
	}
	ranking := retrieval.DefaultSearch
	if *baseline {
		ranking = retrieval.BaselineSearch
	}
	for _, sig := range strings.Split(*off, ",") {
		if sig = strings.TrimSpace(sig); sig == "" {
			continue
		}
		var err error
		if ranking, err = ranking.Toggle(sig); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench search:", err)
			return 2
		}
	}
	f, err := os.Open(*bench)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench search:", err)
		return 2
	}
	items, err := retrieval.ReadBench(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench search:", err)
		return 2
	}
	ctx := context.Background()
	e, err := rf.open(ctx, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench search:", err)
		return 1
	}
	defer e.Close()
	// The default is Engine.Search itself: the ranking workspace/symbol,
	// the editor commands and `drift-lsp search` run.
	search := e.Search
	if ranking != retrieval.DefaultSearch {
		search = func(ctx context.Context, q retrieval.Query) ([]retrieval.Hit, error) {
			return e.SearchWith(ctx, q, ranking)
		}
	}
	var per func(retrieval.SearchBenchQuery)
	if *out != "" {
		of, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench search:", err)
			return 1
		}
		defer of.Close()
		enc := json.NewEncoder(of)
		per = func(q retrieval.SearchBenchQuery) { _ = enc.Encode(q) }
	}
	res, err := retrieval.BenchSearch(ctx, items, *k, search, per)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench search:", err)
		return 1
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(res); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench search:", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "queries      %d\n", res.Queries)
	cuts := []string{"1", "5", "10"}
	if res.K != 1 && res.K != 5 && res.K != 10 {
		cuts = append(cuts, fmt.Sprint(res.K))
	}
	for _, c := range cuts {
		fmt.Fprintf(stdout, "R@%-3s        %.2f\n", c, res.RecallAt[c])
	}
	fmt.Fprintf(stdout, "MRR@%-3d      %.2f\n", res.K, res.MRR)
	fmt.Fprintf(stdout, "latency p50  %.1f ms\nlatency p95  %.1f ms\n", res.P50ms, res.P95ms)
	return 0
}
