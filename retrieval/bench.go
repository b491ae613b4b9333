package retrieval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"time"
)

// BenchItem is one benchmark problem: the informal statement (the only text
// the retriever sees) and the gold premise names.
type BenchItem struct {
	ID    string
	Query string
	Gold  []string
	// Style is the query's style and Kind its gold declaration's kind,
	// when the set gives them (fields style and kind): bench search breaks
	// its figures down by each.
	Style, Kind string
	// LeaveOut names a declaration left out of the premise ranking's graph
	// feedback: the theorem the query was made from, whose statement names
	// the gold (`bench retrieval --leave-one-out`).
	LeaveOut string
}

// ReadBench reads a benchmark in ProofNet's JSONL format: the query is
// informal_stmt, the gold set mathlib_dependencies; problems without gold
// are skipped. The optional fields style and kind label the query for the
// breakdown of bench search.
func ReadBench(r io.Reader) ([]BenchItem, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []BenchItem
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var raw struct {
			Informal string   `json:"informal_stmt"`
			Deps     []string `json:"mathlib_dependencies"`
			FullName string   `json:"full_name"`
			Style    string   `json:"style"`
			Kind     string   `json:"kind"`
		}
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return nil, fmt.Errorf("bench line %d: %w", line, err)
		}
		if len(raw.Deps) == 0 {
			continue
		}
		id := raw.FullName
		if id == "" {
			id = fmt.Sprint(line)
		}
		out = append(out, BenchItem{ID: id, Query: raw.Informal, Gold: uniq(raw.Deps), Style: raw.Style, Kind: raw.Kind})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return out, nil
}

// BenchResult is the outcome of a retrieval benchmark; the JSON keys are
// the stable output of `drift-lsp bench retrieval --json`.
type BenchResult struct {
	K         int                `json:"k"`
	Queries   int                `json:"queries"`
	Precision float64            `json:"precision"`
	Recall    float64            `json:"recall"`
	F1        float64            `json:"f1"`
	RecallAt  map[string]float64 `json:"recall_at"`
	P50ms     float64            `json:"p50_ms"`
	P95ms     float64            `json:"p95_ms"`
}

// BenchQuery is the per-query record of a benchmark run.
type BenchQuery struct {
	ID        string   `json:"id"`
	Gold      []string `json:"gold"`
	Retrieved []string `json:"retrieved"`
	Precision float64  `json:"precision"`
	Recall    float64  `json:"recall"`
	Ms        float64  `json:"ms"`
}

// benchDepth is the deepest cut-off reported (recall@100).
const benchDepth = 100

// Bench retrieves premises for every item with the given ranking and
// computes macro precision and recall at k, F1 = 2PR/(P+R), recall at 1, 5,
// 10 and 100 and latency percentiles; perQuery, when non-nil, receives one
// record per item.
func (e *Engine) Bench(ctx context.Context, items []BenchItem, k int, r Ranking, perQuery func(BenchQuery)) (BenchResult, error) {
	res := BenchResult{K: k, RecallAt: map[string]float64{}}
	cuts := []int{1, 5, 10, 100}
	var lat []float64
	var sp, sr float64
	rat := make([]float64, len(cuts))
	for _, it := range items {
		start := time.Now()
		s, err := e.current()
		var hits []Hit
		if err == nil {
			hits, err = e.rankPremises(ctx, s, clip(it.Query), "", it.LeaveOut, max(k, benchDepth), r)
		}
		if err != nil {
			return res, err
		}
		ms := float64(time.Since(start).Microseconds()) / 1000
		lat = append(lat, ms)
		gold := map[string]bool{}
		for _, g := range it.Gold {
			gold[g] = true
		}
		names := make([]string, len(hits))
		for i, h := range hits {
			names[i] = h.Decl.Name
		}
		hitsAt := func(n int) int {
			c := 0
			for _, nm := range names[:min(n, len(names))] {
				if gold[nm] {
					c++
				}
			}
			return c
		}
		p := float64(hitsAt(k)) / float64(k)
		rc := float64(hitsAt(k)) / float64(len(gold))
		sp += p
		sr += rc
		for i, c := range cuts {
			rat[i] += float64(hitsAt(c)) / float64(len(gold))
		}
		if perQuery != nil {
			perQuery(BenchQuery{ID: it.ID, Gold: it.Gold, Retrieved: names[:min(k, len(names))], Precision: p, Recall: rc, Ms: ms})
		}
	}
	n := float64(len(items))
	res.Queries = len(items)
	if n == 0 {
		return res, nil
	}
	res.Precision = 100 * sp / n
	res.Recall = 100 * sr / n
	if res.Precision+res.Recall > 0 {
		res.F1 = 2 * res.Precision * res.Recall / (res.Precision + res.Recall)
	}
	for i, c := range cuts {
		res.RecallAt[fmt.Sprint(c)] = 100 * rat[i] / n
	}
	sort.Float64s(lat)
	res.P50ms = percentile(lat, 50)
	res.P95ms = percentile(lat, 95)
	return res, nil
}

func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
