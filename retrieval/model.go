package retrieval

import (
	"math"
	"sort"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/retrieval/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// field indexes one analyzed field of the in-memory premise model.
type field int

const (
	fName field = iota // pieces of the last name component
	fNS                // pieces of the namespace
	fDoc               // docstring, informal description, notation symbol
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
	coll   []uint8            // slot -> collection (0 premises, 1 theorems)
	length [nFields][]float32 // slot -> field length in terms
	// per-field document counts and total lengths over live slots, split
	// into premise-like and theorem collections.
	stats [2]collStats
}

// collStats are BM25 collection statistics.
type collStats struct {
	docs   int
	sumLen [nFields]float64
	df     [nFields]map[string]int
}

func collOf(d *library.Decl) int {
	if premiseKind(d.Kind) > 0 {
		return 0
	}
	return 1
}

// indexed reports whether a declaration enters the model at all: premise
// candidates and theorems (which vote through the graph).
func indexed(d *library.Decl) bool {
	return premiseKind(d.Kind) > 0 || d.Kind == library.KindTheorem
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
	nm.dead = make(map[int32]bool, len(m.dead)+len(removed))
	for s := range m.dead {
		nm.dead[s] = true
	}
	for f := range m.post {
		nm.post[f] = make(map[string][]posting, len(m.post[f]))
		for t, p := range m.post[f] {
			nm.post[f][t] = p
		}
	}
	for c := range m.stats {
		nm.stats[c] = collStats{docs: m.stats[c].docs, sumLen: m.stats[c].sumLen}
		for f := range m.stats[c].df {
			nm.stats[c].df[f] = make(map[string]int, len(m.stats[c].df[f]))
			for t, v := range m.stats[c].df[f] {
				nm.stats[c].df[f][t] = v
			}
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
	for _, d := range decls {
		if !indexed(d) {
			continue
		}
		s := m.n
		m.n++
		id := docID(d)
		slotOf[id] = s
		m.ids = append(m.ids[:s], id)
		m.decls = append(m.decls[:s], d)
		terms := fieldTerms(d)
		c := collOf(d)
		m.stats[c].docs++
		for f := range terms {
			m.length[f] = append(m.length[f][:s], float32(len(terms[f])))
			m.stats[c].sumLen[f] += float64(len(terms[f]))
			tf := map[string]int{}
			for _, t := range terms[f] {
				tf[t]++
			}
			keys := make([]string, 0, len(tf))
			for t := range tf {
				keys = append(keys, t)
			}
			sort.Strings(keys)
			for _, t := range keys {
				m.stats[c].df[f][t]++
				p := m.post[f][t]
				m.post[f][t] = append(p, posting{slot: s, tf: uint16(min(tf[t], math.MaxUint16))})
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

// premiseScores scores premise-like slots against query terms: name-term
// evidence scaled by how much of the name the query covers, namespace
// evidence likewise, and BM25 over docstrings.
func (m *model) premiseScores(q []string, w Ranking) map[int32]float64 {
	qs := uniq(q)
	st := &m.stats[0]
	avgDoc := st.sumLen[fDoc] / float64(max(1, st.docs))
	nameHit := map[int32]float64{}
	nsHit := map[int32]float64{}
	docS := map[int32]float64{}
	for _, t := range qs {
		for _, f := range []field{fName, fNS, fDoc} {
			ps := m.post[f][t]
			if len(ps) == 0 {
				continue
			}
			idf := m.idf(0, f, t)
			for _, p := range ps {
				if p.slot >= m.n || m.coll[p.slot] != 0 || m.dead[p.slot] {
					continue
				}
				switch f {
				case fName:
					nameHit[p.slot] += idf
				case fNS:
					nsHit[p.slot] += idf
				case fDoc:
					docS[p.slot] += idf * bm25(float64(p.tf), float64(m.length[fDoc][p.slot]), avgDoc)
				}
			}
		}
	}
	out := make(map[int32]float64, len(nameHit)+len(docS))
	for s, h := range nameHit {
		out[s] += w.NameField * h * math.Pow(m.coverage(s, h), w.Coverage)
	}
	for s, h := range nsHit {
		out[s] += w.NSField * h
	}
	for s, v := range docS {
		out[s] += w.DocField * v
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
	acc := map[int32]float64{}
	for _, t := range qs {
		for _, f := range []field{fName, fDoc} {
			ps := m.post[f][t]
			if len(ps) == 0 {
				continue
			}
			idf := m.idf(1, f, t)
			for _, p := range ps {
				if p.slot >= m.n || m.coll[p.slot] != 1 || m.dead[p.slot] {
					continue
				}
				acc[p.slot] += idf * bm25(float64(p.tf), float64(m.length[f][p.slot]), avg[f])
			}
		}
	}
	slots := make([]int32, 0, len(acc))
	for s := range acc {
		slots = append(slots, s)
	}
	sort.Slice(slots, func(i, j int) bool {
		if acc[slots[i]] != acc[slots[j]] {
			return acc[slots[i]] > acc[slots[j]]
		}
		return slots[i] < slots[j]
	})
	if len(slots) > n {
		slots = slots[:n]
	}
	sc := make([]float64, len(slots))
	for i, s := range slots {
		sc[i] = acc[s]
	}
	return slots, sc
}
