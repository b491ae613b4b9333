package retrieval

import (
	"maps"
	"math"
	"runtime"
	"sort"
	"sync"

	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// field indexes one analyzed field of the in-memory premise model.
type field int

const (
	fName field = iota // pieces of the last name component
	fNS                // pieces of the namespace
	fDoc               // docstring, informal description, notation symbol
	fLead              // the docstring's first sentence
	fBold              // the docstring's bold terms and "also known as" names
	fMain              // the module docstring's description of a main declaration
	nFields
)

// posting is one document's term frequency in a field.
type posting struct {
	slot int32
	tf   uint16
}

// model is the in-memory BM25F index that premise ranking reads: one slot
// per declaration, postings per field. It is append-only: a newer model
// shares the slots and posting arrays of the older one and hides replaced
// slots, so an update costs time proportional to the changed file, and an
// older snapshot still reads its own consistent prefix.
type model struct {
	n      int32           // slots visible in this version
	ids    []string        // slot -> document ID
	decls  []*library.Decl // slot -> declaration
	dead   map[int32]bool  // replaced slots
	post   [nFields]map[string][]posting
	nameT  [][]string         // slot -> distinct name terms (for coverage)
	coll   []uint8            // slot -> collection (0 premises, 1 theorems, 2 the rest)
	length [nFields][]float32 // slot -> field length in terms
	// per-field document counts and total lengths over live slots, split
	// into premise-like, theorem and other collections.
	stats [nColls]collStats
}

// collStats are BM25 collection statistics.
type collStats struct {
	docs   int
	sumLen [nFields]float64
	df     [nFields]map[string]int
}

// nColls is the number of collections: premise-like declarations (premise
// ranking), theorems (graph feedback) and the rest (instances, aliases,
// notations), which only search reads.
const nColls = 3

func collOf(d *library.Decl) int {
	switch {
	case premiseKind(d.Kind) > 0:
		return 0
	case d.Kind == library.KindTheorem:
		return 1
	}
	return 2
}

// indexed reports whether a declaration enters the model at all: every
// declaration is a search candidate.
func indexed(d *library.Decl) bool {
	return d.Name != ""
}

func fieldTerms(d *library.Decl) [nFields][]string {
	var out [nFields][]string
	last := names.Last(d.Name)
	ns := ""
	if len(last) < len(d.Name) {
		ns = d.Name[:len(d.Name)-len(last)-1]
	}
	out[fName] = lexical.Terms(last)
	out[fNS] = lexical.Terms(ns)
	doc := d.Doc
	if d.Informal != "" {
		doc += "\n" + d.Informal
	}
	if len(doc) > 1200 {
		doc = doc[:1200]
	}
	if d.Symbol != "" {
		doc += " " + d.Symbol
	}
	out[fDoc] = lexical.Terms(doc)
	out[fLead] = lexical.Terms(leansrc.FirstSentence(d.Doc))
	out[fMain] = lexical.Terms(d.MainDoc)
	out[fBold] = lexical.Terms(strings.Join(append(leansrc.BoldTerms(d.Doc), leansrc.AlsoKnownAs(d.Doc)...), "\n"))
	return out
}

func newModel() *model {
	m := &model{dead: map[int32]bool{}}
	for f := range m.post {
		m.post[f] = map[string][]posting{}
		m.length[f] = nil
	}
	for c := range m.stats {
		for f := range m.stats[c].df {
			m.stats[c].df[f] = map[string]int{}
		}
	}
	return m
}

// with returns a new model version with the slots of removed IDs hidden and
// decls appended. The receiver stays valid for readers.
func (m *model) with(removed []string, decls []*library.Decl, slotOf map[string]int32) *model {
	nm := &model{n: m.n, ids: m.ids, decls: m.decls, nameT: m.nameT, coll: m.coll, length: m.length}
	nm.dead = maps.Clone(m.dead)
	for f := range m.post {
		nm.post[f] = maps.Clone(m.post[f])
	}
	for c := range m.stats {
		nm.stats[c] = collStats{docs: m.stats[c].docs, sumLen: m.stats[c].sumLen}
		for f := range m.stats[c].df {
			nm.stats[c].df[f] = maps.Clone(m.stats[c].df[f])
		}
	}
	for _, id := range removed {
		s, ok := slotOf[id]
		if !ok || nm.dead[s] || s >= m.n {
			continue
		}
		nm.dead[s] = true
		d := m.decls[s]
		c := collOf(d)
		terms := fieldTerms(d)
		nm.stats[c].docs--
		for f := range terms {
			nm.stats[c].sumLen[f] -= float64(len(terms[f]))
			for _, t := range uniq(terms[f]) {
				nm.stats[c].df[f][t]--
			}
		}
	}
	nm.add(decls, slotOf)
	return nm
}

// add appends decls as new slots (only called on a version nobody reads
// yet).
func (m *model) add(decls []*library.Decl, slotOf map[string]int32) {
	// Analyze in parallel, insert in order.
	var keep []*library.Decl
	for _, d := range decls {
		if indexed(d) {
			keep = append(keep, d)
		}
	}
	analyzed := make([][nFields][]string, len(keep))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(keep)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(keep); i += workers {
				analyzed[i] = fieldTerms(keep[i])
			}
		}()
	}
	wg.Wait()
	for i, d := range keep {
		s := m.n
		m.n++
		id := docID(d)
		slotOf[id] = s
		m.ids = append(m.ids[:s], id)
		m.decls = append(m.decls[:s], d)
		terms := analyzed[i]
		c := collOf(d)
		m.stats[c].docs++
		for f := range terms {
			m.length[f] = append(m.length[f][:s], float32(len(terms[f])))
			m.stats[c].sumLen[f] += float64(len(terms[f]))
			ts := append([]string(nil), terms[f]...)
			sort.Strings(ts)
			for j := 0; j < len(ts); {
				k := j
				for k < len(ts) && ts[k] == ts[j] {
					k++
				}
				t := ts[j]
				m.stats[c].df[f][t]++
				m.post[f][t] = append(m.post[f][t], posting{slot: s, tf: uint16(min(k-j, math.MaxUint16))})
				j = k
			}
		}
		m.nameT = append(m.nameT[:s], uniq(terms[fName]))
		m.coll = append(m.coll[:s], uint8(c))
	}
}

