package retrieval

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// TestIncrementalEqualsFresh applies random sequences of file updates —
// edits on disk, new and removed files, unsaved buffers (then closed),
// notations and to_additive declarations added and removed — one at a
// time, with a compaction of the overlay into a new base midway, and checks that the resulting snapshot equals a fresh build from
// the final files: the same declarations, graph counts, popularity,
// notation targets, document statistics, name channel, and search and
// premise results. It runs over testdata/workspace always and, when
// DRIFT_MATHLIB names a Mathlib tree, over a sample of real Mathlib files
// too.
func TestIncrementalEqualsFresh(t *testing.T) {
	corpora := map[string][]string{"testdata": nil}
	if m := os.Getenv("DRIFT_MATHLIB"); m != "" {
		var files []string
		for _, dir := range []string{"Mathlib/Algebra/Group", "Mathlib/Order", "Mathlib/Data/Nat"} {
			ents, _ := os.ReadDir(filepath.Join(m, dir))
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".lean") && len(files) < 40 {
					files = append(files, filepath.Join(m, dir, e.Name()))
				}
			}
		}
		corpora["mathlib"] = files
	}
	for name, extra := range corpora {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				checkIncremental(t, extra, seed)
			})
		}
	}
}

func checkIncremental(t *testing.T, extra []string, seed uint64) {
	dir := t.TempDir()
	copyTree(t, "../testdata/workspace", dir)
	for _, f := range extra {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.Join("Sample", filepath.Base(filepath.Dir(f)), filepath.Base(f))
		writeTree(t, dir, map[string]string{rel: string(b)})
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lean") && filepath.Base(p) != "lakefile.lean" {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	e := openReady(t, Config{Roots: []string{dir}, Logf: func(string, ...any) {}})
	rng := rand.New(rand.NewPCG(seed, 42))
	names := e.snapshot().allNames()
	buffers := map[string][]byte{}
	read := func(p string) []byte {
		if b, ok := buffers[p]; ok {
			return b
		}
		b, _ := os.ReadFile(p)
		return b
	}
	var fold compaction
	for step := range 40 {
		// Fold the overlay into a new base built from step 15's snapshot
		// while steps 15–19 go on, as the background compaction does.
		switch step {
		case 15:
			fold = newCompaction(context.Background(), e.snapshot())
		case 20:
			e.store(rebase(fold.base, fold.names, fold.from, e.snapshot()))
		}
		p := files[rng.IntN(len(files))]
		if rng.IntN(6) == 0 {
			p = filepath.Join(dir, "DriftExample", fmt.Sprintf("New%d.lean", rng.IntN(3)))
			if !slices.Contains(files, p) {
				files = append(files, p)
			}
		}
		text := mutate(rng, read(p), names, step)
		switch op := rng.IntN(10); {
		case op < 4: // saved on disk
			if _, open := buffers[p]; open {
				// the watcher's re-read of a file with an open buffer must not
				// override the buffer
				os.WriteFile(p, text, 0o644)
				e.apply([]fileUpdate{{path: p, kind: fromDisk}})
				continue
			}
			os.WriteFile(p, text, 0o644)
			e.apply([]fileUpdate{{path: p, kind: fromDisk}})
		case op < 8: // unsaved buffer
			buffers[p] = text
			e.apply([]fileUpdate{{path: p, kind: fromBuffer, content: text}})
		case op < 9: // buffer closed: back to disk
			delete(buffers, p)
			e.apply([]fileUpdate{{path: p, kind: closed}})
		default: // removed
			if _, open := buffers[p]; !open {
				os.Remove(p)
				e.apply([]fileUpdate{{path: p, kind: fromDisk}})
			}
		}
		// the update loop resolves the dependents again between updates
		e.settle(rng.IntN(4))
	}
	// Buffers still open: check the overlay against a fresh build of the
	// same declarations, then close them and compare with a fresh start.
	inc := e.snapshot()
	if diffs := diffSnapshots(inc, newSnapshot(inc.liveDecls()), true); len(diffs) > 0 {
		t.Fatalf("incremental (buffers open) differs from a fresh build of its declarations:\n%s", strings.Join(diffs[:min(20, len(diffs))], "\n"))
	}
	for p := range buffers {
		e.apply([]fileUpdate{{path: p, kind: closed}})
	}
	for e.settle(1 + rng.IntN(8)) {
	}
	inc = e.snapshot()
	same := newSnapshot(inc.liveDecls())
	if diffs := diffSnapshots(inc, same, true); len(diffs) > 0 {
		t.Fatalf("incremental differs from a fresh build of its declarations:\n%s", strings.Join(diffs[:min(20, len(diffs))], "\n"))
	}
	// Against a fresh start on the final files: everything, dependency
	// edges included (the library resolves again the files that use names
	// an update added or removed, and the engine takes their new
	// declarations too).
	fresh := openReady(t, Config{Roots: []string{dir}, Logf: func(string, ...any) {}}).snapshot()
	if diffs := diffSnapshots(inc, fresh, true); len(diffs) > 0 {
		t.Fatalf("incremental differs from a fresh start on the final files:\n%s", strings.Join(diffs[:min(20, len(diffs))], "\n"))
	}
	for _, q := range []string{"prime number divides a product", "greatest common divisor", "group homomorphism", "order lattice sup"} {
		a, b := engineOf(inc), engineOf(fresh)
		ha, err1 := a.Search(context.Background(), Query{Text: q, K: 10})
		hb, err2 := b.Search(context.Background(), Query{Text: q, K: 10})
		if err1 != nil || err2 != nil || !sameHits(ha, hb) {
			t.Errorf("Search(%q): incremental %v, fresh %v (%v, %v)", q, hitNames(ha), hitNames(hb), err1, err2)
		}
		pa, err1 := a.Retrieve(context.Background(), q, nil, 5)
		pb, err2 := b.Retrieve(context.Background(), q, nil, 5)
		if err1 != nil || err2 != nil || len(pa) != len(pb) {
			t.Errorf("Retrieve(%q): %d vs %d premises (%v, %v)", q, len(pa), len(pb), err1, err2)
			continue
		}
		for i := range pa {
			if pa[i].Decl.Name != pb[i].Decl.Name || math.Abs(pa[i].Score-pb[i].Score) > 1e-9 {
				t.Errorf("Retrieve(%q) #%d: %s %v vs %s %v", q, i, pa[i].Decl.Name, pa[i].Score, pb[i].Decl.Name, pb[i].Score)
			}
		}
	}
}

// mutate returns an edited version of a file: a block of lines dropped, a
// notation or a to_additive theorem added, or lines of the file repeated.
func mutate(rng *rand.Rand, b []byte, names []string, step int) []byte {
	lines := strings.Split(string(b), "\n")
	pick := func() string { return names[rng.IntN(len(names))] }
	switch rng.IntN(4) {
	case 0:
		if len(lines) > 2 {
			i := rng.IntN(len(lines))
			j := min(len(lines), i+1+rng.IntN(30))
			lines = append(lines[:i:i], lines[j:]...)
		}
	case 1:
		lines = append(lines, fmt.Sprintf("notation \"⟪%d⟫\" => %s", step, pick()))
	case 2:
		lines = append(lines, fmt.Sprintf("/-- probe %d -/\n@[to_additive] theorem mul_probe%d (a : Nat) : %s = %s := sorry", step, step, pick(), pick()))
	default:
		if len(lines) > 2 {
			i := rng.IntN(len(lines))
			lines = append(lines, lines[i:min(len(lines), i+20)]...)
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeTree(t, dst, map[string]string{rel: string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// engineOf returns a ready engine serving s.
func engineOf(s *snapshot) *Engine {
	e := &Engine{ranking: DefaultRanking, ready: make(chan struct{}), swapped: make(chan struct{})}
	close(e.ready)
	e.snap.Store(s)
	return e
}

func sameHits(a, b []Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Decl.Name != b[i].Decl.Name || math.Abs(a[i].Score-b[i].Score) > 1e-9 {
			return false
		}
	}
	return true
}

// allNames returns every name the snapshot knows: declarations and
// dependency targets of both parts.
func (s *snapshot) allNames() []string {
	set := map[string]bool{}
	for _, p := range []*part{s.base, s.over} {
		for _, k := range p.keys {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// union returns the sorted distinct strings of a and b.
func union(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// allTerms returns every indexed term of field f in both parts.
func (s *snapshot) allTerms(f field) []string {
	set := map[string]bool{}
	for _, p := range []*part{s.base, s.over} {
		for _, t := range p.fields[f].terms {
			set[t] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// diffSnapshots lists the observable differences between two snapshots;
// with graph false, dependency edges and what derives from them are left
// out.
func diffSnapshots(a, b *snapshot, graph bool) []string {
	var out []string
	describe := func(d *library.Decl) string {
		if !graph {
			return fmt.Sprintf("%s %s doc=%q twin=%s", d.Kind, d.Name, d.Doc, d.Twin)
		}
		return fmt.Sprintf("%s %s doc=%q deps=%v twin=%s", d.Kind, d.Name, d.Doc, d.StatementDeps, d.Twin)
	}
	decls := func(s *snapshot) map[string]string {
		m := map[string]string{}
		s.each(func(_ int32, d *library.Decl) { m[docID(d)] = describe(d) })
		return m
	}
	da, db := decls(a), decls(b)
	for id, x := range da {
		if y, ok := db[id]; !ok || x != y {
			out = append(out, fmt.Sprintf("decl %q: %s | %s", id, x, y))
		}
	}
	for id, y := range db {
		if _, ok := da[id]; !ok {
			out = append(out, fmt.Sprintf("decl %q: missing | %s", id, y))
		}
	}
	ids := func(s *snapshot, sl []int32) []string {
		var out []string
		for _, x := range sl {
			out = append(out, docID(s.decl(x)))
		}
		sort.Strings(out)
		return out
	}
	for _, n := range union(a.allNames(), b.allNames()) {
		if x, y := ids(a, a.slotsOf(n)), ids(b, b.slotsOf(n)); !slices.Equal(x, y) {
			out = append(out, fmt.Sprintf("slotsOf(%s) %v | %v", n, x, y))
		}
		if x, y := a.names.Exact(n), b.names.Exact(n); x != y {
			out = append(out, fmt.Sprintf("names.Exact(%s) %v | %v", n, x, y))
		}
		if !graph {
			continue
		}
		if x, y := a.indeg(n), b.indeg(n); x != y {
			out = append(out, fmt.Sprintf("indeg(%s) %d | %d", n, x, y))
		}
		if x, y := a.popularity(n), b.popularity(n); x != y || math.IsNaN(x) {
			out = append(out, fmt.Sprintf("popularity(%s) %v | %v", n, x, y))
		}
		if x, y := a.notationTarget(n), b.notationTarget(n); x != y {
			out = append(out, fmt.Sprintf("notationTarget(%s) %v | %v", n, x, y))
		}
		if x, y := ids(a, a.usedBy(n)), ids(b, b.usedBy(n)); !slices.Equal(x, y) {
			out = append(out, fmt.Sprintf("usedBy(%s) %v | %v", n, x, y))
		}
	}
	if x, y := a.names.Len(), b.names.Len(); x != y {
		out = append(out, fmt.Sprintf("names.Len %d | %d", x, y))
	}
	if a.stats != b.stats {
		out = append(out, fmt.Sprintf("stats %v | %v", a.stats, b.stats))
	}
	for f := range nFields {
		for _, term := range union(a.allTerms(f), b.allTerms(f)) {
			for c := range nColl {
				if x, y := a.df(c, f, term), b.df(c, f, term); x != y {
					out = append(out, fmt.Sprintf("df(%d, %d, %s) %d | %d", c, f, term, x, y))
				}
			}
		}
	}
	return out
}

// TestNotationReparse re-parses a file holding a notation three times, then
// removes the notation: the target's popularity stays what a fresh build
// gives (never negative or NaN) and it stops being a notation target.
func TestNotationReparse(t *testing.T) {
	dir := newWorkspace(t)
	path := filepath.Join(dir, "Demo/Note.lean")
	with := "def Demo.wobble (n : Nat) : Nat := n\nnotation \"⟦\" x \"⟧\" => Demo.wobble x\ntheorem Demo.wobble_self (n : Nat) : Demo.wobble n = n := rfl\n"
	without := "def Demo.wobble (n : Nat) : Nat := n\ntheorem Demo.wobble_self (n : Nat) : Demo.wobble n = n := rfl\n"
	writeTree(t, dir, map[string]string{"Demo/Note.lean": with})
	e := openReady(t, Config{Roots: []string{dir}})
	want := e.snapshot().popularity("Demo.wobble")
	if want <= 0 || !e.snapshot().notationTarget("Demo.wobble") {
		t.Fatalf("fresh: popularity %v, notation target %v", want, e.snapshot().notationTarget("Demo.wobble"))
	}
	for i := range 3 {
		e.apply([]fileUpdate{{path: path, kind: fromBuffer, content: []byte(with)}})
		if got := e.snapshot().popularity("Demo.wobble"); got != want {
			t.Errorf("re-parse %d: popularity %v, want %v", i+1, got, want)
		}
	}
	e.apply([]fileUpdate{{path: path, kind: fromBuffer, content: []byte(without)}})
	s := e.snapshot()
	if got := s.popularity("Demo.wobble"); got != want || s.notationTarget("Demo.wobble") {
		t.Errorf("notation removed: popularity %v (want %v), notation target %v", got, want, s.notationTarget("Demo.wobble"))
	}
}
