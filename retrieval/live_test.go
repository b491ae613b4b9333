package retrieval

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// eventually re-checks cond after every snapshot swap of e until it holds,
// failing after a generous timeout (a hang, not a timing assertion).
func eventually(t *testing.T, e *Engine, what string, cond func() bool) {
	t.Helper()
	if err := waitFor(e, time.Minute, cond); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// waitFor re-checks cond after every snapshot swap of e until it holds or
// the timeout passes.
func waitFor(e *Engine, timeout time.Duration, cond func() bool) error {
	deadline := time.After(timeout)
	for {
		ch := e.Changed()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-deadline:
			return fmt.Errorf("timed out after %v", timeout)
		}
	}
}

func has(e *Engine, name string) bool {
	_, ok := e.Lookup(name)
	return ok && e.Names().Exact(name)
}

// searchable reports whether a lexical search for words finds name.
func searchable(e *Engine, words, name string) bool {
	hits, err := e.Search(context.Background(), Query{Text: words, K: 20})
	if err != nil {
		return false
	}
	for _, h := range hits {
		if h.Decl.Name == name {
			return true
		}
	}
	return false
}

func TestWatcher(t *testing.T) {
	dir := newWorkspace(t)
	e := openReady(t, Config{Roots: []string{dir}, CacheDir: t.TempDir(), Watch: true})
	write := func(rel, content string) {
		t.Helper()
		writeTree(t, dir, map[string]string{rel: content})
	}
	// create
	write("Demo/New.lean", "/-- Zorbling numbers. -/\ndef zorble (n : Nat) : Nat := n\n")
	eventually(t, e, "created file", func() bool { return has(e, "zorble") && searchable(e, "zorbling", "zorble") })
	// modify
	write("Demo/New.lean", "def frobnicate (n : Nat) : Nat := n\n")
	eventually(t, e, "modified file", func() bool { return has(e, "frobnicate") && !has(e, "zorble") })
	// rename
	if err := os.Rename(filepath.Join(dir, "Demo/New.lean"), filepath.Join(dir, "Demo/Moved.lean")); err != nil {
		t.Fatal(err)
	}
	eventually(t, e, "renamed file", func() bool {
		d, ok := e.Lookup("frobnicate")
		return ok && strings.HasSuffix(d.File, "Moved.lean") && len(e.snapshotFiles("Moved.lean")) == 1 && len(e.snapshotFiles("New.lean")) == 0
	})
	// editor-style save: write a temp file, rename it over the original
	tmp := filepath.Join(dir, "Demo/.Moved.lean.swp")
	if err := os.WriteFile(tmp, []byte("def quuxify (n : Nat) : Nat := n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "Demo/Moved.lean")); err != nil {
		t.Fatal(err)
	}
	eventually(t, e, "atomic save", func() bool { return has(e, "quuxify") && !has(e, "frobnicate") })
	// new directory with a file inside
	write("Demo/Sub/Deep.lean", "def deepThing : Nat := 1\n")
	eventually(t, e, "new directory", func() bool { return has(e, "deepThing") })
	// delete
	if err := os.Remove(filepath.Join(dir, "Demo/Moved.lean")); err != nil {
		t.Fatal(err)
	}
	eventually(t, e, "deleted file", func() bool { return !has(e, "quuxify") })
	// burst of saves: the last one wins
	for i := range 30 {
		write("Demo/Burst.lean", fmt.Sprintf("def burst%d : Nat := %d\n", i, i))
	}
	eventually(t, e, "burst", func() bool { return has(e, "burst29") && !has(e, "burst28") && !has(e, "burst0") })
	if !has(e, "Demo.Prime") || !searchable(e, "prime number", "Demo.Prime") {
		t.Error("untouched file lost its declarations")
	}
}

// snapshotFiles returns the IDs of the current snapshot's files whose key
// ends in suffix.
func (e *Engine) snapshotFiles(suffix string) []string {
	seen := map[string]bool{}
	var out []string
	e.snapshot().each(func(_ int32, d *library.Decl) {
		if k := fileKey(d); strings.HasSuffix(k, suffix) && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	})
	return out
}

func TestUpdateBuffer(t *testing.T) {
	dir := newWorkspace(t)
	e := openReady(t, Config{Roots: []string{dir}})
	path := filepath.Join(dir, "Demo/Basic.lean")
	e.UpdateBuffer(path, []byte(basicLean+"\n/-- Unsaved wibbles. -/\ndef Demo.wibble : Nat := 3\n"))
	eventually(t, e, "buffer text", func() bool { return has(e, "Demo.wibble") && searchable(e, "unsaved wibbles", "Demo.wibble") })
	if !has(e, "Demo.Prime") {
		t.Error("buffer update lost the file's other declarations")
	}
	// A half-typed buffer keeps what parses.
	e.UpdateBuffer(path, []byte(basicLean+"\ntheorem broken (n : Nat) : n = := by\n  simp [\n"))
	eventually(t, e, "half-typed buffer", func() bool { return !has(e, "Demo.wibble") && has(e, "Demo.Prime") })
	e.CloseBuffer(path)
	eventually(t, e, "closed buffer", func() bool { return has(e, "Demo.Prime.divides_mul") && !has(e, "broken") })
}

func TestRecovery(t *testing.T) {
	dir := newWorkspace(t)
	cache := t.TempDir()
	e := openReady(t, Config{Roots: []string{dir}, CacheDir: cache})
	n := e.snapshot().count()
	e.Close()
	path := basePath(e.dir)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte { b := append([]byte{}, good...); b[i] ^= 0xff; return b }
	for _, tc := range []struct {
		name string
		data []byte
		why  string
	}{
		{"intact", good, ""},
		{"garbage", []byte("garbage"), "unreadable"},
		{"truncated", good[:len(good)/2], "checksum"},
		{"flipped byte", flip(len(good) / 2), "checksum"},
		{"foreign version", flip(8), "another version"},
		{"other library", flip(20), "library changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			var mu sync.Mutex
			e := openReady(t, Config{Roots: []string{dir}, CacheDir: cache, Logf: func(f string, a ...any) {
				mu.Lock()
				fmt.Fprintf(&log, f+"\n", a...)
				mu.Unlock()
			}})
			if c := e.snapshot().count(); c != n {
				t.Errorf("%d declarations, want %d", c, n)
			}
			if !searchable(e, "prime number", "Demo.Prime") {
				t.Error("index does not answer")
			}
			e.Close()
			mu.Lock()
			got := log.String()
			mu.Unlock()
			if want := "indexes opened"; tc.why == "" && !strings.Contains(got, want) {
				t.Errorf("intact file not reused; log:\n%s", got)
			}
			if tc.why != "" && !strings.Contains(got, tc.why) {
				t.Errorf("log does not say %q:\n%s", tc.why, got)
			}
			// The rebuilt file is served by the next start.
			if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, good) {
				t.Errorf("stored index not rewritten identically (%v)", err)
			}
		})
	}
}

