package retrieval

import (
	"context"
	"sort"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// maxScored bounds how many equally good candidates Illustrate scores by
// text similarity in one greedy round; beyond it, candidates outside the
// lexical top list are ordered by name.
const maxScored = 2000

// Illustrate picks up to m library theorems that show the premises in use
// (DRIFT's Illustrate): candidates are theorems whose statement uses at least
// one premise; each round takes the candidate that covers the most premises
// not yet covered, ties broken by similarity of its text (docstring, else
// statement) to the statement, then by name; it stops at m theorems or when
// no candidate adds coverage.
func (e *Engine) Illustrate(ctx context.Context, statement string, premises []string, m int) (Illustration, error) {
	s, err := e.current()
	if err != nil {
		return Illustration{}, err
	}
	if m <= 0 {
		m = 3
	}
	prem := uniq(premises)
	if len(prem) == 0 {
		return Illustration{}, nil
	}
	// covers maps each candidate theorem to the premises its statement uses.
	covers := map[int32][]int{}
	for pi, p := range prem {
		for _, sl := range s.usedBy(p) {
			covers[sl] = append(covers[sl], pi)
		}
	}
	qterms := lexical.Terms(clip(statement))
	lexRank := map[int32]int{}
	if len(qterms) > 0 && len(covers) > 0 {
		slots, _ := s.theoremScores(qterms, 1000)
		for i, sl := range slots {
			lexRank[sl] = i + 1
		}
	}
	qset := map[string]bool{}
	for _, t := range qterms {
		qset[t] = true
	}
	simCache := map[int32]float64{}
	sim := func(id int32) float64 {
		if v, ok := simCache[id]; ok {
			return v
		}
		v := 0.0
		if r, ok := lexRank[id]; ok {
			v = 2 + 1/float64(r) // lexical hits first, in BM25 order
		} else {
			d := s.decl(id)
			text := d.Doc
			if text == "" {
				text = d.Signature
			}
			v = overlap(qset, lexical.Terms(text))
		}
		simCache[id] = v
		return v
	}
	covered := make([]bool, len(prem))
	var ill Illustration
	for len(ill.Theorems) < m {
		if err := ctx.Err(); err != nil {
			return Illustration{}, err
		}
		best, bestGain := []int32(nil), 0
		for id, ps := range covers {
			g := 0
			for _, p := range ps {
				if !covered[p] {
					g++
				}
			}
			switch {
			case g > bestGain:
				best, bestGain = []int32{id}, g
			case g == bestGain && g > 0:
				best = append(best, id)
			}
		}
		if bestGain == 0 {
			break
		}
		h := s.top(0)
		sort.Slice(best, func(i, j int) bool { return h.before(best[i], best[j]) })
		if len(best) > maxScored {
			var inLex, rest []int32
			for _, id := range best {
				if _, ok := lexRank[id]; ok {
					inLex = append(inLex, id)
				} else {
					rest = append(rest, id)
				}
			}
			best = append(inLex, rest[:max(0, maxScored-len(inLex))]...)
		}
		pick := best[0]
		for _, id := range best[1:] {
			if sim(id) > sim(pick) {
				pick = id
			}
		}
		var newly []string
		for _, p := range covers[pick] {
			if !covered[p] {
				covered[p] = true
				newly = append(newly, prem[p])
			}
		}
		ill.Theorems = append(ill.Theorems, s.decl(pick))
		ill.Covers = append(ill.Covers, newly)
		delete(covers, pick)
	}
	n := 0
	for _, c := range covered {
		if c {
			n++
		}
	}
	ill.Coverage = float64(n) / float64(len(prem))
	return ill, nil
}

// overlap is the share of a text's distinct terms that occur in the query,
// damped for long texts; it lies in [0, 1).
func overlap(q map[string]bool, terms []string) float64 {
	if len(terms) == 0 || len(q) == 0 {
		return 0
	}
	seen := map[string]bool{}
	hit := 0
	for _, t := range terms {
		if !seen[t] {
			seen[t] = true
			if q[t] {
				hit++
			}
		}
	}
	return float64(hit) / float64(len(seen)+1)
}
