// Package names is the name channel of retrieval: a suffix array over the
// full names of every declaration (the DDR paper's "suffix array check"),
// answering exact, dotted-suffix, partial and similar-name lookups in
// microseconds. An Index is immutable and safe for concurrent use.
package names

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"index/suffixarray"
	"io"
	"maps"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/varcode"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// sep separates names in the suffix array's text; it never occurs in a name.
const sep = "\x00"

// maxDist is the largest edit distance between last components that Similar
// still reports.
const maxDist = 2

// rebuildAt is the overlay size at which With rebuilds the suffix array.
const rebuildAt = 4096

// Index answers name lookups over a fixed set of declarations: a suffix
// array over a base set, plus a small overlay of names added and removed
// since (see With).
type Index struct {
	base    *base
	extra   []string        // names added since base, sorted
	removed map[string]bool // base names removed since base
	twin    map[string]string
}

// base is the suffix-array part of an Index, shared between versions.
type base struct {
	text  []byte
	sa    *suffixarray.Index
	names []string // sorted, distinct
	start []int    // start offset of names[i] in text
	sigs  []uint64 // letter-set signature of lasts[i]
	lasts []string // distinct last components, sorted
	// lastOf lists, per entry of lasts, the indexes in names of the names
	// ending in it: lastOf[lastAt[i]:lastAt[i+1]].
	lastAt []int32
	lastOf []int32
}

// New builds the index over the names of decls.
func New(decls []*library.Decl) *Index {
	twin := map[string]string{}
	var all []string
	for _, d := range decls {
		if d == nil || d.Name == "" || strings.Contains(d.Name, sep) {
			continue
		}
		addTwin(twin, d)
		all = append(all, d.Name)
	}
	return &Index{base: newBase(all), twin: twin}
}

func addTwin(twin map[string]string, d *library.Decl) {
	if d.Twin != "" {
		twin[d.Name] = d.Twin
		if _, ok := twin[d.Twin]; !ok {
			twin[d.Twin] = d.Name
		}
	}
}

// With returns a new index without the names in remove and with the names
// of add; the receiver is unchanged. Small changes are kept in an overlay
// beside the shared suffix array, so one file's update costs microseconds.
func (ix *Index) With(remove []string, add []*library.Decl) *Index {
	out := &Index{base: ix.base, removed: map[string]bool{}, twin: ix.twin}
	for n := range ix.removed {
		out.removed[n] = true
	}
	drop := map[string]bool{}
	for _, n := range remove {
		drop[n] = true
		if ix.base.has(n) {
			out.removed[n] = true
		}
	}
	extra := map[string]bool{}
	for _, n := range ix.extra {
		if !drop[n] {
			extra[n] = true
		}
	}
	twinCopied := false
	for _, d := range add {
		if d == nil || d.Name == "" || strings.Contains(d.Name, sep) {
			continue
		}
		if d.Twin != "" {
			if !twinCopied {
				out.twin = make(map[string]string, len(ix.twin)+len(add))
				for k, v := range ix.twin {
					out.twin[k] = v
				}
				twinCopied = true
			}
			addTwin(out.twin, d)
		}
		if ix.base.has(d.Name) {
			delete(out.removed, d.Name)
		} else {
			extra[d.Name] = true
		}
	}
	for n := range extra {
		out.extra = append(out.extra, n)
	}
	sort.Strings(out.extra)
	if len(out.extra)+len(out.removed) > rebuildAt {
		var all []string
		for _, n := range ix.base.names {
			if !out.removed[n] {
				all = append(all, n)
			}
		}
		all = append(all, out.extra...)
		return &Index{base: newBase(all), twin: out.twin}
	}
	return out
}

func newBase(all []string) *base {
	ix := &base{}
	sort.Strings(all)
	for i, n := range all {
		if i == 0 || n != all[i-1] {
			ix.names = append(ix.names, n)
		}
	}
	var b strings.Builder
	b.WriteString(sep)
	for _, n := range ix.names {
		b.WriteString(n)
		b.WriteString(sep)
	}
	ix.text = []byte(b.String())
	ix.sa = suffixarray.New(ix.text)
	ix.derive()
	return ix
}

// derive fills the tables computed from names: offsets, last components
// and their signatures.
func (ix *base) derive() {
	ix.start = make([]int, len(ix.names))
	off := len(sep)
	type pair struct {
		last string
		i    int32
	}
	pairs := make([]pair, len(ix.names))
	for i, n := range ix.names {
		ix.start[i] = off
		off += len(n) + len(sep)
		pairs[i] = pair{Last(n), int32(i)}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if c := strings.Compare(a.last, b.last); c != 0 {
			return c
		}
		return int(a.i - b.i)
	})
	ix.lastOf = make([]int32, len(pairs))
	for k, p := range pairs {
		if k == 0 || p.last != pairs[k-1].last {
			ix.lasts = append(ix.lasts, p.last)
			ix.lastAt = append(ix.lastAt, int32(k))
		}
		ix.lastOf[k] = p.i
	}
	ix.lastAt = append(ix.lastAt, int32(len(pairs)))
	ix.sigs = make([]uint64, len(ix.lasts))
	for i, l := range ix.lasts {
		ix.sigs[i] = signature(l)
	}
}

