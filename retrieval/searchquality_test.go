package retrieval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

// TestSearchAblation runs the search benchmark for the default ranking, the
// plain BM25 baseline and each signal switched off, over every *.jsonl set
// in DRIFT_SEARCH_SETS (for example the output of `drift-lsp bench mkset`),
// on the library at DRIFT_MATHLIB (or the dump DRIFT_BENCH_CORPUS), loading
// it once. DRIFT_SEARCH_CONFIGS limits the configurations (comma-separated:
// default, bm25, -signal, -signal-signal… where -signal toggles a signal).
func TestSearchAblation(t *testing.T) {
	dir := os.Getenv("DRIFT_SEARCH_SETS")
	root, corpus := os.Getenv("DRIFT_MATHLIB"), os.Getenv("DRIFT_BENCH_CORPUS")
	if dir == "" || root == "" && corpus == "" {
		t.Skip("set DRIFT_SEARCH_SETS and DRIFT_MATHLIB or DRIFT_BENCH_CORPUS to run the search ablation")
	}
	sets, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	cfg := Config{CacheDir: os.Getenv("DRIFT_BENCH_CACHE"), Logf: t.Logf}
	if root != "" {
		cfg.Roots = []string{root}
	}
	if corpus != "" {
		cfg.Corpus = []string{corpus}
	}
	e, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if err := e.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	// DRIFT_SEARCH_SHOW names a file of queries (one a line) whose top 5
	// are printed with their explanations.
	if show := os.Getenv("DRIFT_SEARCH_SHOW"); show != "" {
		b, err := os.ReadFile(show)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			hits, err := e.Search(ctx, Query{Text: q, K: 5})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("%s\t[%s]\n", q, DetectIntent(q))
			for i, h := range hits {
				fmt.Printf("  %d. %s (%s) — %s\n", i+1, h.Decl.Name, h.Decl.Kind, h.Why)
			}
		}
	}
	configs := []string{"default", "bm25"}
	for _, s := range SearchSignals {
		configs = append(configs, "-"+s)
	}
	if c := os.Getenv("DRIFT_SEARCH_CONFIGS"); c != "" {
		configs = strings.Split(c, ",")
	}
	for _, set := range sets {
		items := readBenchFile(t, set)
		// Sub-query retrieval (a concept phrase → its top premise) is
		// measured on the items whose gold are all premise-like.
		var premItems []BenchItem
		for _, it := range items {
			ok := true
			for _, g := range it.Gold {
				if d, found := e.Lookup(g); !found || premiseKind(d.Kind) == 0 {
					ok = false
				}
			}
			if ok {
				premItems = append(premItems, it)
			}
		}
		for _, c := range configs {
			if strings.HasPrefix(c, "subquery") {
				// subquery: Retrieve with one sub-query (what DRIFT runs);
				// subquery-premise: the premise ranking it used before;
				// subquery-SIGNAL…: the search ranking without SIGNAL.
				search := func(ctx context.Context, q Query) ([]Hit, error) {
					ps, err := e.Retrieve(ctx, "", []SubQuery{{Informal: q.Text}}, q.K)
					hs := make([]Hit, len(ps))
					for i, p := range ps {
						hs[i] = p.Hit
					}
					return hs, err
				}
				switch offs := strings.TrimPrefix(c, "subquery"); {
				case offs == "-premise":
					search = func(ctx context.Context, q Query) ([]Hit, error) {
						s, err := e.current()
						if err != nil {
							return nil, err
						}
						return e.rankPremises(ctx, s, q.Text, "", "", q.K, e.ranking)
					}
				case offs != "":
					r := DefaultSearch
					for _, sig := range strings.Split(offs[1:], "-") {
						if r, err = r.Toggle(sig); err != nil {
							t.Fatal(err)
						}
					}
					search = func(ctx context.Context, q Query) ([]Hit, error) {
						q.Kinds = PremiseKinds
						return e.SearchWith(ctx, q, r)
					}
				}
				res, err := BenchSearch(ctx, premItems, 10, search, nil)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Printf("DRIFT_SEARCH\t%s\t%s\tn=%d\tR@1 %.2f\tR@5 %.2f\tR@10 %.2f\tMRR %.2f\tp50 %.1f ms\tp95 %.1f ms\n",
					filepath.Base(set), c, res.Queries, res.RecallAt["1"], res.RecallAt["5"], res.RecallAt["10"], res.MRR, res.P50ms, res.P95ms)
				continue
			}
			r := DefaultSearch
			switch {
			case c == "bm25":
				r = BaselineSearch
			case strings.HasPrefix(c, "-"):
				for _, sig := range strings.Split(c[1:], "-") {
					if r, err = r.Toggle(sig); err != nil {
						t.Fatal(err)
					}
				}
			}
			var per func(SearchBenchQuery)
			if out := os.Getenv("DRIFT_SEARCH_OUT"); out != "" {
				of, err := os.Create(filepath.Join(out, strings.TrimSuffix(filepath.Base(set), ".jsonl")+"."+c+".per.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				defer of.Close()
				enc := json.NewEncoder(of)
				per = func(q SearchBenchQuery) { _ = enc.Encode(q) }
			}
			res, err := BenchSearch(ctx, items, 10, func(ctx context.Context, q Query) ([]Hit, error) { return e.SearchWith(ctx, q, r) }, per)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("DRIFT_SEARCH\t%s\t%s\tn=%d\tR@1 %.2f\tR@5 %.2f\tR@10 %.2f\tMRR %.2f\tp50 %.1f ms\tp95 %.1f ms\n",
				filepath.Base(set), c, res.Queries, res.RecallAt["1"], res.RecallAt["5"], res.RecallAt["10"], res.MRR, res.P50ms, res.P95ms)
		}
	}
}

// readBenchFile reads a benchmark file in the bench retrieval format.
func readBenchFile(tb testing.TB, path string) []BenchItem {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	items, err := ReadBench(f)
	if err != nil {
		tb.Fatal(err)
	}
	return items
}

// benchEmbedder gives cfg the configured embedder when DRIFT_BENCH_EMBED is
// set, and skips the test when none can be built.
func benchEmbedder(t *testing.T, cfg *Config) {
	if os.Getenv("DRIFT_BENCH_EMBED") == "" {
		return
	}
	emb, warn := embed.Default(embed.ConfigOf(settings.FromEnv(os.Getenv)))
	if emb == nil {
		t.Skip(warn)
	}
	cfg.Embedder = emb
}
