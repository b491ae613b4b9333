package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// mathlib returns the Mathlib tree named by DRIFT_MATHLIB or skips.
func mathlib(b *testing.B) *Workspace {
	dir := os.Getenv("DRIFT_MATHLIB")
	if dir == "" {
		b.Skip("set DRIFT_MATHLIB=/path/to/mathlib to run")
	}
	ws, err := Discover(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

// BenchmarkLoadCold parses the whole DRIFT_MATHLIB tree without a cache.
func BenchmarkLoadCold(b *testing.B) {
	ws := mathlib(b)
	for i := 0; i < b.N; i++ {
		if _, err := Load(context.Background(), ws, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadWarm loads the DRIFT_MATHLIB tree from a populated cache.
func BenchmarkLoadWarm(b *testing.B) {
	ws := mathlib(b)
	cache := b.TempDir()
	if _, err := Load(context.Background(), ws, Options{CacheDir: cache}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var lib *Library
	for i := 0; i < b.N; i++ {
		var err error
		if lib, err = Load(context.Background(), ws, Options{CacheDir: cache}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportHeap(b, lib)
}

// reportHeap reports the live heap holding lib (after a collection) and
// lib's declaration count.
func reportHeap(b *testing.B, lib *Library) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MB")
	b.ReportMetric(float64(len(lib.Decls())), "decls")
}

// BenchmarkLoadColdCached builds the DRIFT_MATHLIB tree with a fresh cache
// directory (parse, resolve, write the pack and the snapshot) and reports
// the live heap of the library it serves.
func BenchmarkLoadColdCached(b *testing.B) {
	ws := mathlib(b)
	var lib *Library
	for i := 0; i < b.N; i++ {
		var err error
		if lib, err = Load(context.Background(), ws, Options{CacheDir: b.TempDir()}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportHeap(b, lib)
}

// BenchmarkUpdateFile2000 re-parses one 2,000-line file of a small library
// (or, with DRIFT_MATHLIB set, of Mathlib) and replaces its declarations.
func BenchmarkUpdateFile2000(b *testing.B) {
	var lib *Library
	var path string
	var content []byte
	if os.Getenv("DRIFT_MATHLIB") != "" {
		ws := mathlib(b)
		var err error
		if lib, err = Load(context.Background(), ws, Options{}); err != nil {
			b.Fatal(err)
		}
		best := -1
		for _, p := range lib.Files() {
			c, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			if d := abs(strings.Count(string(c), "\n") - 2000); best < 0 || d < best {
				best, path, content = d, p, c
			}
		}
	} else {
		src := strings.Repeat("/-- Doc. -/\n@[simp, to_additive]\ntheorem Finset.prod_thing_NUM {β : Type*} [CommMonoid β] (f : ℕ → β) (n : ℕ) :\n    (∏ x ∈ Finset.range (n + 1), f x) = f n * ∏ x ∈ Finset.range n, f x := by\n  rw [Finset.prod_range_succ, mul_comm]\n\n", 334)
		n := 0
		src = replaceEach(src, "NUM", func() string { n++; return strings.Repeat("x", n%7) + string(rune('a'+n%26)) + itoa(n) })
		dir := writeTree(b, map[string]string{"lakefile.lean": "", "Big.lean": src, "Other.lean": resolutionSrc})
		lib = load(b, dir, "")
		path, content = filepath.Join(dir, "Big.lean"), []byte(src)
	}
	b.SetBytes(int64(len(content)))
	b.Run("same-names", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			lib.UpdateFile(path, content)
		}
	})
	// Typing a new theorem: its name changes at every keystroke, so the
	// files that may use the old or new name are resolved again.
	b.Run("new-name", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			lib.UpdateFile(path, append(content[:len(content):len(content)], fmt.Sprintf("\ntheorem my_new_thm%d : True := trivial\n", i)...))
		}
	})
	// The same with the dependents left to ResolvePending, as the engine
	// does: the cost of making the file itself searchable.
	b.Run("new-name-deferred", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			lib.UpdateFileDeferred(path, append(content[:len(content):len(content)], fmt.Sprintf("\ntheorem my_new_thm%d : True := trivial\n", i)...))
		}
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func itoa(n int) string {
	s := ""
	for n > 0 || s == "" {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

func replaceEach(s, old string, f func() string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(f())
		s = s[i+len(old):]
	}
}
