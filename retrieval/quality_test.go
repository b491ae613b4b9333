package retrieval

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestQualityProofNet runs the premise benchmark when DRIFT_BENCH (a
// ProofNet-format JSONL) and DRIFT_BENCH_CORPUS (a decls JSONL dump) are set;
// DRIFT_BENCH_CACHE optionally keeps the index between runs.
func TestQualityProofNet(t *testing.T) {
	bench, corpus := os.Getenv("DRIFT_BENCH"), os.Getenv("DRIFT_BENCH_CORPUS")
	if bench == "" || corpus == "" {
		t.Skip("set DRIFT_BENCH and DRIFT_BENCH_CORPUS to run the quality benchmark")
	}
	items := readBenchFile(t, bench)
	start := time.Now()
	cfg := Config{Corpus: []string{corpus}, CacheDir: os.Getenv("DRIFT_BENCH_CACHE"), Logf: t.Logf}
	benchEmbedder(t, &cfg)
	e, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("ready in %v", time.Since(start))
	if cfg.Embedder != nil {
		if err := e.WaitEmbedded(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Logf("embedded %d declarations with %s by %v", e.denseCount(), cfg.Embedder.Name(), time.Since(start))
	}
	// DRIFT_RANKING holds ranking overrides, one JSON object per line, each
	// applied on top of DefaultRanking and measured in turn.
	lines := strings.Split(os.Getenv("DRIFT_RANKING"), "\n")
	for _, v := range lines[:len(lines)-1] {
		r := DefaultRanking
		if err := json.Unmarshal([]byte(v), &r); err != nil {
			t.Fatal(err)
		}
		res, err := e.Bench(context.Background(), items, 5, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s => R@5 %.2f P@5 %.2f F1 %.2f R@1 %.2f R@10 %.2f R@100 %.2f p95 %.1fms", v, res.Recall, res.Precision, res.F1, res.RecallAt["1"], res.RecallAt["10"], res.RecallAt["100"], res.P95ms)
	}
	r := DefaultRanking
	if len(lines) > 0 && lines[len(lines)-1] != "" {
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
			t.Fatal(err)
		}
	}
	var per func(BenchQuery)
	if out := os.Getenv("DRIFT_BENCH_OUT"); out != "" {
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		enc := json.NewEncoder(f)
		per = func(q BenchQuery) { _ = enc.Encode(q) }
	}
	res, err := e.Bench(context.Background(), items, 5, r, per)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	t.Logf("%s", b)
}