// idf is the BM25 inverse document frequency of t in field f of collection c.
func (m *model) idf(c int, f field, t string) float64 {
	n := float64(m.stats[c].docs)
	df := float64(m.stats[c].df[f][t])
	return math.Log(1 + (n-df+0.5)/(df+0.5))
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
func (m *model) premiseScores(q []string, w Ranking) map[int32]float64 {
	qs := uniq(q)
	st := &m.stats[0]
	avgDoc := st.sumLen[fDoc] / float64(max(1, st.docs))
	a := getAccum(m.n)
	defer a.release()
	for _, t := range qs {
		for _, f := range []field{fName, fNS, fDoc} {
			ps := m.post[f][t]
			if len(ps) == 0 {
				continue
			}
			idf := m.idf(0, f, t)
			if idf <= 0 {
				continue
			}
			for _, p := range ps {
				if p.slot >= m.n || m.coll[p.slot] != 0 || m.dead[p.slot] {
					continue
				}
				v := idf
				if f == fDoc {
					v = idf * bm25(float64(p.tf), float64(m.length[fDoc][p.slot]), avgDoc)
				}
				a.add(int(f), p.slot, v)
			}
		}
	}
	out := make(map[int32]float64, len(a.touched))
	for _, s := range a.touched {
		v := 0.0
		if h := a.v[fName][s]; h > 0 {
			v += w.NameField * h * math.Pow(m.coverage(s, h), w.Coverage)
		}
		v += w.NSField*a.v[fNS][s] + w.DocField*a.v[fDoc][s]
		out[s] = v
	}
	return out
}

// coverage is the idf-weighted share of slot s's name terms that the query
// matched (matched is their idf sum).
func (m *model) coverage(s int32, matched float64) float64 {
	total := 0.0
	for _, t := range m.nameT[s] {
		total += m.idf(0, fName, t)
	}
	if total <= 0 {
		return 0
	}
	return min(1, matched/total)
}

// theoremScores ranks theorems by BM25 over their name pieces and
// docstrings, for graph feedback; it returns the best n slots with scores.
func (m *model) theoremScores(q []string, n int) ([]int32, []float64) {
	qs := uniq(q)
	st := &m.stats[1]
	var avg [nFields]float64
	for f := range avg {
		avg[f] = st.sumLen[f] / float64(max(1, st.docs))
	}
	a := getAccum(m.n)
	defer a.release()
	for _, t := range qs {
		for _, f := range []field{fName, fDoc} {
			ps := m.post[f][t]
			if len(ps) == 0 {
				continue
			}
			idf := m.idf(1, f, t)
			if idf <= 0 {
				continue
			}
			for _, p := range ps {
				if p.slot >= m.n || m.coll[p.slot] != 1 || m.dead[p.slot] {
					continue
				}
				a.add(0, p.slot, idf*bm25(float64(p.tf), float64(m.length[f][p.slot]), avg[f]))
			}
		}
	}
	h := &topN{n: n}
	for _, s := range a.touched {
		h.push(s, a.v[0][s])
	}
	return h.sorted()
}

// topN keeps the n best (slot, score) pairs seen.
type topN struct {
	n     int
	slots []int32
	sc    []float64
}

func (h *topN) less(i, j int) bool { // min-heap: worst first
	if h.sc[i] != h.sc[j] {
		return h.sc[i] < h.sc[j]
	}
	return h.slots[i] > h.slots[j]
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
	if v < h.sc[0] || (v == h.sc[0] && s > h.slots[0]) {
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

// sorted returns the kept pairs, best first (ties by smaller slot).
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
		return h.slots[i] < h.slots[j]
	})
	slots := make([]int32, len(idx))
	sc := make([]float64, len(idx))
	for k, i := range idx {
		slots[k], sc[k] = h.slots[i], h.sc[i]
	}
	return slots, sc
}
