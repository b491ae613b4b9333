package retrieval

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSearchTune fits the search weights (searchWeights) by coordinate
// ascent on the dev sets in DRIFT_SEARCH_SETS (files named *-dev.jsonl, as
// `drift-lsp bench mkset` writes them; the test halves are never read)
// over the library at DRIFT_MATHLIB and on those of the other libraries
// in DRIFT_TUNE_LIBS (ROOT=DIR[;ROOT=DIR...]: DIR's *-dev.jsonl over the
// library at ROOT, or over the declaration dump ROOT when it ends in
// .jsonl, one engine each), and prints the weights it found. The
// objective is the mean MRR@10 of the sets, each with the signal that is
// circular for it switched off (main for main-*, bold for bold-*); with
// DRIFT_TUNE_BYLIB set, the mean over the libraries of the mean of each
// library's sets; with DRIFT_TUNE_RECALL set, a query scores the mean of
// R@1, R@5, R@10 and MRR@10 instead of its reciprocal rank; with
// DRIFT_TUNE_NODROP=X, a step is taken only if no set falls more than X
// points below its value at the start. It is how defaultWeights were
// chosen (docs/retrieval.md); it changes nothing by itself. With
// DRIFT_BENCH_EMBED set (and the models installed) the dense feature is
// on in DRIFT_MATHLIB's engine and its weight tuned too.
// DRIFT_TUNE_ROUNDS bounds the rounds (default 6); a set larger than
// maxTuneItems is sampled with a fixed stride.
// maxTuneItems bounds the items per set.
const maxTuneItems = 800

// firstStageWeights are the weights the tuner leaves alone: they shape the
// first stage, which it runs once (and Dense, tuned only when on).
var firstStageWeights = map[string]bool{"Name": true, "NS": true, "Doc": true, "Lead": true, "Bold": true, "Main": true, "Synonym": true, "Dense": true,
	"Stmt": true, "StmtNotation": true, "StmtUndoc": true}

