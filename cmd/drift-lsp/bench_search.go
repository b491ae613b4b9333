package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/drift-lsp/drift-lsp/retrieval"
)

func init() {
	registerBench("search", "library search quality (R@1/5/10, MRR) and latency on ProofNet-format sets (dev, test, an out-of-distribution library)", runBenchSearch)
}

// searchSet is one benchmark file of `bench search` and the library it runs
// on (an index into the libraries: the main one, then the
// out-of-distribution ones).
type searchSet struct {
	path  string
	items []retrieval.BenchItem
	lib   int
}

func runBenchSearch(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench search", stderr,
		"usage: drift-lsp bench search --bench FILE.jsonl... [--root DIR]... [--corpus FILE.jsonl] [--ood-bench FILE.jsonl... --ood-root DIR | --ood-corpus FILE.jsonl] [--ood-lib ROOT=FILE.jsonl[,FILE.jsonl]...]... [-k 10] [--json] [--out PER_QUERY.jsonl] [--baseline | --toggle SIGNAL,...]",
		"Runs Engine.Search over every --bench set (for example the dev and test halves of `bench mkset`) on the",
		"library of --root/--corpus, over every --ood-bench set on a second, out-of-distribution library",
		"(--ood-root/--ood-corpus, e.g. Batteries), and over the sets of each --ood-lib on the library at its root",
		"(e.g. Con-NF); prints one row per set (one JSON object per set with --json).")
	rf := addRetrievalFlags(fs)
	var benches, oodBenches, oodRoots, oodCorpus, oodLibs multiFlag
	fs.Var(&benches, "bench", "benchmark JSONL (query = informal_stmt, gold = mathlib_dependencies; repeatable)")
	fs.Var(&oodBenches, "ood-bench", "benchmark JSONL over the out-of-distribution library (repeatable)")
	fs.Var(&oodRoots, "ood-root", "root of the out-of-distribution library (repeatable)")
	fs.Var(&oodCorpus, "ood-corpus", "declaration dump of the out-of-distribution library (repeatable)")
	fs.Var(&oodLibs, "ood-lib", "another out-of-distribution library: ROOT=FILE.jsonl[,FILE.jsonl...], its root and its sets (repeatable)")
	k := fs.Int("k", 10, "cut-off for MRR (recall is reported at 1, 5, 10 and k)")
	asJSON := fs.Bool("json", false, "print each set's result as one JSON object")
	out := fs.String("out", "", "write one JSON line per query to this file")
	baseline := fs.Bool("baseline", false, "rank by plain BM25 over split names and docstrings instead (the baseline)")
	off := fs.String("toggle", "", "switch these search signals (ablation; on ones off, off ones on): "+strings.Join(retrieval.SearchSignals, ","))
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	oodLib := len(oodRoots) > 0 || len(oodCorpus) > 0
	if len(benches)+len(oodBenches)+len(oodLibs) == 0 || *k <= 0 || fs.NArg() > 0 || *baseline && *off != "" || len(oodBenches) > 0 != oodLib {
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
	// The libraries: the main one, the out-of-distribution one, then one
	// per --ood-lib.
	libs := []*retrievalFlags{rf, {index: &indexFlags{roots: oodRoots, cache: rf.index.cache}, corpus: &oodCorpus}}
	paths := [][]string{benches, oodBenches}
	for _, l := range oodLibs {
		root, files, ok := strings.Cut(l, "=")
		if !ok || root == "" || files == "" {
			fmt.Fprintf(stderr, "drift-lsp bench search: --ood-lib %q: want ROOT=FILE.jsonl[,FILE.jsonl...]\n", l)
			return 2
		}
		libs = append(libs, &retrievalFlags{index: &indexFlags{roots: multiFlag{root}, cache: rf.index.cache}, corpus: &multiFlag{}})
		paths = append(paths, strings.Split(files, ","))
	}
	var sets []searchSet
	for lib, ps := range paths {
		for _, p := range ps {
			items, err := readBenchItems(p)
			if err != nil {
				fmt.Fprintln(stderr, "drift-lsp bench search:", err)
				return 2
			}
			sets = append(sets, searchSet{path: p, items: items, lib: lib})
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
	ctx := context.Background()
	if !*asJSON {
		fmt.Fprintf(stdout, "%-24s %7s %7s %7s %7s %7s %8s %8s %8s\n", "set", "queries", "R@1", "R@5", "R@10", fmt.Sprintf("MRR@%d", *k), fmt.Sprintf("nDCG@%d", *k), "p50 ms", "p95 ms")
	}
	for lib, flags := range libs {
		var mine []searchSet
		for _, s := range sets {
			if s.lib == lib {
				mine = append(mine, s)
			}
		}
		if len(mine) == 0 {
			continue
		}
		e, err := flags.open(ctx, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench search:", err)
			return 1
		}
		// The default is Engine.Search itself: the ranking workspace/symbol,
		// the editor commands and `drift-lsp search` run.
		search := e.Search
		if ranking != retrieval.DefaultSearch {
			search = func(ctx context.Context, q retrieval.Query) ([]retrieval.Hit, error) {
				return e.SearchWith(ctx, q, ranking)
			}
		}
		for _, s := range mine {
			for i := range s.items {
				// The kind of a query is its gold declaration's.
				if it := &s.items[i]; it.Kind == "" && len(it.Gold) > 0 {
					if d, ok := e.Lookup(it.Gold[0]); ok {
						it.Kind = string(d.Kind)
					}
				}
			}
			res, err := retrieval.BenchSearch(ctx, s.items, *k, search, per)
			if err != nil {
				e.Close()
				fmt.Fprintln(stderr, "drift-lsp bench search:", err)
				return 1
			}
			res.Set = strings.TrimSuffix(filepath.Base(s.path), ".jsonl")
			if *asJSON {
				if err := json.NewEncoder(stdout).Encode(res); err != nil {
					e.Close()
					fmt.Fprintln(stderr, "drift-lsp bench search:", err)
					return 1
				}
				continue
			}
			fmt.Fprintf(stdout, "%-24s %7d %7.2f %7.2f %7.2f %7.2f %8.2f %8.1f %8.1f\n", res.Set, res.Queries,
				res.RecallAt["1"], res.RecallAt["5"], res.RecallAt["10"], res.MRR, res.NDCG, res.P50ms, res.P95ms)
			if len(res.Groups) > 1 {
				for _, g := range res.Groups {
					fmt.Fprintf(stdout, "  %-22s %7d %7.2f %7.2f %7.2f %7.2f %8.2f\n", g.By+"="+g.Value, g.Queries,
						g.RecallAt["1"], g.RecallAt["5"], g.RecallAt["10"], g.MRR, g.NDCG)
				}
			}
		}
		e.Close()
	}
	return 0
}

// readBenchItems reads one benchmark file.
func readBenchItems(path string) ([]retrieval.BenchItem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return retrieval.ReadBench(f)
}
