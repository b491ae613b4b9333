package retrieval

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// field indexes one analyzed field of the lexical model.
type field int

const (
	fName field = iota // pieces of the last name component
	fNS                // pieces of the namespace
	fDoc               // docstring, informal description, notation symbol
	fLead              // the docstring's first sentence
	fBold              // the docstring's bold terms and "also known as" names
	fMain              // the module docstring's description of a main declaration
	fStmt              // the statement rendered into words and notation symbols (statement.go)
	nFields
)

// The collections of the lexical model: each has its own BM25 statistics.
const (
	collPremise = iota // premise-like kinds (def, structure, class, …)
	collTheorem        // theorems
	collOther          // instances, aliases, notations
	nColl
)

// posting is one document's term frequency in a field.
type posting struct {
	slot int32
	tf   uint16
	_    uint16
}

// postings are the inverted lists of one field: sorted distinct terms, the
// list of each term (post[start[i]:start[i+1]]) and its document frequency
// per collection (df[nColl*i+c]).
type postings struct {
	terms []string
	start []uint32
	post  []posting
	df    []int32
}

// find returns the index of term t, or -1.
func (p *postings) find(t string) int {
	i, ok := slices.BinarySearch(p.terms, t)
	if !ok {
		return -1
	}
	return i
}

// list returns the postings of term index i.
func (p *postings) list(i int) []posting { return p.post[p.start[i]:p.start[i+1]] }

// csr is a compressed sparse row table: the values of row i are
// vals[start[i]:start[i+1]].
type csr struct {
	start []uint32
	vals  []int32
}

func (c *csr) row(i int) []int32 { return c.vals[c.start[i]:c.start[i+1]] }

// collStats are the BM25 statistics of one collection.
type collStats struct {
	docs   int64
	sumLen [nFields]int64
}

// part indexes one list of declarations whose slots start at off: the
// lexical postings, the dependency graph and the name table. A snapshot's
// base is one part over the library as loaded; its overlay is one part over
// the files changed since. A part is immutable; the base one may live in a
// memory-mapped file (see persist.go).
type part struct {
	off   int32
	decls []*library.Decl // local slot -> declaration

	fields [nFields]postings
	nameT  csr // local slot -> indexes of its distinct name terms in fields[fName]
	coll   []uint8
	length [nFields][]uint16
	stats  [nColl]collStats

	// keys are the sorted distinct declaration names and dependency targets;
	// the graph tables are indexed by key.
	keys   []string
	byName csr     // key -> local slots declaring it
	usedBy csr     // key -> local slots of theorems whose statement uses it
	indeg  []int32 // key -> number of (non-notation) statements using it
	notes  []int32 // key -> number of notations unfolding to it
	files  []string
	fileOf csr // file index -> local slots

	// synPairs (base only) are the lexicon mined from its declarations
	// (see minePairs), stored so that a warm start does not mine again.
	synPairs []lexPair
}

// docID is a declaration's identity: unique per file and name.
func docID(d *library.Decl) string {
	return fileKey(d) + "\x1f" + d.Name
}

// fileKey identifies the file a declaration came from across packages.
func fileKey(d *library.Decl) string {
	return d.Package + ":" + d.File
}

// dedup drops nil and unnamed declarations and later duplicates of an ID.
// Declarations come grouped by file (the library's order), so names are
// compared within each file's run; a file whose declarations are not
// contiguous (a corpus dump) falls back to one set over all IDs.
func dedup(decls []*library.Decl) []*library.Decl {
	out := make([]*library.Decl, 0, len(decls))
	files := map[string]bool{}
	var run map[string]bool
	var pkg, file string
	for i, d := range decls {
		if d == nil || d.Name == "" {
			continue
		}
		if run == nil || d.Package != pkg || d.File != file {
			pkg, file = d.Package, d.File
			k := fileKey(d)
			if files[k] {
				return dedupAll(decls)
			}
			files[k] = true
			run = map[string]bool{}
		}
		if run[d.Name] {
			continue
		}
		run[d.Name] = true
		out = append(out, decls[i])
	}
	return out
}

// dedupAll is dedup over declarations in any order.
func dedupAll(decls []*library.Decl) []*library.Decl {
	seen := make(map[string]bool, len(decls))
	out := make([]*library.Decl, 0, len(decls))
	for _, d := range decls {
		if d == nil || d.Name == "" {
			continue
		}
		if id := docID(d); !seen[id] {
			seen[id] = true
			out = append(out, d)
		}
	}
	return out
}

// premiseKind reports whether declarations of kind k are candidate premises
// (things a statement names), and how strongly.
func premiseKind(k library.Kind) float64 {
	switch k {
	case library.KindDef, library.KindAbbrev, library.KindStructure, library.KindClass,
		library.KindInductive, library.KindClassInductive, library.KindOpaque:
		return 1
	case library.KindAxiom, library.KindField, library.KindConstructor:
		return 0.5
	}
	return 0
}

