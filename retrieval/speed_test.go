package retrieval

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSpeedMathlib measures warm latencies on a real library when
// DRIFT_MATHLIB names a Mathlib checkout (DRIFT_BENCH_CACHE keeps the
// index; DRIFT_BENCH supplies the queries): search p95, retrieve+illustrate
// p95, and the time until a saved 2,000-line file's new declarations are
// searchable.
func TestSpeedMathlib(t *testing.T) {
	root, bench := os.Getenv("DRIFT_MATHLIB"), os.Getenv("DRIFT_BENCH")
	if root == "" || bench == "" {
		t.Skip("set DRIFT_MATHLIB and DRIFT_BENCH to measure speed on Mathlib")
	}
	cache := os.Getenv("DRIFT_BENCH_CACHE")
	if cache == "" {
		cache = t.TempDir()
	}
	items := readBenchFile(t, bench)
	// Saved files are probed in an extra root, so the library tree itself is
	// never written to.
	probe := filepath.Join(cache, "probe-root")
	os.RemoveAll(probe)
	if err := os.MkdirAll(probe, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e, err := Open(context.Background(), Config{Roots: []string{root, probe}, CacheDir: cache, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("start (cold or warm per cache) %v, %d decls", time.Since(start), e.Status().Decls)
	ctx := context.Background()
	p95 := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[(len(d)*95+99)/100-1]
	}
	var search, retr []time.Duration
	for _, it := range items {
		t0 := time.Now()
		if _, err := e.Search(ctx, Query{Text: it.Query, K: 10}); err != nil {
			t.Fatal(err)
		}
		search = append(search, time.Since(t0))
		t0 = time.Now()
		prem, err := e.Retrieve(ctx, it.Query, nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(prem))
		for i, p := range prem {
			names[i] = p.Decl.Name
		}
		if _, err := e.Illustrate(ctx, it.Query, names, 3); err != nil {
			t.Fatal(err)
		}
		retr = append(retr, time.Since(t0))
	}
	t.Logf("search p50 %v p95 %v; retrieve+illustrate p50 %v p95 %v", search[len(search)/2], p95(search), retr[len(retr)/2], p95(retr))
	// Save a 2,000-line file with new declarations, repeatedly, through the
	// watcher.
	dir := probe
	var upd []time.Duration
	for round := range 10 {
		var b strings.Builder
		for i := range 500 {
			b.WriteString("/-- A probe definition. -/\n")
			b.WriteString("def probeDef" + string(rune('a'+round)) + strconv.Itoa(i) + " (n : Nat) : Nat :=\n  n + 1\n\n")
		}
		name := "probeDef" + string(rune('a'+round)) + "499"
		t0 := time.Now()
		if err := os.WriteFile(filepath.Join(dir, "Probe.lean"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		err := waitFor(e, time.Minute, func() bool {
			if _, ok := e.Lookup(name); !ok {
				return false
			}
			hits, _ := e.Search(ctx, Query{Text: name, K: 3})
			return len(hits) > 0 && hits[0].Decl.Name == name
		})
		if err != nil {
			t.Fatalf("update never became searchable: %v", err)
		}
		upd = append(upd, time.Since(t0))
	}
	t.Logf("2,000-line save searchable: p50 %v p95 %v (includes %v debounce)", upd[len(upd)/2], p95(upd), debounce)
	// Unsaved editor text of a real 2,000-line library file.
	big := filepath.Join(root, "Mathlib/Topology/Constructions.lean")
	if content, err := os.ReadFile(big); err == nil {
		var buf []time.Duration
		for round := range 10 {
			name := "driftBufferProbe" + strconv.Itoa(round)
			t0 := time.Now()
			e.UpdateBuffer(big, append(append([]byte{}, content...), []byte("\n/-- probe -/\ndef "+name+" : Nat := 1\n")...))
			if err := waitFor(e, time.Minute, func() bool { _, ok := e.Lookup(name); return ok }); err != nil {
				t.Fatalf("buffer update never became searchable: %v", err)
			}
			buf = append(buf, time.Since(t0))
		}
		e.CloseBuffer(big)
		t.Logf("2,000-line buffer update searchable: p50 %v p95 %v", buf[len(buf)/2], p95(buf))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("Go heap in use %d MB, sys %d MB", ms.HeapInuse>>20, ms.Sys>>20)
}
