package retrieval

import (
	"context"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// snapshot is an immutable view of the whole library that one query reads.
// It is a base part (the library as loaded, possibly memory-mapped from the
// cache) plus an overlay part over the files that changed since (edited
// buffers, files changed on disk). Every derived figure — popularity,
// notation targets, document frequencies — is the base's value minus the
// contribution of the base declarations the overlay hides plus the
// overlay's own, so it equals what a fresh build from the same files gives.
// An update rebuilds only the overlay: its cost is proportional to the
// changed files, not to the library.
type snapshot struct {
	base *part
	over *part
	// changed maps each file key the overlay covers to its current
	// declarations (none when the file was removed); buffered marks those
	// whose declarations come from unsaved editor text.
	changed  map[string][]*library.Decl
	buffered map[string]bool
	// seq counts the updates applied since the engine started; gen records
	// the update that last changed each key of changed.
	seq uint64
	gen map[string]uint64
	// dead marks base slots hidden by the overlay (a bit set over base
	// slots); ndead counts them.
	dead  []uint64
	ndead int
	// deadDF, deadIndeg and deadNotes are the contributions of the dead base
	// slots, subtracted from the base's figures.
	deadDF    [nFields]map[string][nColl]int32
	deadIndeg map[string]int32
	deadNotes map[string]int32
	stats     [nColl]collStats
	names     *names.Index
	// baseNames is the base's name index, which every overlay's derives from.
	baseNames *names.Index
	// analysis holds, per key of changed, the analyzed terms reused by the
	// next update.
	analysis map[string]*fileTerms
}

// newSnapshot indexes decls (later duplicates of an ID are dropped).
func newSnapshot(decls []*library.Decl) *snapshot {
	kept := dedup(decls)
	var nm *names.Index
	done := make(chan struct{})
	go func() {
		nm = names.New(kept)
		close(done)
	}()
	b := buildPart(context.Background(), kept, 0, nil)
	<-done
	return fromBase(b, nm)
}

// fromBase returns the snapshot of a base part with no overlay.
func fromBase(b *part, nm *names.Index) *snapshot {
	s := &snapshot{base: b, over: buildPart(context.Background(), nil, b.n(), nil), names: nm, baseNames: nm, stats: b.stats}
	for f := range nFields {
		s.deadDF[f] = map[string][nColl]int32{}
	}
	s.deadIndeg, s.deadNotes = map[string]int32{}, map[string]int32{}
	return s
}

// with returns the snapshot in which the files in changed (file key → new
// declarations, none for a removed file) replace their earlier versions;
// buffered marks the keys whose declarations come from unsaved text. The
// receiver stays valid for readers.
func (s *snapshot) with(changed map[string][]*library.Decl, buffered map[string]bool) *snapshot {
	all := maps.Clone(s.changed)
	if all == nil {
		all = map[string][]*library.Decl{}
	}
	buf := maps.Clone(s.buffered)
	if buf == nil {
		buf = map[string]bool{}
	}
	gen := maps.Clone(s.gen)
	if gen == nil {
		gen = map[string]uint64{}
	}
	for k, v := range changed {
		all[k] = v
		gen[k] = s.seq + 1
		if buffered[k] {
			buf[k] = true
		} else {
			delete(buf, k)
		}
	}
	n := s.base.overlay(s.baseNames, all, s)
	n.buffered, n.gen, n.seq = buf, gen, s.seq+1
	return n
}

// Overlays larger than these are folded into a new base (see compact).
const (
	compactFiles = 64
	compactDecls = 20000
)

// wantsCompaction reports whether the overlay has grown past the point
// where rebuilding it at every update costs more than a new base.
func (s *snapshot) wantsCompaction() bool {
	return len(s.changed) > compactFiles || s.over.n() > compactDecls
}

// rebase returns the snapshot of a new base built from old's visible
// declarations, with the changes made after old (in cur) as its overlay.
func rebase(b *part, nm *names.Index, old, cur *snapshot) *snapshot {
	changed := map[string][]*library.Decl{}
	buffered := map[string]bool{}
	gen := map[string]uint64{}
	for k, g := range cur.gen {
		if g > old.seq {
			changed[k], gen[k], buffered[k] = cur.changed[k], g, cur.buffered[k]
		}
	}
	n := b.overlay(nm, changed, cur)
	n.buffered, n.gen, n.seq = buffered, gen, cur.seq
	return n
}

// fileTerms caches the analysis of one changed file's declarations (decls)
// and of the base declarations it hides (goneTerms), so that an update
// analyzes only the files it changes, not the whole overlay.
type fileTerms struct {
	decls     []*library.Decl
	terms     [][nFields][]string
	base      *part
	goneTerms [][nFields][]string
}

// overlay builds the snapshot of base with the files in changed replaced;
// prev, when not nil, lends the analysis of files it already covered.
func (b *part) overlay(baseNames *names.Index, changed map[string][]*library.Decl, prev *snapshot) *snapshot {
	s := &snapshot{base: b, changed: changed, dead: make([]uint64, (b.n()+63)/64), deadIndeg: map[string]int32{}, deadNotes: map[string]int32{}, baseNames: baseNames,
		analysis: make(map[string]*fileTerms, len(changed))}
	for f := range nFields {
		s.deadDF[f] = map[string][nColl]int32{}
	}
	keys := make([]string, 0, len(changed))
	for k := range changed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var decls, gone []*library.Decl
	var analyzed, goneTerms [][nFields][]string
	for _, k := range keys {
		ds := dedup(changed[k])
		var ft *fileTerms
		if prev != nil {
			ft = prev.analysis[k]
		}
		if ft == nil || !slices.Equal(ft.decls, ds) {
			ft = &fileTerms{decls: ds, terms: analyzeAll(context.Background(), ds, nil)}
		} else {
			ft = &fileTerms{decls: ft.decls, terms: ft.terms, base: ft.base, goneTerms: ft.goneTerms}
		}
		s.analysis[k] = ft
		decls = append(decls, ds...)
		analyzed = append(analyzed, ft.terms...)
		if i, ok := sortedFind(b.files, k); ok {
			row := b.fileOf.row(i)
			hidden := make([]*library.Decl, len(row))
			for j, sl := range row {
				s.dead[sl/64] |= 1 << (sl % 64)
				s.ndead++
				hidden[j] = b.decls[sl]
			}
			if ft.base != b {
				ft.base, ft.goneTerms = b, analyzeAll(context.Background(), hidden, nil)
			}
			gone = append(gone, hidden...)
			goneTerms = append(goneTerms, ft.goneTerms...)
		}
	}
	s.over = buildAnalyzed(decls, analyzed, b.n())
	s.stats = b.stats
	for c := range nColl {
		for f := range nFields {
			s.stats[c].sumLen[f] += s.over.stats[c].sumLen[f]
		}
		s.stats[c].docs += s.over.stats[c].docs
	}
	for i, terms := range goneTerms {
		d := gone[i]
		c := collOf(d)
		s.stats[c].docs--
		for f := range nFields {
			s.stats[c].sumLen[f] -= int64(min(len(terms[f]), math.MaxUint16))
			for _, t := range uniq(terms[f]) {
				v := s.deadDF[f][t]
				v[c]++
				s.deadDF[f][t] = v
			}
		}
		if d.Kind == library.KindNotation {
			graphEdges(d, func(dep string) { s.deadNotes[dep]++ })
		} else {
			graphEdges(d, func(dep string) { s.deadIndeg[dep]++ })
		}
	}
	// The name channel: base names whose every declaration is hidden leave;
	// the overlay's names join.
	var drop []string
	for _, d := range gone {
		if len(s.slotsOf(d.Name)) == 0 {
			drop = append(drop, d.Name)
		}
	}
	sort.Strings(drop)
	s.names = baseNames.With(uniq(drop), decls)
	return s
}

func sortedFind(xs []string, x string) (int, bool) {
	i := sort.SearchStrings(xs, x)
	return i, i < len(xs) && xs[i] == x
}

// n is the number of slots (live or dead) of the snapshot.
func (s *snapshot) n() int32 { return s.base.n() + s.over.n() }

// decl returns the declaration in slot sl.
func (s *snapshot) decl(sl int32) *library.Decl {
	if sl < s.base.n() {
		return s.base.decls[sl]
	}
	return s.over.decls[sl-s.base.n()]
}

// part returns the part holding slot sl and the slot's local index.
func (s *snapshot) part(sl int32) (*part, int32) {
	if sl < s.base.n() {
		return s.base, sl
	}
	return s.over, sl - s.base.n()
}

// live reports whether slot sl is visible (not hidden by the overlay).
func (s *snapshot) live(sl int32) bool {
	return int(sl/64) >= len(s.dead) || s.dead[sl/64]&(1<<(sl%64)) == 0
}

// count is the number of visible declarations.
func (s *snapshot) count() int { return int(s.n()) - s.ndead }

// each calls f for every visible declaration, in slot order.
func (s *snapshot) each(f func(sl int32, d *library.Decl)) {
	for i, d := range s.base.decls {
		if s.live(int32(i)) {
			f(int32(i), d)
		}
	}
	for i, d := range s.over.decls {
		f(s.base.n()+int32(i), d)
	}
}

// rows collects the visible global slots of one graph row in both parts.
func (s *snapshot) rows(name string, table func(*part) *csr) []int32 {
	var out []int32
	for _, p := range []*part{s.base, s.over} {
		if k := p.key(name); k >= 0 {
			for _, sl := range table(p).row(k) {
				if g := p.off + sl; s.live(g) {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// slotsOf returns the visible slots declaring name.
func (s *snapshot) slotsOf(name string) []int32 {
	return s.rows(name, func(p *part) *csr { return &p.byName })
}

// usedBy returns the visible theorem slots whose statement uses name.
func (s *snapshot) usedBy(name string) []int32 {
	return s.rows(name, func(p *part) *csr { return &p.usedBy })
}

// indeg is the number of visible statements that use name.
func (s *snapshot) indeg(name string) int {
	n := -int(s.deadIndeg[name])
	for _, p := range []*part{s.base, s.over} {
		if k := p.key(name); k >= 0 {
			n += int(p.indeg[k])
		}
	}
	return n
}

// notationTarget reports whether a visible notation unfolds to name.
func (s *snapshot) notationTarget(name string) bool {
	n := -int(s.deadNotes[name])
	for _, p := range []*part{s.base, s.over} {
		if k := p.key(name); k >= 0 {
			n += int(p.notes[k])
		}
	}
	return n > 0
}

// popularity is the graph prior of a name: log of one plus the number of
// statements that use it.
func (s *snapshot) popularity(name string) float64 {
	return math.Log1p(float64(s.indeg(name)))
}

// df is the number of visible declarations of collection c whose field f
// holds term t.
func (s *snapshot) df(c int, f field, t string) int {
	n := -int(s.deadDF[f][t][c])
	for _, p := range []*part{s.base, s.over} {
		if i := p.fields[f].find(t); i >= 0 {
			n += int(p.fields[f].df[nColl*i+c])
		}
	}
	return n
}

// lookup returns the declaration with a full name (the user's own first).
func (s *snapshot) lookup(name string) (*library.Decl, bool) {
	var best *library.Decl
	for _, sl := range s.slotsOf(name) {
		d := s.decl(sl)
		if best == nil || (d.User && !best.User) {
			best = d
		}
	}
	return best, best != nil
}

// liveDecls returns the visible declarations in slot order.
func (s *snapshot) liveDecls() []*library.Decl {
	var out []*library.Decl
	s.each(func(_ int32, d *library.Decl) { out = append(out, d) })
	return out
}

// fileDecls returns the visible declarations of one file key, in order.
func (s *snapshot) fileDecls(key string) []*library.Decl {
	if ds, ok := s.changed[key]; ok {
		return dedup(ds)
	}
	var out []*library.Decl
	if i, ok := sortedFind(s.base.files, key); ok {
		for _, sl := range s.base.fileOf.row(i) {
			out = append(out, s.base.decls[sl])
		}
	}
	return out
}