func TestSearchTune(t *testing.T) {
	dir, root := os.Getenv("DRIFT_SEARCH_SETS"), os.Getenv("DRIFT_MATHLIB")
	if dir == "" || root == "" || os.Getenv("DRIFT_SEARCH_TUNE") == "" {
		t.Skip("set DRIFT_SEARCH_TUNE=1, DRIFT_SEARCH_SETS and DRIFT_MATHLIB to fit the search weights")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancel()
	type library struct {
		e     *Engine
		snap  *snapshot
		dense bool
	}
	// open indexes the library at root, its engine closed with the test.
	open := func(root string, embed bool) library {
		cfg := Config{Roots: []string{root}, CacheDir: os.Getenv("DRIFT_BENCH_CACHE"), Logf: t.Logf}
		if strings.HasSuffix(root, ".jsonl") {
			cfg.Roots, cfg.Corpus = nil, []string{root} // a declaration dump
		}
		if embed {
			benchEmbedder(t, &cfg)
		}
		e, err := Open(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		if err := e.WaitReady(ctx); err != nil {
			t.Fatal(err)
		}
		if cfg.Embedder != nil {
			if err := e.WaitEmbedded(ctx); err != nil {
				t.Fatal(err)
			}
		}
		snap, err := e.current()
		if err != nil {
			t.Fatal(err)
		}
		return library{e, snap, cfg.Embedder != nil}
	}
	type devSet struct {
		name  string
		lib   library
		items []BenchItem
		r     SearchRanking
	}
	var devs []devSet
	// addSets adds dir's dev sets over lib.
	addSets := func(lib library, dir string) {
		sets, _ := filepath.Glob(filepath.Join(dir, "*-dev.jsonl"))
		for _, path := range sets {
			items := readBenchFile(t, path)
			if len(items) == 0 {
				continue // mkset writes a set the library has no material for empty
			}
			r := DefaultSearch
			r.Dense = lib.dense
			for _, sig := range []string{"main", "bold"} {
				if strings.HasPrefix(filepath.Base(path), sig+"-") {
					r, _ = r.Toggle(sig)
				}
			}
			if stride := (len(items) + maxTuneItems - 1) / maxTuneItems; stride > 1 {
				var kept []BenchItem
				for i := 0; i < len(items); i += stride {
					kept = append(kept, items[i])
				}
				items = kept
			}
			name := filepath.Base(path)
			if len(devs) > 0 && devs[0].lib.e != lib.e {
				name = filepath.Base(filepath.Clean(dir)) + "/" + name
			}
			devs = append(devs, devSet{name, lib, items, r})
		}
	}
	addSets(open(root, true), dir)
	if len(devs) == 0 {
		t.Fatalf("no non-empty *-dev.jsonl in %s", dir)
	}
	if libs := os.Getenv("DRIFT_TUNE_LIBS"); libs != "" {
		for _, spec := range strings.Split(libs, ";") {
			lroot, ldir, ok := strings.Cut(spec, "=")
			if !ok || lroot == "" || ldir == "" {
				t.Fatalf("DRIFT_TUNE_LIBS: %q is not ROOT=DIR", spec)
			}
			addSets(open(lroot, false), ldir)
		}
	}
	// The candidates of every query and their features are gathered once
	// (phrase features for the whole pool); each evaluation then only
	// rescores them. The first stage's weights are therefore fixed here.
	type query struct {
		cands     []*candidate
		names, id []string
		intent    Intent
		gold      []string
	}
	gather := func(w searchWeights) [][]query {
		qsets := make([][]query, len(devs))
		for i, d := range devs {
			r := d.r
			r.w = &w
			for _, it := range d.items {
				cs, in, err := d.lib.e.searchCandidates(ctx, d.lib.snap, Query{Text: it.Query, K: 10}, r, 1<<30)
				if err != nil && err != ErrEmptyQuery {
					t.Fatal(err)
				}
				q := query{cands: cs, intent: in, gold: it.Gold}
				for _, c := range cs {
					d := d.lib.snap.decl(c.slot)
					q.names = append(q.names, d.Name)
					q.id = append(q.id, docID(d))
				}
				qsets[i] = append(qsets[i], q)
			}
		}
		return qsets
	}
	w := defaultWeights
	qsets := gather(w)
	byLib := os.Getenv("DRIFT_TUNE_BYLIB") != ""
	libSets := map[*Engine]int{}
	for _, d := range devs {
		libSets[d.lib.e]++
	}
	// gain is what a query found at rank n adds: its reciprocal rank, or
	// with DRIFT_TUNE_RECALL set the mean of R@1, R@5, R@10 and MRR@10
	// (the figures the results are judged by).
	gain := func(n int) float64 { return 100 / float64(n) }
	if os.Getenv("DRIFT_TUNE_RECALL") != "" {
		gain = func(n int) float64 {
			g := 100 / float64(n)
			for _, k := range []int{1, 5, 10} {
				if n <= k {
					g += 100
				}
			}
			return g / 4
		}
	}
	eval := func(w searchWeights) (float64, []float64) {
		var per []float64
		sum := 0.0
		libSum := map[*Engine]float64{}
		for i, d := range devs {
			mrr := 0.0
			for _, q := range qsets[i] {
				order := make([]int, len(q.cands))
				for j, c := range q.cands {
					c.score = c.rescore(&w, q.intent, d.r, d.lib.snap.decl(c.slot), d.lib.e.ranking.UserBoost)
					order[j] = j
				}
				sort.Slice(order, func(a, b int) bool {
					ca, cb := q.cands[order[a]], q.cands[order[b]]
					if ca.score != cb.score {
						return ca.score > cb.score
					}
					return q.id[order[a]] < q.id[order[b]]
				})
				seen := map[string]bool{}
				for _, j := range order {
					n := q.names[j]
					if seen[n] {
						continue
					}
					seen[n] = true
					if len(seen) > 10 {
						break
					}
					if slices.Contains(q.gold, n) {
						mrr += gain(len(seen)) / float64(len(qsets[i]))
						break
					}
				}
			}
			per = append(per, math.Round(mrr*100)/100)
			sum += mrr
			libSum[d.lib.e] += mrr
		}
		if byLib {
			sum = 0
			for e, s := range libSum {
				sum += s / float64(libSets[e])
			}
			return sum / float64(len(libSets)), per
		}
		return sum / float64(len(devs)), per
	}
	for i, d := range devs {
		in := 0
		for _, q := range qsets[i] {
			if slices.ContainsFunc(q.names, func(n string) bool { return slices.Contains(q.gold, n) }) {
				in++
			}
		}
		fmt.Printf("DRIFT_TUNE %s: a gold declaration among the candidates for %d of %d queries\n", d.name, in, len(qsets[i]))
	}
	best, per := eval(w)
	fmt.Printf("DRIFT_TUNE start %.3f %v\n", best, per)
	floor := slices.Clone(per)
	if v := os.Getenv("DRIFT_TUNE_NODROP"); v != "" {
		tol, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("DRIFT_TUNE_NODROP: %v", err)
		}
		for i := range floor {
			floor[i] -= tol
		}
	} else {
		floor = nil
	}
	// better says whether a step to (sc, ps) is taken: it gains 0.05 on
	// the objective and, with DRIFT_TUNE_NODROP, keeps every set above its
	// floor.
	better := func(sc float64, ps []float64) bool {
		if sc <= best+0.05 {
			return false
		}
		for i := range floor {
			if ps[i] < floor[i] {
				return false
			}
		}
		return true
	}
	ps := w.params()
	keys := make([]string, 0, len(ps))
	for k := range ps {
		if !firstStageWeights[k] || k == "Dense" && devs[0].lib.dense {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	// With DRIFT_TUNE_FIRST set, each first-stage weight is halved and
	// doubled first, gathering the candidates again for each try.
	if os.Getenv("DRIFT_TUNE_FIRST") != "" {
		var first []string
		for k := range firstStageWeights {
			if k != "Dense" {
				first = append(first, k)
			}
		}
		sort.Strings(first)
		for _, k := range first {
			for _, m := range []float64{0.5, 2} {
				w2 := w
				*w2.params()[k] *= m
				old := qsets
				qsets = gather(w2)
				if sc, ps := eval(w2); better(sc, ps) {
					w, best, per = w2, sc, ps
					fmt.Printf("DRIFT_TUNE first stage %s=%g → %.3f %v\n", k, *w.params()[k], best, per)
					break
				}
				qsets = old
			}
		}
		qsets = gather(w)
	}
	rounds := 6
	if n, err := fmt.Sscan(os.Getenv("DRIFT_TUNE_ROUNDS"), &rounds); n != 1 || err != nil {
		rounds = 6
	}
	for round := range rounds {
		improved := false
		for _, k := range keys {
			p := w.params()[k]
			cur := *p
			var cands []float64
			if cur == 0 {
				cands = []float64{0.03, 0.1, 0.2, 0.3, 0.5, 1}
			} else {
				for _, m := range []float64{0, 0.25, 0.5, 0.7, 0.85, 1.2, 1.5, 2, 4} {
					cands = append(cands, math.Round(cur*m*1000)/1000)
				}
			}
			for _, v := range cands {
				if v == cur {
					continue
				}
				*p = v
				if sc, ps := eval(w); better(sc, ps) {
					best, per, cur = sc, ps, v
					improved = true
					fmt.Printf("DRIFT_TUNE round %d %s=%g → %.3f %v\n", round, k, v, best, per)
				}
			}
			*p = cur
		}
		if !improved {
			break
		}
	}
	fmt.Printf("DRIFT_TUNE final %.3f %v\n%#v\n", best, per, w)
}
