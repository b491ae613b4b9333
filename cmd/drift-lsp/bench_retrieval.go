package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/drift-lsp/drift-lsp/retrieval"
)

func init() {
	registerBench("retrieval", "premise retrieval quality and latency on a ProofNet-format benchmark", runBenchRetrieval)
}

func runBenchRetrieval(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench retrieval", stderr, "usage: drift-lsp bench retrieval --bench FILE.jsonl [--root DIR]... [--corpus FILE.jsonl] [-k 5] [--leave-one-out] [--json] [--out PER_QUERY.jsonl]")
	rf := addRetrievalFlags(fs)
	bench := fs.String("bench", "", "benchmark JSONL (informal_stmt, mathlib_dependencies)")
	k := fs.Int("k", 5, "cut-off for precision, recall and F1")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	leaveOneOut := fs.Bool("leave-one-out", false, "leave the declaration each query's full_name names out of the graph feedback (the theorem of a `bench mkset --uses` query)")
	out := fs.String("out", "", "write one JSON line per query to this file")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if *bench == "" || *k <= 0 || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	f, err := os.Open(*bench)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench retrieval:", err)
		return 2
	}
	items, err := retrieval.ReadBench(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench retrieval:", err)
		return 2
	}
	if *leaveOneOut {
		for i := range items {
			items[i].LeaveOut = items[i].ID
		}
	}
	ctx := context.Background()
	e, err := rf.open(ctx, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench retrieval:", err)
		return 1
	}
	defer e.Close()
	var per func(retrieval.BenchQuery)
	if *out != "" {
		of, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench retrieval:", err)
			return 1
		}
		defer of.Close()
		enc := json.NewEncoder(of)
		per = func(q retrieval.BenchQuery) { _ = enc.Encode(q) }
	}
	res, err := e.Bench(ctx, items, *k, retrieval.DefaultRanking, per)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench retrieval:", err)
		return 1
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(res); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench retrieval:", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "queries      %d\n", res.Queries)
	fmt.Fprintf(stdout, "P@%d          %.2f\nR@%d          %.2f\nF1@%d         %.2f\n", res.K, res.Precision, res.K, res.Recall, res.K, res.F1)
	for _, c := range []string{"1", "5", "10", "100"} {
		fmt.Fprintf(stdout, "R@%-3s        %.2f\n", c, res.RecallAt[c])
	}
	fmt.Fprintf(stdout, "latency p50  %.1f ms\nlatency p95  %.1f ms\n", res.P50ms, res.P95ms)
	return 0
}