func collOf(d *library.Decl) uint8 {
	switch {
	case premiseKind(d.Kind) > 0:
		return collPremise
	case d.Kind == library.KindTheorem:
		return collTheorem
	}
	return collOther
}

// fieldAnalyzer analyzes the fields of declarations for one goroutine: the
// analyzer's cache and a scratch buffer, so that each field is allocated
// once at its size.
type fieldAnalyzer struct {
	a    *lexical.Analyzer
	buf  []string
	syms []string // the statement's symbols (appendStatementTerms)
}

func newFieldAnalyzer() *fieldAnalyzer { return &fieldAnalyzer{a: lexical.NewAnalyzer()} }

// done returns the terms in the scratch buffer as a field's own slice, nil
// when empty.
func (fa *fieldAnalyzer) done() []string {
	if len(fa.buf) == 0 {
		return nil
	}
	return slices.Clone(fa.buf)
}

// terms analyzes text into a field's terms.
func (fa *fieldAnalyzer) terms(text string) []string {
	fa.buf = fa.a.AppendTerms(fa.buf[:0], text)
	return fa.done()
}

// fieldTerms analyzes the lexical fields of a declaration; fields are the
// names of its fields and constructors (fieldsByParent). fa, when not
// nil, is the calling goroutine's analyzer.
func fieldTerms(fa *fieldAnalyzer, d *library.Decl, fields []string) [nFields][]string {
	if fa == nil {
		fa = newFieldAnalyzer()
	}
	var out [nFields][]string
	last := names.Last(d.Name)
	ns := ""
	if len(last) < len(d.Name) {
		ns = d.Name[:len(d.Name)-len(last)-1]
	}
	fa.buf = fa.a.AppendName(fa.buf[:0], last)
	out[fName] = fa.done()
	out[fNS] = fa.terms(ns)
	doc := d.Doc
	if d.Informal != "" {
		doc += "\n" + d.Informal
	}
	if len(doc) > 1200 {
		doc = strings.ToValidUTF8(doc[:1200], "")
	}
	if d.Symbol != "" {
		doc += " " + d.Symbol
	}
	out[fDoc] = fa.terms(doc)
	out[fLead] = fa.terms(leansrc.FirstSentence(d.Doc))
	out[fBold] = fa.terms(strings.Join(append(leansrc.BoldTerms(d.Doc), leansrc.AlsoKnownAs(d.Doc)...), "\n"))
	out[fMain] = fa.terms(d.MainDoc)
	fa.buf = appendStatementTerms(fa.buf[:0], fa, d, fields)
	out[fStmt] = fa.done()
	return out
}

// graphEdges calls f for each distinct statement dependency of d that counts
// in the graph (not the declaration itself).
func graphEdges(d *library.Decl, f func(dep string)) {
	for i, dep := range d.StatementDeps {
		if dep == d.Name || slices.Contains(d.StatementDeps[:i], dep) {
			continue
		}
		f(dep)
	}
}

