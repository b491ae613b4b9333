package leanrepl

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// The tests and benchmarks in this file need a Mathlib source tree: set
// DRIFT_MATHLIB=/path/to/mathlib (and optionally DRIFT_CACHE for the parse
// cache). ProofNet is read from ../../shared/bench/proofnet (or
// DRIFT_PROOFNET).

var (
	mathlibOnce  sync.Once
	mathlibIndex *names.Index
	mathlibKinds KindFunc
	mathlibLib   *library.Library
	mathlibErr   error
)

func mathlibNames(tb testing.TB) *names.Index {
	tb.Helper()
	dir := os.Getenv("DRIFT_MATHLIB")
	if dir == "" {
		tb.Skip("set DRIFT_MATHLIB to a Mathlib source tree to run this")
	}
	mathlibOnce.Do(func() {
		ws, err := library.Discover(dir, nil)
		if err != nil {
			mathlibErr = err
			return
		}
		cache := os.Getenv("DRIFT_CACHE")
		if cache == "" {
			cache = filepath.Join(os.TempDir(), "drift-leanrepl-bench-cache")
		}
		lib, err := library.Load(context.Background(), ws, library.Options{CacheDir: cache})
		if err != nil {
			mathlibErr = err
			return
		}
		mathlibLib = lib
		mathlibIndex = names.New(lib.Decls())
		mathlibKinds = LibraryKinds(lib.Lookup, lib.ExportAlias)
	})
	if mathlibErr != nil {
		tb.Fatal(mathlibErr)
	}
	return mathlibIndex
}

// BenchmarkCheckInventedNameMathlib measures the compiler-free check (gate,
// unknown names with suggestions, lints) of a stub with an invented name
// against the whole Mathlib name index. Target: under 50 ms.
func BenchmarkCheckInventedNameMathlib(b *testing.B) {
	ix := mathlibNames(b)
	c := NewChecker(CheckerConfig{Names: ix, Kinds: mathlibKinds})
	req := CheckRequest{Header: "import Mathlib\nopen Nat Real", Stub: "theorem t (p : ℕ) (hp : p.Prime) (h : p % 4 = 3) : ¬ ∃ a b : ℕ, Nat.isSumOfTwoSquares p a b ∧ totient p = p - 1 := by sorry"}
	rep, err := c.Check(context.Background(), req)
	if err != nil || len(rep.Unknown) != 1 || rep.Unknown[0].Name != "Nat.isSumOfTwoSquares" {
		b.Fatalf("report %+v, %v", rep, err)
	}
	b.Logf("unknown %s, suggestions %v (index of %d names)", rep.Unknown[0].Name, rep.Unknown[0].Suggestions, ix.Len())
	b.Run("full", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := c.Check(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same without names.Index.Similar's edit-distance scan, to show
	// what the rest of the check costs.
	quick := NewChecker(CheckerConfig{Names: noSimilar{ix}, Kinds: mathlibKinds})
	b.Run("without-similar", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := quick.Check(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// noSimilar hides an index's Similar method.
type noSimilar struct{ *names.Index }

func (noSimilar) Similar(string, int) []string { return nil }

// TestProofNetNamesMathlib runs the compiler-free checks over ProofNet's
// human-written formal statements, which all compile: every unknown name
// reported is a false positive (or a name the Mathlib tree lacks, for
// example a Lean core declaration). It logs the rate and fails if it is
// above 10%.
func TestProofNetNamesMathlib(t *testing.T) {
	ix := mathlibNames(t)
	path := os.Getenv("DRIFT_PROOFNET")
	if path == "" {
		path = filepath.Join("..", "..", "shared", "bench", "proofnet", "benchmark.jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("ProofNet benchmark not found: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var n, gated, flagged int
	counts := map[string]int{}
	var worst time.Duration
	for sc.Scan() {
		var item struct {
			Formal string `json:"formal_stmt"`
			Header string `json:"header"`
		}
		if err := json.Unmarshal(sc.Bytes(), &item); err != nil {
			t.Fatal(err)
		}
		n++
		start := time.Now()
		s, err := Gate(item.Formal)
		if err != nil {
			gated++
			t.Logf("gate rejected ProofNet statement: %v\n%s", err, item.Formal)
			continue
		}
		a := AnalyzeWithKinds(s, item.Header, ix, mathlibKinds)
		if d := time.Since(start); d > worst {
			worst = d
		}
		if len(a.Unknown) > 0 {
			flagged++
			for _, u := range a.Unknown {
				counts[u.Name]++
			}
		}
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	var top []string
	for _, k := range keys {
		top = append(top, k+"×"+itoa(counts[k]))
	}
	t.Logf("%d statements: %d rejected by the gate, %d with unknown names (%.1f%%); slowest check %v; names: %s",
		n, gated, flagged, 100*float64(flagged)/float64(n), worst, strings.Join(top, " "))
	if float64(flagged) > 0.10*float64(n) {
		t.Errorf("false-positive rate %.1f%% above 10%%", 100*float64(flagged)/float64(n))
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
