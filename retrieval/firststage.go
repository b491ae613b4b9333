package retrieval

import (
	"sort"
	"sync"
)

// firstStage holds the best slots of the first-stage score, best first.
type firstStage struct {
	slots  []int32
	scores []float64
	// extra are the first-stage scores of the slots asked for by name
	// (see nameForms), wherever they rank.
	extra map[int32]float64
}

// searchAccum accumulates per-field scores and matched-term masks over
// slots; pooled because it spans the whole library. A slot is touched
// when its mask is not zero (every query unit sets at least one bit).
type searchAccum struct {
	slot    []slotAccum
	touched []int32
}

// slotAccum is one slot's per-field scores and matched-term mask, kept
// together so that a posting costs one cache miss.
type slotAccum struct {
	v    [nFields]float64
	mask uint64
}

var searchAccumPool = sync.Pool{New: func() any { return &searchAccum{} }}

func getSearchAccum(n int32) *searchAccum {
	a := searchAccumPool.Get().(*searchAccum)
	if int32(len(a.slot)) < n {
		a.slot = make([]slotAccum, n+n/8)
	}
	a.touched = a.touched[:0]
	return a
}

func (a *searchAccum) release() {
	for _, s := range a.touched {
		a.slot[s] = slotAccum{}
	}
	searchAccumPool.Put(a)
}

// unit is one query term (or lexicon or synonym term) in one field: its
// posting lists in the base and the overlay part (n postings in all), the
// weight of a match (term weight × idf, before BM25 saturation) and the
// bits of the query words it stands for.
type unit struct {
	f     field
	w     float64
	bits  uint64
	lists [2][]posting
	n     int
}