// analyzeAll runs fieldTerms over decls in parallel; progress, when not
// nil, is called with the number analyzed so far (every 4,096).
func analyzeAll(ctx context.Context, decls []*library.Decl, progress func(done int)) [][nFields][]string {
	out := make([][nFields][]string, len(decls))
	children := fieldsByParent(decls)
	workers := max(1, min(runtime.GOMAXPROCS(0), len(decls)/256))
	var wg sync.WaitGroup
	var done atomic.Int64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fa := newFieldAnalyzer()
			for i := w; i < len(decls); i += workers {
				if i%1024 < workers && ctx.Err() != nil {
					return // cancelled: the caller drops the result
				}
				out[i] = fieldTerms(fa, decls[i], children[decls[i].Name])
				if n := done.Add(1); progress != nil && n%4096 == 0 {
					progress(int(n))
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// buildPart indexes decls (already deduplicated) at slots off, off+1, …;
// progress, when not nil, counts the declarations analyzed. When ctx ends
// the result is incomplete and must be dropped.
func buildPart(ctx context.Context, decls []*library.Decl, off int32, progress func(done int)) *part {
	return buildAnalyzed(decls, analyzeAll(ctx, decls, progress), off)
}

// buildAnalyzed is buildPart with the declarations' fields already
// analyzed.
func buildAnalyzed(decls []*library.Decl, analyzed [][nFields][]string, off int32) *part {
	p := &part{off: off, decls: decls, coll: make([]uint8, len(decls))}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.buildGraph()
	}()
	for f := range nFields {
		p.length[f] = make([]uint16, len(decls))
	}
	for i, d := range decls {
		p.coll[i] = collOf(d)
		c := &p.stats[p.coll[i]]
		c.docs++
		for f := range nFields {
			n := min(len(analyzed[i][f]), math.MaxUint16)
			p.length[f][i] = uint16(n)
			c.sumLen[f] += int64(n)
		}
	}
	for f := range nFields {
		p.fields[f] = buildPostings(analyzed, field(f), p.coll, off)
	}
	// Name terms per slot, as indexes into the name field's terms.
	p.nameT.start = make([]uint32, len(decls)+1)
	for i := range decls {
		for _, t := range uniq(analyzed[i][fName]) {
			p.nameT.vals = append(p.nameT.vals, int32(p.fields[fName].find(t)))
		}
		p.nameT.start[i+1] = uint32(len(p.nameT.vals))
	}
	wg.Wait()
	return p
}

// buildPostings inverts one field of the analyzed declarations: one map
// lookup per term occurrence (a declaration's terms arrive in any order;
// its postings are appended slot by slot, so a term seen again in the same
// slot only counts), then the distinct terms sorted once.
func buildPostings(analyzed [][nFields][]string, f field, coll []uint8, off int32) postings {
	idx := map[string]int32{}
	var terms []string
	var lists [][]posting
	n := 0
	for i := range analyzed {
		slot := off + int32(i)
		for _, t := range analyzed[i][f] {
			k, ok := idx[t]
			if !ok {
				k = int32(len(terms))
				idx[t] = k
				terms = append(terms, t)
				lists = append(lists, nil)
			}
			l := lists[k]
			if m := len(l); m > 0 && l[m-1].slot == slot {
				if l[m-1].tf < math.MaxUint16 {
					l[m-1].tf++
				}
				continue
			}
			lists[k] = append(l, posting{slot: slot, tf: 1})
			n++
		}
	}
	order := make([]int32, len(terms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(terms[a], terms[b]) })
	var p postings
	p.terms = make([]string, len(terms))
	p.start = make([]uint32, len(terms)+1)
	p.df = make([]int32, nColl*len(terms))
	p.post = make([]posting, 0, n)
	for i, k := range order {
		p.terms[i] = terms[k]
		for _, x := range lists[k] {
			p.df[nColl*i+int(coll[x.slot-off])]++
		}
		p.post = append(p.post, lists[k]...)
		p.start[i+1] = uint32(len(p.post))
	}
	return p
}

// buildGraph fills the key table, byName, usedBy, indeg, notes and files.
func (p *part) buildGraph() {
	keySet := map[string]struct{}{}
	fileSet := map[string]struct{}{}
	for _, d := range p.decls {
		keySet[d.Name] = struct{}{}
		fileSet[fileKey(d)] = struct{}{}
		for _, dep := range d.StatementDeps {
			keySet[dep] = struct{}{}
		}
	}
	p.keys = sortedKeys(keySet)
	p.files = sortedKeys(fileSet)
	idx := make(map[string]int32, len(p.keys))
	for i, k := range p.keys {
		idx[k] = int32(i)
	}
	fidx := make(map[string]int32, len(p.files))
	for i, k := range p.files {
		fidx[k] = int32(i)
	}
	p.indeg = make([]int32, len(p.keys))
	p.notes = make([]int32, len(p.keys))
	var byName, usedBy, fileOf [][2]int32
	for i, d := range p.decls {
		s := int32(i)
		byName = append(byName, [2]int32{idx[d.Name], s})
		fileOf = append(fileOf, [2]int32{fidx[fileKey(d)], s})
		if d.Kind == library.KindNotation {
			graphEdges(d, func(dep string) { p.notes[idx[dep]]++ })
			continue
		}
		graphEdges(d, func(dep string) {
			k := idx[dep]
			p.indeg[k]++
			if d.Kind == library.KindTheorem {
				usedBy = append(usedBy, [2]int32{k, s})
			}
		})
	}
	p.byName = toCSR(byName, len(p.keys))
	p.usedBy = toCSR(usedBy, len(p.keys))
	p.fileOf = toCSR(fileOf, len(p.files))
}

func sortedKeys(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// toCSR groups (row, value) pairs by row, keeping the order of values.
func toCSR(pairs [][2]int32, rows int) csr {
	c := csr{start: make([]uint32, rows+1), vals: make([]int32, len(pairs))}
	for _, p := range pairs {
		c.start[p[0]+1]++
	}
	for i := 1; i <= rows; i++ {
		c.start[i] += c.start[i-1]
	}
	fill := slices.Clone(c.start[:rows])
	for _, p := range pairs {
		c.vals[fill[p[0]]] = p[1]
		fill[p[0]]++
	}
	return c
}

// key returns the index of a name in the key table, or -1.
func (p *part) key(name string) int {
	i, ok := slices.BinarySearch(p.keys, name)
	if !ok {
		return -1
	}
	return i
}

// n is the number of slots of the part.
func (p *part) n() int32 { return int32(len(p.decls)) }
