package retrieval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/proc"
)

// probeFile is a 2,000-line Lean file of 500 documented definitions.
func probeFile(round int) []byte {
	var b strings.Builder
	for i := range 500 {
		b.WriteString("/-- A probe definition about widgets. -/\n")
		b.WriteString("def probeDef" + strconv.Itoa(round) + "x" + strconv.Itoa(i) + " (n : Nat) : Nat :=\n  n + 1\n\n")
	}
	return []byte(b.String())
}

// benchEngine opens a ready engine over root with a reused cache
// (DRIFT_BENCH_CACHE, else a temporary directory).
func benchEngine(b *testing.B, root string) *Engine {
	b.Helper()
	cache := os.Getenv("DRIFT_BENCH_CACHE")
	if cache == "" {
		cache = b.TempDir()
	}
	e, err := Open(context.Background(), Config{Roots: []string{root}, CacheDir: cache})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := e.WaitReady(ctx); err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkUpdateFile measures one 2,000-line file pushed as an unsaved
// buffer with one new declaration per round (parse, resolution, next
// snapshot) over the small testdata workspace and, with DRIFT_MATHLIB set,
// over Mathlib: the same text (Mathlib's Topology/Constructions.lean when
// available, else a generated file) in both, at the file's own path in
// Mathlib. The cost depends on the file, not on the library.
func BenchmarkUpdateFile(b *testing.B) {
	mathlib := os.Getenv("DRIFT_MATHLIB")
	base := probeFile(0)
	libs := [][2]string{{"testdata", "../testdata/workspace/DriftProbe.lean"}}
	if mathlib != "" {
		real := filepath.Join(mathlib, "Mathlib/Topology/Constructions.lean")
		if t, err := os.ReadFile(real); err == nil {
			base = t
		}
		libs = append(libs, [2]string{"mathlib", real})
	}
	for _, lib := range libs {
		b.Run(lib[0], func(b *testing.B) {
			root := filepath.Dir(lib[1])
			if lib[0] == "mathlib" {
				root = mathlib
			}
			e := benchEngine(b, root)
			abs, _ := filepath.Abs(lib[1])
			text := func(i int) []byte {
				return append(slices.Clone(base), fmt.Sprintf("\ndef probeRound%d : Nat := %d\n", i, i)...)
			}
			e.apply([]fileUpdate{{path: abs, kind: fromBuffer, content: text(-1)}})
			b.ResetTimer()
			for i := range b.N {
				e.apply([]fileUpdate{{path: abs, kind: fromBuffer, content: text(i)}})
			}
			b.StopTimer()
			if _, ok := e.Lookup("probeRound" + strconv.Itoa(b.N-1)); !ok {
				b.Fatal("the last update is not visible")
			}
		})
	}
}

// mathlibBench opens the engine over DRIFT_MATHLIB and reads the queries of
// DRIFT_BENCH, or skips.
func mathlibBench(b *testing.B) (*Engine, []BenchItem) {
	root, bench := os.Getenv("DRIFT_MATHLIB"), os.Getenv("DRIFT_BENCH")
	if root == "" || bench == "" {
		b.Skip("set DRIFT_MATHLIB and DRIFT_BENCH")
	}
	return benchEngine(b, root), readBenchFile(b, bench)
}

// BenchmarkRetrieveMathlib measures premise ranking on Mathlib for the
// queries of DRIFT_BENCH.
func BenchmarkRetrieveMathlib(b *testing.B) {
	e, items := mathlibBench(b)
	b.ResetTimer()
	for i := range b.N {
		if _, err := e.Retrieve(context.Background(), items[i%len(items)].Query, nil, 5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchMathlib measures Engine.Search on Mathlib (DRIFT_MATHLIB)
// over the queries of DRIFT_BENCH (any set in the bench format, e.g. a
// topics or main set of `bench mkset`), cycling through them: time per
// query, its p50 and p95 in milliseconds, and the process's resident memory
// (VmRSS and its peak VmHWM, in MB) after the run.
func BenchmarkSearchMathlib(b *testing.B) {
	e, items := mathlibBench(b)
	// The synonym table and the first queries' caches are warmed once.
	if _, err := e.Search(context.Background(), Query{Text: items[0].Query}); err != nil {
		b.Fatal(err)
	}
	lat := make([]float64, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if _, err := e.Search(context.Background(), Query{Text: items[i%len(items)].Query, K: 10}); err != nil && err != ErrEmptyQuery {
			b.Fatal(err)
		}
		lat = append(lat, float64(time.Since(start).Microseconds())/1000)
	}
	b.StopTimer()
	sort.Float64s(lat)
	b.ReportMetric(percentile(lat, 50), "p50-ms")
	b.ReportMetric(percentile(lat, 95), "p95-ms")
	b.ReportMetric(procStatusMB("VmRSS"), "rss-MB")
	b.ReportMetric(procStatusMB("VmHWM"), "peak-rss-MB")
}

// procStatusMB returns a kB line of /proc/self/status (VmRSS, VmHWM) in MB,
// or 0 where there is none (not Linux).
func procStatusMB(key string) float64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == key+":" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// TestMemoryMathlib reports the process's resident memory on Mathlib
// (DRIFT_MATHLIB) when the engine is ready and after 1,000 edits pushed as
// unsaved buffers to ten real files (a measurement, logged; not asserted).
func TestMemoryMathlib(t *testing.T) {
	root := os.Getenv("DRIFT_MATHLIB")
	if root == "" {
		t.Skip("set DRIFT_MATHLIB to measure memory on Mathlib")
	}
	cache := os.Getenv("DRIFT_BENCH_CACHE")
	if cache == "" {
		cache = t.TempDir()
	}
	e := openReady(t, Config{Roots: []string{root}, CacheDir: cache, Logf: func(string, ...any) {}})
	runtime.GC()
	t.Logf("ready: RSS %s", rss())
	var files []string
	ents, _ := os.ReadDir(filepath.Join(root, "Mathlib/Algebra/Group"))
	for _, en := range ents {
		if strings.HasSuffix(en.Name(), ".lean") && len(files) < 10 {
			files = append(files, filepath.Join(root, "Mathlib/Algebra/Group", en.Name()))
		}
	}
	texts := make([][]byte, len(files))
	for i, f := range files {
		texts[i], _ = os.ReadFile(f)
	}
	start := time.Now()
	for i := range 1000 {
		k := i % len(files)
		e.apply([]fileUpdate{{path: files[k], kind: fromBuffer,
			content: append(append([]byte{}, texts[k]...), fmt.Sprintf("\ndef driftEdit%d : Nat := %d\n", i, i)...)}})
	}
	if _, ok := e.Lookup("driftEdit999"); !ok {
		t.Fatal("last edit not visible")
	}
	t.Logf("1,000 edits applied in %v", time.Since(start))
	runtime.GC()
	t.Logf("after 1,000 edits: RSS %s", rss())
	debug.FreeOSMemory()
	t.Logf("after 1,000 edits, heap returned to the OS: RSS %s", rss())
}

// rss returns the VmRSS and VmHWM lines of /proc/self/status.
func rss() string {
	b, _ := os.ReadFile("/proc/self/status")
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS") || strings.HasPrefix(l, "VmHWM") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(out, ", ")
}

// BenchmarkBuildBaseMathlib measures the cold build of the base index over
// Mathlib (DRIFT_MATHLIB; the library itself loaded once, from the parse
// cache DRIFT_BENCH_CACHE when set): analysis of every declaration's
// fields, postings, graph, name index, lexicon and symbol mining — what a
// start without a stored base index does after loading the library. It
// reports the process CPU seconds per build beside the wall time.
func BenchmarkBuildBaseMathlib(b *testing.B) {
	root := os.Getenv("DRIFT_MATHLIB")
	if root == "" {
		b.Skip("set DRIFT_MATHLIB")
	}
	cache := os.Getenv("DRIFT_BENCH_CACHE")
	if cache == "" {
		cache = b.TempDir()
	}
	_, decls, err := loadSource(context.Background(), Config{Roots: []string{root}, CacheDir: cache}, nil)
	if err != nil {
		b.Fatal(err)
	}
	kept := dedup(decls)
	runtime.GC()
	cpu0 := proc.CPUTime().Seconds()
	b.ResetTimer()
	for range b.N {
		p, nm := buildBase(context.Background(), kept, nil)
		if p.n() == 0 || nm == nil {
			b.Fatal("empty base")
		}
	}
	b.StopTimer()
	b.ReportMetric((proc.CPUTime().Seconds()-cpu0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(procStatusMB("VmHWM"), "peak-rss-MB")
}