// humanScores is the first stage of search: BM25F over every
// declaration's name pieces, namespace, docstring, first sentence, bold
// terms and main-declaration description, times the square of the
// idf-weighted share of query terms matched (synonyms stand in for the terms
// they replace at a lower weight).
//
// It keeps the best pool slots. The posting lists are walked rarest first,
// so the best declarations tend to be found first; a declaration whose
// score, bounded from above without its name coverage, cannot enter the
// pool is not scored further.
func (s *snapshot) humanScores(qs []string, exps []expansion, sr SearchRanking, sw *searchWeights, extra map[int32]bool, pool int) firstStage {
	type qterm struct {
		t    string
		w    float64
		bits uint64
		name bool // name and namespace fields only
	}
	var terms []qterm
	total := 0.0
	weights := s.queryWeights(qs)
	for i, t := range qs {
		total += weights[i]
		terms = append(terms, qterm{t, 1, 1 << i, false})
	}
	for _, x := range exps {
		terms = append(terms, qterm{x.term, sw.Synonym * x.weight, x.covers, x.name})
	}
	if total <= 0 {
		return firstStage{}
	}
	var docs int64
	var sumLen [nFields]int64
	for c := range nColl {
		docs += s.stats[c].docs
		for f := range sumLen {
			sumLen[f] += s.stats[c].sumLen[f]
		}
	}
	fields := []field{fName, fNS, fDoc}
	if sr.Plain {
		fields = []field{fName, fDoc}
	}
	if sr.Lead {
		fields = append(fields, fLead)
	}
	if sr.Bold {
		fields = append(fields, fBold)
	}
	if sr.Main {
		fields = append(fields, fMain)
	}
	if sr.Statement {
		fields = append(fields, fStmt)
	}
	var avg [nFields]float64
	for f := range avg {
		avg[f] = float64(sumLen[f]) / float64(max(1, docs))
	}
	var units []unit
	for _, qt := range terms {
		for _, f := range fields {
			if qt.name && f != fName && f != fNS {
				continue
			}
			idf := s.idfAll(f, qt.t)
			if idf <= 0 {
				continue
			}
			u := unit{f: f, w: qt.w * idf, bits: qt.bits}
			for i, pt := range []*part{s.base, s.over} {
				if ti := pt.fields[f].find(qt.t); ti >= 0 {
					u.lists[i] = pt.fields[f].list(ti)
					u.n += len(u.lists[i])
				}
			}
			if u.n == 0 {
				continue
			}
			units = append(units, u)
		}
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].n < units[j].n })
	a := getSearchAccum(s.n())
	defer a.release()
	add := func(u *unit, p posting, part *part) {
		v := u.contribution(p, part, avg[u.f], sr.Plain)
		if u.f == fStmt && part.length[fDoc][p.slot-part.off] == 0 {
			v *= sw.StmtUndoc // only its name and statement can find it
		}
		x := &a.slot[p.slot]
		if x.mask == 0 {
			a.touched = append(a.touched, p.slot)
		}
		x.v[u.f] += v
		x.mask |= u.bits
	}
	// coverage is the idf-weighted share of the query a mask matches (the
	// matched weight summed a byte of the mask at a time from tables);
	// others is the weighted sum of the fields but the name.
	var byteWeight [maxQueryTerms / 8][256]float64
	for b := range byteWeight {
		for m := 1; m < 256; m++ {
			for j := range 8 {
				if i := 8*b + j; m&(1<<j) != 0 && i < len(weights) {
					byteWeight[b][m] += weights[i]
				}
			}
		}
	}
	coverage := func(mask uint64) float64 {
		matched := 0.0
		for b := range byteWeight {
			matched += byteWeight[b][(mask>>(8*b))&255]
		}
		return matched / total
	}
	others := func(v *[nFields]float64) float64 {
		return sw.NS*v[fNS] + sw.Doc*v[fDoc] + sw.Lead*v[fLead] + sw.Bold*v[fBold] + sw.Main*v[fMain] + sw.Stmt*v[fStmt]
	}
	nameIDF := map[int64]float64{} // memo: name terms recur across slots
	// score is the first-stage score of slot sl; the name evidence counts
	// in proportion to the share of the name's terms it covers.
	score := func(sl int32, x *slotAccum) float64 {
		v := &x.v
		if sr.Plain {
			return v[fName] + v[fDoc]
		}
		name := 0.0
		if v[fName] > 0 {
			tot := 0.0
			p, local := s.part(sl)
			key := int64(0)
			if p != s.base {
				key = 1 << 32
			}
			for _, ti := range p.nameT.row(int(local)) {
				w, ok := nameIDF[key|int64(ti)]
				if !ok {
					w = s.idfAll(fName, p.fields[fName].terms[ti])
					nameIDF[key|int64(ti)] = w
				}
				tot += w
			}
			if tot > 0 {
				name = sw.Name * v[fName] * min(1, v[fName]/tot)
			}
		}
		cov := coverage(x.mask)
		return (name + others(v)) * cov * cov
	}
	// bound is score with the name's share taken as 1, never less than it.
	bound := func(x *slotAccum) float64 {
		cov := coverage(x.mask)
		return (sw.Name*x.v[fName] + others(&x.v)) * cov * cov
	}
	for i := range units {
		u := &units[i]
		s.walk(u, func(p posting, pt *part) { add(u, p, pt) })
	}
	h := s.top(pool)
	for _, sl := range a.touched {
		// The name coverage is at most 1: a slot whose score without it
		// cannot enter the pool is not scored.
		x := &a.slot[sl]
		if !sr.Plain && len(h.slots) == pool && bound(x) < h.sc[0] {
			continue
		}
		h.push(sl, score(sl, x))
	}
	extraScores := map[int32]float64{}
	for sl := range extra {
		if a.slot[sl].mask != 0 {
			extraScores[sl] = score(sl, &a.slot[sl])
		}
	}
	slots, scores := h.sorted()
	for len(scores) > 0 && scores[len(scores)-1] <= 0 {
		slots, scores = slots[:len(slots)-1], scores[:len(scores)-1]
	}
	return firstStage{slots: slots, scores: scores, extra: extraScores}
}

// contribution is what posting p (of part pt) of u adds to its field's
// score: the weight, saturated by BM25 outside the name fields (or
// everywhere for the plain baseline).
func (u *unit) contribution(p posting, pt *part, avg float64, plain bool) float64 {
	if u.f != fName && u.f != fNS || plain {
		return u.w * bm25(float64(p.tf), float64(pt.length[u.f][p.slot-pt.off]), avg)
	}
	return u.w
}

// walk calls fn for every visible posting of u.
func (s *snapshot) walk(u *unit, fn func(p posting, pt *part)) {
	for i, pt := range []*part{s.base, s.over} {
		checkDead := pt == s.base && s.ndead > 0
		for _, p := range u.lists[i] {
			if checkDead && !s.live(p.slot) {
				continue
			}
			fn(p, pt)
		}
	}
}