// withLast returns the names whose last component is lasts[i].
func (ix *base) withLast(i int) []string {
	out := make([]string, 0, ix.lastAt[i+1]-ix.lastAt[i])
	for _, k := range ix.lastOf[ix.lastAt[i]:ix.lastAt[i+1]] {
		out = append(out, ix.names[k])
	}
	return out
}

// Encode writes an index without overlay (as New returns it) so that
// Decode can restore it without rebuilding the suffix array.
func (ix *Index) Encode(w io.Writer) error {
	if len(ix.extra) > 0 || len(ix.removed) > 0 {
		return errors.New("names: Encode of an index with an overlay")
	}
	var e varcode.Encoder
	e.Uint(uint64(len(ix.twin)))
	for _, k := range slices.Sorted(maps.Keys(ix.twin)) {
		e.Bytes([]byte(k))
		e.Bytes([]byte(ix.twin[k]))
	}
	bw := bufio.NewWriter(w)
	if _, err := bw.Write(e.Buf); err != nil {
		return err
	}
	if err := ix.base.sa.Write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// Decode reads an index written by Encode.
func Decode(data []byte) (*Index, error) {
	d := varcode.Decoder{Buf: data}
	n := d.Count()
	twin := make(map[string]string, n)
	for range n {
		k := string(d.Bytes())
		twin[k] = string(d.Bytes())
	}
	if d.Err != nil {
		return nil, fmt.Errorf("names: %w", d.Err)
	}
	b := &base{sa: &suffixarray.Index{}}
	if err := b.sa.Read(bytes.NewReader(data[d.Pos:])); err != nil {
		return nil, fmt.Errorf("names: %w", err)
	}
	b.text = b.sa.Bytes()
	if len(b.text) > len(sep) {
		b.names = strings.Split(string(b.text[len(sep):len(b.text)-len(sep)]), sep)
	}
	b.derive()
	return &Index{base: b, twin: twin}, nil
}

func (b *base) has(name string) bool {
	i := sort.SearchStrings(b.names, name)
	return i < len(b.names) && b.names[i] == name
}

// Len returns the number of distinct names in the index.
func (ix *Index) Len() int { return len(ix.base.names) - len(ix.removed) + len(ix.extra) }

// Exact reports whether name is the full name of a declaration.
func (ix *Index) Exact(name string) bool {
	if ix.base.has(name) {
		return !ix.removed[name]
	}
	i := sort.SearchStrings(ix.extra, name)
	return i < len(ix.extra) && ix.extra[i] == name
}

// nameAt returns the name that contains text offset off.
func (ix *base) nameAt(off int) string {
	i := sort.SearchInts(ix.start, off+1) - 1
	if i < 0 {
		return ""
	}
	return ix.names[i]
}

// lookup returns the distinct names whose text sep+name+sep contains
// pattern, in name order.
func (ix *Index) lookup(pattern string, limit int) []string {
	if pattern == "" {
		return nil
	}
	offs := ix.base.sa.Lookup([]byte(pattern), -1)
	seen := map[string]bool{}
	var out []string
	for _, off := range offs {
		n := ix.base.nameAt(off)
		if n != "" && !seen[n] && !ix.removed[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range ix.extra {
		if strings.Contains(sep+n+sep, pattern) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// Contains reports whether some name contains s.
func (ix *Index) Contains(s string) bool {
	return ix.any(s)
}

// EndsWith reports whether some name ends with s.
func (ix *Index) EndsWith(s string) bool {
	return s != "" && ix.any(s+sep)
}

// any reports whether some name's text sep+name+sep contains pattern; it
// stops at the first match.
func (ix *Index) any(pattern string) bool {
	if pattern == "" || strings.Contains(strings.TrimSuffix(pattern, sep), sep) {
		return false
	}
	n := 1
	if len(ix.removed) > 0 {
		n = -1
	}
	for _, off := range ix.base.sa.Lookup([]byte(pattern), n) {
		if !ix.removed[ix.base.nameAt(off)] {
			return true
		}
	}
	for _, x := range ix.extra {
		if strings.Contains(sep+x+sep, pattern) {
			return true
		}
	}
	return false
}

// Suffix returns the names equal to s or ending in "."+s, shortest first.
func (ix *Index) Suffix(s string) []string {
	s = strings.TrimPrefix(s, "_root_.")
	if s == "" || strings.Contains(s, sep) {
		return nil
	}
	out := ix.lookup("."+s+sep, -1)
	if ix.Exact(s) {
		out = append([]string{s}, out...)
	}
	sortByLen(out)
	return out
}

// Partial returns up to limit names that contain s anywhere, preferring
// names where s is the whole last component, then a suffix, then shorter
// names.
func (ix *Index) Partial(s string, limit int) []string {
	if s == "" || strings.Contains(s, sep) {
		return nil
	}
	all := ix.lookup(s, -1)
	rank := func(n string) int {
		switch {
		case n == s:
			return 0
		case strings.HasSuffix(n, "."+s):
			return 1
		case strings.HasSuffix(n, s):
			return 2
		case strings.HasPrefix(n, s) || strings.Contains(n, "."+s):
			return 3
		}
		return 4
	}
	sort.SliceStable(all, func(i, j int) bool {
		ri, rj := rank(all[i]), rank(all[j])
		if ri != rj {
			return ri < rj
		}
		if len(all[i]) != len(all[j]) {
			return len(all[i]) < len(all[j])
		}
		return all[i] < all[j]
	})
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	return all
}

// Similar suggests up to limit existing names for a possibly misspelt or
// hallucinated name: its to_additive twin, names with the same last
// component in other namespaces, then names whose last component is within
// a small edit distance, closest first.
func (ix *Index) Similar(name string, limit int) []string {
	if name == "" || limit == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{name: true}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if t, ok := ix.twin[name]; ok && ix.Exact(t) {
		add(t)
	}
	l := Last(name)
	var same []string
	if i, ok := slices.BinarySearch(ix.base.lasts, l); ok {
		for _, n := range ix.base.withLast(i) {
			if !ix.removed[n] {
				same = append(same, n)
			}
		}
	}
	for _, n := range ix.extra {
		if Last(n) == l {
			same = append(same, n)
		}
	}
	dist := make(map[string]int, len(same))
	for _, n := range same {
		dist[n] = Distance(n, name)
	}
	sort.Slice(same, func(i, j int) bool {
		if di, dj := dist[same[i]], dist[same[j]]; di != dj {
			return di < dj
		}
		return same[i] < same[j]
	})
	for _, n := range same {
		add(n)
	}
	type cand struct {
		n string
		d int
	}
	var near []cand
	sig := signature(l)
	for i, c := range ix.base.lasts {
		// One edit changes the presence of at most two symbols.
		if c == l || abs(len(c)-len(l)) > maxDist || bits.OnesCount64(sig^ix.base.sigs[i]) > 2*maxDist {
			continue
		}
		if d, ok := within(c, l, maxDist); ok {
			for _, n := range ix.base.withLast(i) {
				if !ix.removed[n] {
					near = append(near, cand{n, d*1000 + Distance(n, name)})
				}
			}
		}
	}
	for _, n := range ix.extra {
		c := Last(n)
		if c != l && abs(len(c)-len(l)) <= maxDist {
			if d, ok := within(c, l, maxDist); ok {
				near = append(near, cand{n, d*1000 + Distance(n, name)})
			}
		}
	}
	sort.Slice(near, func(i, j int) bool {
		if near[i].d != near[j].d {
			return near[i].d < near[j].d
		}
		return near[i].n < near[j].n
	})
	for _, c := range near {
		add(c.n)
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// Last returns the last dot-separated component of a full name, keeping
// «guillemet» components intact.
func Last(name string) string {
	depth := 0
	cut := -1
	for i, r := range name {
		switch r {
		case '«':
			depth++
		case '»':
			if depth > 0 {
				depth--
			}
		case '.':
			if depth == 0 && i+1 < len(name) {
				cut = i
			}
		}
	}
	return name[cut+1:]
}

// Distance is the Levenshtein edit distance between a and b, counted in
// runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// within computes the edit distance of a and b (bytes) when it is at most
// k, reporting false otherwise; only a diagonal band of the table is
// filled and the computation stops as soon as the band exceeds k.
func within(a, b string, k int) (int, bool) {
	if abs(len(a)-len(b)) > k {
		return 0, false
	}
	const inf = 1 << 20
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		for j := range cur {
			cur[j] = inf
		}
		if lo == 1 {
			cur[0] = i
		}
		best := cur[0]
		for j := lo; j <= hi; j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
			best = min(best, c)
		}
		if best > k {
			return 0, false
		}
		prev, cur = cur, prev
	}
	if d := prev[len(b)]; d <= k {
		return d, true
	}
	return 0, false
}

// signature is the set of byte classes occurring in s, one bit each.
func signature(s string) uint64 {
	var v uint64
	for i := 0; i < len(s); i++ {
		v |= 1 << (s[i] % 64)
	}
	return v
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sortByLen(s []string) {
	sort.SliceStable(s, func(i, j int) bool {
		if len(s[i]) != len(s[j]) {
			return len(s[i]) < len(s[j])
		}
		return s[i] < s[j]
	})
}