// denseCount returns how many vectors the dense index holds.
func (e *Engine) denseCount() int {
	x := e.dense.Load()
	if x == nil {
		return 0
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.vecs)
}

// hashEmbedder is a deterministic bag-of-words embedder used to exercise the
// dense channel's storage and search without a model file.
type hashEmbedder struct{ calls int }

func (*hashEmbedder) Name() string { return "test-hash" }
func (*hashEmbedder) Dim() int     { return 64 }
func (h *hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	h.calls++
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 64)
		for _, w := range lexical.Terms(t) {
			f := fnv.New32a()
			f.Write([]byte(w))
			v[f.Sum32()%64]++
		}
		var s float64
		for _, x := range v {
			s += float64(x * x)
		}
		if s > 0 {
			for j := range v {
				v[j] /= float32(math.Sqrt(s))
			}
		}
		out[i] = v
	}
	return out, nil
}

func TestDense(t *testing.T) {
	dir := newWorkspace(t)
	cache := t.TempDir()
	emb := &hashEmbedder{}
	e := openReady(t, Config{Roots: []string{dir}, CacheDir: cache, Embedder: emb})
	if err := e.WaitEmbedded(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := e.Status(); st.Phase != "ready" || e.denseCount() < 4 || st.Warning != "" {
		t.Fatalf("after embedding: %+v, %d vectors", st, e.denseCount())
	}
	// Search uses the dense feature when asked (it is off by default): the
	// candidates' cosines enter the ranking and its explanation.
	withDense, err := DefaultSearch.Toggle("dense")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []SearchRanking{DefaultSearch, withDense} {
		hits, err := e.SearchWith(context.Background(), Query{Text: "divisibility", K: 3}, r)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].Decl.Name != "Demo.Divides" || strings.Contains(hits[0].Why, "dense cosine") != r.Dense {
			t.Errorf("search (dense %v) = %q", r.Dense, hitNames(hits))
		}
	}
	e.Close()
	// Vectors persist: a restart embeds nothing new, even after the vector
	// file lost half a record (a crash mid-append).
	files, _ := filepath.Glob(filepath.Join(cache, "retrieval", "*", "dense-*.bin"))
	if len(files) != 1 {
		t.Fatalf("vector files: %v", files)
	}
	st, _ := os.Stat(files[0])
	if err := os.Truncate(files[0], st.Size()-10); err != nil {
		t.Fatal(err)
	}
	emb2 := &hashEmbedder{}
	e = openReady(t, Config{Roots: []string{dir}, CacheDir: cache, Embedder: emb2})
	if err := e.WaitEmbedded(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := e.Status(); st.Phase != "ready" || st.Embed.Total != 1 {
		t.Errorf("after restart: %+v", st)
	}
	if emb2.calls != 1 {
		t.Errorf("restart embedded %d batches, want 1 (the truncated record)", emb2.calls)
	}
}

// TestSettleDependents checks that a buffer declaring a name another file
// uses is searchable at once and that, once WaitSettled returns, the other
// file's dependency edges name it, as a fresh build's do.
func TestSettleDependents(t *testing.T) {
	dir := newWorkspace(t)
	writeTree(t, dir, map[string]string{"Demo/User.lean": "theorem Demo.uses_gizmo : Demo.gizmo = 3 := rfl\n"})
	e := openReady(t, Config{Roots: []string{dir}})
	deps := func() []string {
		d, ok := e.Lookup("Demo.uses_gizmo")
		if !ok {
			t.Fatal("Demo.uses_gizmo not indexed")
		}
		return d.StatementDeps
	}
	if slices.Contains(deps(), "Demo.gizmo") {
		t.Fatalf("before the update: deps %v name an undeclared name", deps())
	}
	e.UpdateBuffer(filepath.Join(dir, "Demo/Basic.lean"), []byte(basicLean+"\n/-- The gizmo. -/\ndef Demo.gizmo : Nat := 3\n"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := e.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	if !has(e, "Demo.gizmo") {
		t.Error("Demo.gizmo not searchable after WaitSettled")
	}
	if !slices.Contains(deps(), "Demo.gizmo") {
		t.Errorf("after WaitSettled: Demo.uses_gizmo deps %v, want Demo.gizmo among them", deps())
	}
}

// TestWatchSymlinkedDir checks that a directory reached through a symbolic
// link (a linked package or fork) is watched like the others.
func TestWatchSymlinkedDir(t *testing.T) {
	dir := newWorkspace(t)
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"Linked.lean": "def linkedThing : Nat := 1\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "Demo", "Pkg")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	e := openReady(t, Config{Roots: []string{dir}, Watch: true})
	if !has(e, "linkedThing") {
		t.Fatal("the linked directory was not indexed")
	}
	writeTree(t, outside, map[string]string{"Linked.lean": "def linkedEdited : Nat := 2\n"})
	eventually(t, e, "edit under the link", func() bool { return has(e, "linkedEdited") && !has(e, "linkedThing") })
}

// TestSynonymsStoredWithBase checks that an engine opening the stored base
// serves the synonym table a fresh build mines, without mining again.
func TestSynonymsStoredWithBase(t *testing.T) {
	dir := newWorkspace(t)
	writeTree(t, dir, map[string]string{"Demo/Abbrev.lean": "/-- A quasi regular torus (QRT). -/\ndef Demo.qrt_a : Nat := 1\n/-- Every quasi regular torus (QRT) here. -/\ndef Demo.qrt_b : Nat := 2\n"})
	cache := t.TempDir()
	var logs []string
	var mu sync.Mutex
	logf := func(f string, a ...any) { mu.Lock(); logs = append(logs, fmt.Sprintf(f, a...)); mu.Unlock() }
	first := openReady(t, Config{Roots: []string{dir}, CacheDir: cache})
	want := first.syn
	if len(want.byFirst["qrt"]) == 0 {
		t.Fatalf("the fresh build mined no rule for QRT: %v", want.byFirst)
	}
	first.Close() // waits for the base to be written
	second := openReady(t, Config{Roots: []string{dir}, CacheDir: cache, Logf: logf})
	mu.Lock()
	defer mu.Unlock()
	if !slices.ContainsFunc(logs, func(l string) bool { return strings.Contains(l, "indexes opened") }) {
		t.Fatalf("the second engine did not open the stored base: %q", logs)
	}
	if fmt.Sprint(second.syn.byFirst) != fmt.Sprint(want.byFirst) {
		t.Errorf("stored synonyms differ:\n got %v\nwant %v", second.syn.byFirst, want.byFirst)
	}
}
