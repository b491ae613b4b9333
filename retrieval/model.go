package retrieval

import (
	"math"
	"sort"
	"sync"
)

// idf is the BM25 inverse document frequency of t in field f of collection c.
func (s *snapshot) idf(c int, f field, t string) float64 {
	n := float64(s.stats[c].docs)
	df := float64(s.df(c, f, t))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// idfAll is the inverse document frequency of t in field f over every
// collection.
func (s *snapshot) idfAll(f field, t string) float64 {
	n, df := 0.0, 0.0
	for c := range nColl {
		n += float64(s.stats[c].docs)
		df += float64(s.df(c, f, t))
	}
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// eachPosting calls fn for every visible posting of term t in field f
// whose declaration is in collection c (any collection when c < 0), with
// the length of the declaration's field.
func (s *snapshot) eachPosting(f field, t string, c int, fn func(p posting, length float64)) {
	for _, pt := range []*part{s.base, s.over} {
		i := pt.fields[f].find(t)
		if i < 0 {
			continue
		}
		coll, length, off := pt.coll, pt.length[f], pt.off
		checkDead := pt == s.base && s.ndead > 0
		for _, p := range pt.fields[f].list(i) {
			local := p.slot - off
			if c >= 0 && int(coll[local]) != c {
				continue
			}
			if checkDead && !s.live(p.slot) {
				continue
			}
			fn(p, float64(length[local]))
		}
	}
}

// avgLen is the mean length of field f over collection c.
func (s *snapshot) avgLen(c int, f field) float64 {
	return float64(s.stats[c].sumLen[f]) / float64(max(1, s.stats[c].docs))
}

// bm25 is the saturated, length-normalised term weight.
func bm25(tf, length, avg float64) float64 {
	const k1, b = 1.2, 0.75
	if avg <= 0 {
		avg = 1
	}
	return tf * (k1 + 1) / (tf + k1*(1-b+b*length/avg))
}

// accum is a reusable dense score accumulator over slots with the list of
// touched slots, much faster than a map for postings of common terms.
type accum struct {
	v       [3][]float64
	touched []int32
}

var accumPool = sync.Pool{New: func() any { return &accum{} }}

func getAccum(n int32) *accum {
	a := accumPool.Get().(*accum)
	for i := range a.v {
		if int32(len(a.v[i])) < n {
			a.v[i] = make([]float64, n+n/8)
		}
	}
	a.touched = a.touched[:0]
	return a
}

// release zeroes the touched entries and returns a to the pool.
func (a *accum) release() {
	for _, s := range a.touched {
		a.v[0][s], a.v[1][s], a.v[2][s] = 0, 0, 0
	}
	accumPool.Put(a)
}

func (a *accum) add(i int, s int32, v float64) {
	if a.v[0][s] == 0 && a.v[1][s] == 0 && a.v[2][s] == 0 {
		a.touched = append(a.touched, s)
	}
	a.v[i][s] += v
}

// premiseScores scores premise-like slots against query terms: name-term
// evidence scaled by how much of the name the query covers, namespace
// evidence likewise, and BM25 over docstrings.
func (s *snapshot) premiseScores(q []string, w Ranking) map[int32]float64 {
	qs := uniq(q)
	avgDoc := s.avgLen(collPremise, fDoc)
	a := getAccum(s.n())
	defer a.release()
	for _, t := range qs {
		for _, f := range []field{fName, fNS, fDoc} {
			idf := s.idf(collPremise, f, t)
			if idf <= 0 {
				continue
			}
			s.eachPosting(f, t, collPremise, func(p posting, length float64) {
				v := idf
				if f == fDoc {
					v = idf * bm25(float64(p.tf), length, avgDoc)
				}
				a.add(int(f), p.slot, v)
			})
		}
	}
	idfs := map[string]float64{}
	out := make(map[int32]float64, len(a.touched))
	for _, sl := range a.touched {
		v := 0.0
		if h := a.v[fName][sl]; h > 0 {
			v += w.NameField * h * math.Pow(s.coverage(sl, h, idfs), w.Coverage)
		}
		v += w.NSField*a.v[fNS][sl] + w.DocField*a.v[fDoc][sl]
		out[sl] = v
	}
	return out
}

// coverage is the idf-weighted share of slot sl's name terms that the query
// matched (matched is their idf sum); idfs caches idf by term.
func (s *snapshot) coverage(sl int32, matched float64, idfs map[string]float64) float64 {
	p, i := s.part(sl)
	total := 0.0
	for _, ti := range p.nameT.row(int(i)) {
		t := p.fields[fName].terms[ti]
		v, ok := idfs[t]
		if !ok {
			v = s.idf(collPremise, fName, t)
			idfs[t] = v
		}
		total += v
	}
	if total <= 0 {
		return 0
	}
	return min(1, matched/total)
}

// theoremScores ranks theorems by BM25 over their name pieces and
// docstrings, for graph feedback; it returns the best n slots with scores.
func (s *snapshot) theoremScores(q []string, n int) ([]int32, []float64) {
	qs := uniq(q)
	a := getAccum(s.n())
	defer a.release()
	for _, t := range qs {
		for _, f := range []field{fName, fDoc} {
			idf := s.idf(collTheorem, f, t)
			if idf <= 0 {
				continue
			}
			avg := s.avgLen(collTheorem, f)
			s.eachPosting(f, t, collTheorem, func(p posting, length float64) {
				a.add(0, p.slot, idf*bm25(float64(p.tf), length, avg))
			})
		}
	}
	h := s.top(n)
	for _, sl := range a.touched {
		h.push(sl, a.v[0][sl])
	}
	return h.sorted()
}

// topN keeps the n best (slot, score) pairs seen; ties go to the smaller
// document ID, so the result does not depend on slot numbering.
type topN struct {
	n     int
	s     *snapshot
	slots []int32
	sc    []float64
}

// top returns an empty topN of size n over s.
func (s *snapshot) top(n int) *topN { return &topN{n: n, s: s} }

// before reports whether slot a ranks before slot b at equal scores: by
// package, file and name, an order independent of slot numbering.
func (h *topN) before(a, b int32) bool {
	x, y := h.s.decl(a), h.s.decl(b)
	if x.Package != y.Package {
		return x.Package < y.Package
	}
	if x.File != y.File {
		return x.File < y.File
	}
	return x.Name < y.Name
}

func (h *topN) less(i, j int) bool { // min-heap: worst first
	if h.sc[i] != h.sc[j] {
		return h.sc[i] < h.sc[j]
	}
	return h.before(h.slots[j], h.slots[i])
}

func (h *topN) swap(i, j int) {
	h.slots[i], h.slots[j] = h.slots[j], h.slots[i]
	h.sc[i], h.sc[j] = h.sc[j], h.sc[i]
}

func (h *topN) push(s int32, v float64) {
	if h.n <= 0 {
		return
	}
	if len(h.slots) < h.n {
		h.slots = append(h.slots, s)
		h.sc = append(h.sc, v)
		for i := len(h.slots) - 1; i > 0; {
			p := (i - 1) / 2
			if !h.less(i, p) {
				break
			}
			h.swap(i, p)
			i = p
		}
		return
	}
	if v < h.sc[0] || (v == h.sc[0] && !h.before(s, h.slots[0])) {
		return
	}
	h.slots[0], h.sc[0] = s, v
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h.slots) && h.less(l, m) {
			m = l
		}
		if r < len(h.slots) && h.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		h.swap(i, m)
		i = m
	}
}

// sorted returns the kept pairs, best first.
func (h *topN) sorted() ([]int32, []float64) {
	idx := make([]int, len(h.slots))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		if h.sc[i] != h.sc[j] {
			return h.sc[i] > h.sc[j]
		}
		return h.before(h.slots[i], h.slots[j])
	})
	slots := make([]int32, len(idx))
	sc := make([]float64, len(idx))
	for k, i := range idx {
		slots[k], sc[k] = h.slots[i], h.sc[i]
	}
	return slots, sc
}
