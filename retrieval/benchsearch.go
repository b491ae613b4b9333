package retrieval

import (
	"context"
	"fmt"
	"math"
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
	// NDCG is nDCG@k with binary relevance (every gold declaration is
	// relevant; with one gold, 1/log2(1 + rank), as LeanSearch reports it).
	NDCG  float64 `json:"ndcg"`
	P50ms float64 `json:"p50_ms"`
	P95ms float64 `json:"p95_ms"`
	// Groups break the figures down by the queries' style and their gold's
	// kind (when the set labels them).
	Groups []SearchBenchGroup `json:"groups,omitempty"`
}

// SearchBenchGroup is the figures of the queries of one style or kind.
type SearchBenchGroup struct {
	// By is "style" or "kind"; Value the style or kind.
	By       string             `json:"by"`
	Value    string             `json:"value"`
	Queries  int                `json:"queries"`
	RecallAt map[string]float64 `json:"recall_at"`
	MRR      float64            `json:"mrr"`
	NDCG     float64            `json:"ndcg"`
}

// ndcg is nDCG@k of a ranking with binary relevance.
func ndcg(names []string, gold map[string]bool, k int) float64 {
	dcg, ideal := 0.0, 0.0
	for i := range min(k, len(gold)) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	for i, n := range names[:min(k, len(names))] {
		if gold[n] {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
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
	var rr, nd float64
	type acc struct {
		n, at1, at5, at10 int
		rr, nd            float64
	}
	groups := map[[2]string]*acc{}
	var order [][2]string
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
		g := ndcg(names, gold, k)
		nd += g
		for _, key := range [][2]string{{"style", it.Style}, {"kind", it.Kind}} {
			if key[1] == "" {
				continue
			}
			a := groups[key]
			if a == nil {
				a = &acc{}
				groups[key] = a
				order = append(order, key)
			}
			a.n++
			a.nd += g
			if rank > 0 && rank <= k {
				a.rr += 1 / float64(rank)
			}
			for c, p := range map[int]*int{1: &a.at1, 5: &a.at5, 10: &a.at10} {
				if rank > 0 && rank <= c {
					*p++
				}
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
	res.NDCG = 100 * nd / n
	sort.SliceStable(order, func(i, j int) bool { return order[i][0] > order[j][0] }) // style first
	for _, key := range order {
		a := groups[key]
		m := float64(a.n)
		res.Groups = append(res.Groups, SearchBenchGroup{By: key[0], Value: key[1], Queries: a.n, MRR: 100 * a.rr / m, NDCG: 100 * a.nd / m,
			RecallAt: map[string]float64{"1": 100 * float64(a.at1) / m, "5": 100 * float64(a.at5) / m, "10": 100 * float64(a.at10) / m}})
	}
	sort.Float64s(lat)
	res.P50ms = percentile(lat, 50)
	res.P95ms = percentile(lat, 95)
	return res, nil
}
