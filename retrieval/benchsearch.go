package retrieval

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// SearchBenchResult is the outcome of a search benchmark; the JSON keys are
// the stable output of `drift-lsp bench search --json`. A query counts as
// found at n when one of its gold declarations is among the first n hits;
// MRR is the mean reciprocal rank of the first gold hit within k. Rates are
// percentages.
type SearchBenchResult struct {
	// Set names the benchmark file (bench search with several sets).
	Set      string             `json:"set,omitempty"`
	K        int                `json:"k"`
	Queries  int                `json:"queries"`
	RecallAt map[string]float64 `json:"recall_at"`
	MRR      float64            `json:"mrr"`
	P50ms    float64            `json:"p50_ms"`
	P95ms    float64            `json:"p95_ms"`
}

// SearchBenchQuery is the per-query record of a search benchmark.
type SearchBenchQuery struct {
	ID    string   `json:"id"`
	Query string   `json:"query"`
	Gold  []string `json:"gold"`
	Hits  []string `json:"hits"`
	// Rank is the 1-based rank of the first gold hit (0: not in the top k).
	Rank int     `json:"rank"`
	Ms   float64 `json:"ms"`
}

// BenchSearch runs search for every item (query = the informal statement,
// gold = its declarations) and reports recall at 1, 5 and 10 (and k), MRR@k
// and latency percentiles. search is the ranking under test: Engine.Search
// (what workspace/symbol runs) or an ablation; perQuery, when non-nil,
// receives one record per item.
func BenchSearch(ctx context.Context, items []BenchItem, k int, search func(context.Context, Query) ([]Hit, error), perQuery func(SearchBenchQuery)) (SearchBenchResult, error) {
	res := SearchBenchResult{K: k, RecallAt: map[string]float64{}}
	cuts := []int{1, 5, 10}
	if k != 1 && k != 5 && k != 10 {
		cuts = append(cuts, k)
	}
	found := make([]int, len(cuts))
	var lat []float64
	var rr float64
	for _, it := range items {
		start := time.Now()
		hits, err := search(ctx, Query{Text: it.Query, K: max(k, 10)})
		ms := float64(time.Since(start).Microseconds()) / 1000
		if err != nil && err != ErrEmptyQuery {
			return res, fmt.Errorf("query %s: %w", it.ID, err)
		}
		lat = append(lat, ms)
		gold := map[string]bool{}
		for _, g := range it.Gold {
			gold[g] = true
		}
		names := make([]string, len(hits))
		rank := 0
		for i, h := range hits {
			names[i] = h.Decl.Name
			if rank == 0 && gold[h.Decl.Name] {
				rank = i + 1
			}
		}
		for i, c := range cuts {
			if rank > 0 && rank <= c {
				found[i]++
			}
		}
		if rank > 0 && rank <= k {
			rr += 1 / float64(rank)
		} else if rank > k {
			rank = 0
		}
		if perQuery != nil {
			perQuery(SearchBenchQuery{ID: it.ID, Query: it.Query, Gold: it.Gold, Hits: names[:min(k, len(names))], Rank: rank, Ms: ms})
		}
	}
	res.Queries = len(items)
	if len(items) == 0 {
		return res, nil
	}
	n := float64(len(items))
	for i, c := range cuts {
		res.RecallAt[fmt.Sprint(c)] = 100 * float64(found[i]) / n
	}
	res.MRR = 100 * rr / n
	sort.Float64s(lat)
	res.P50ms = percentile(lat, 50)
	res.P95ms = percentile(lat, 95)
	return res, nil
}
