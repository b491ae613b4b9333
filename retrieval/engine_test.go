package retrieval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// writeTree writes files (relative path -> content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const basicLean = `namespace Demo

/-- A natural number ` + "`p`" + ` is prime when it has exactly two divisors. -/
def Prime (p : Nat) : Prop := 2 ≤ p ∧ ∀ m, m ∣ p → m = 1 ∨ m = p

/-- Divisibility of natural numbers. -/
def Divides (a b : Nat) : Prop := ∃ c, b = a * c

/-- A group is a monoid with inverses. -/
class Group (G : Type) where
  mul : G → G → G

theorem prime_two : Prime 2 := sorry

/-- A prime that divides a product divides one of the factors. -/
theorem Prime.divides_mul {p a b : Nat} (hp : Prime p) (h : Divides p (a * b)) : Divides p a ∨ Divides p b := sorry

theorem divides_refl (a : Nat) : Divides a a := sorry

end Demo
`

// newWorkspace creates a Lake workspace with basicLean and returns its dir.
func newWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"lakefile.lean":   "import Lake\nopen Lake DSL\npackage demo\n",
		"lean-toolchain":  "leanprover/lean4:v4.17.0\n",
		"Demo/Basic.lean": basicLean,
	})
	return dir
}

func openReady(t *testing.T, cfg Config) *Engine {
	t.Helper()
	if cfg.Logf == nil {
		cfg.Logf = t.Logf
	}
	e, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := e.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return e
}

func hitNames(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Decl.Name
	}
	return out
}

func TestSearchRetrieve(t *testing.T) {
	dir := newWorkspace(t)
	e := openReady(t, Config{Roots: []string{dir}, CacheDir: t.TempDir()})
	st := e.Status()
	if !st.Ready || st.Phase != "ready" || st.Decls == 0 || !strings.Contains(st.Warning, "dense retrieval off") {
		t.Errorf("status = %+v", st)
	}
	ctx := context.Background()
	hits, err := e.Search(ctx, Query{Text: "prime number", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Decl.Name != "Demo.Prime" {
		t.Fatalf("search prime number = %q", hitNames(hits))
	}
	hits, err = e.Search(ctx, Query{Text: "prime", K: 5, Kinds: []library.Kind{library.KindTheorem}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Decl.Kind != library.KindTheorem {
			t.Errorf("kind filter let %s (%s) through", h.Decl.Name, h.Decl.Kind)
		}
	}
	// The name channel answers a Lean name in the formal guess.
	hits, err = e.Search(ctx, Query{Text: "", Formal: "Demo.Divides a b", K: 1})
	if err != nil || len(hits) != 1 || hits[0].Decl.Name != "Demo.Divides" || hits[0].Channels["names"] == 0 {
		t.Fatalf("formal search = %v %v", hits, err)
	}
	prem, err := e.Retrieve(ctx, "If a prime p divides ab then p divides a or p divides b.", nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range prem {
		got[p.Decl.Name] = true
		if p.SubQuery != -1 || p.Source != "retrieve" || p.Decl.Kind == library.KindTheorem {
			t.Errorf("bad premise %+v", p)
		}
	}
	if !got["Demo.Prime"] || !got["Demo.Divides"] {
		t.Errorf("retrieve = %v", got)
	}
	prem, err = e.Retrieve(ctx, "", []SubQuery{{Informal: "p is a prime number"}, {Informal: "a prime", Formal: "Prime p"}, {Informal: "a divides b", Formal: "Divides a b"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(prem) != 2 || prem[0].Decl.Name != "Demo.Prime" || prem[0].SubQuery != 0 || prem[1].Decl.Name != "Demo.Divides" || prem[1].SubQuery != 2 {
		t.Errorf("sub-query retrieve = %+v", prem)
	}
	// Top-k per sub-query keeps more than one premise for a sub-query.
	prem, err = e.Retrieve(ctx, "", []SubQuery{{Informal: "p is a prime number"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(prem) != 2 || prem[0].Decl.Name != "Demo.Prime" || prem[1].SubQuery != 0 {
		t.Errorf("top-2 sub-query retrieve = %+v", prem)
	}
	if d, ok := e.Lookup("Demo.Group"); !ok || d.Kind != library.KindClass {
		t.Errorf("Lookup = %v %v", d, ok)
	}
	if !e.Names().Exact("Demo.Prime.divides_mul") {
		t.Error("name channel misses a theorem")
	}
}

func TestRobustQueries(t *testing.T) {
	e := openReady(t, Config{Roots: []string{newWorkspace(t)}})
	ctx := context.Background()
	if _, err := e.Search(ctx, Query{Text: "   "}); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("empty search err = %v", err)
	}
	if _, err := e.Retrieve(ctx, "", nil, 5); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("empty retrieve err = %v", err)
	}
	for _, q := range []string{"∀ ∃ → ↔ ( ) ⟨⟩", "$$ \\ {} ^ _", strings.Repeat("prime divides ", 80000), "\xff\xfe\x00prime"} {
		if _, err := e.Search(ctx, Query{Text: q}); err != nil {
			t.Errorf("search %.20q: %v", q, err)
		}
		prem, err := e.Retrieve(ctx, q, nil, 5)
		if err != nil {
			t.Errorf("retrieve %.20q: %v", q, err)
		}
		names := make([]string, len(prem))
		for i, p := range prem {
			names[i] = p.Decl.Name
		}
		if _, err := e.Illustrate(ctx, q, names, 3); err != nil {
			t.Errorf("illustrate %.20q: %v", q, err)
		}
	}
}

func TestNotReady(t *testing.T) {
	e, err := Open(context.Background(), Config{Corpus: []string{filepath.Join(t.TempDir(), "missing.jsonl")}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.WaitReady(context.Background()); err == nil {
		t.Fatal("missing corpus should fail the build")
	}
	if _, err := e.Search(context.Background(), Query{Text: "x"}); err == nil {
		t.Error("search on a failed engine should fail")
	}
	if _, err := Open(context.Background(), Config{}); err == nil {
		t.Error("Open with nothing to index should fail")
	}
	// Before the build finishes, queries say how far indexing has come.
	e2 := &Engine{ready: make(chan struct{}), status: Status{Phase: "indexing", Done: 1, Total: 2}}
	if _, err := e2.current(); !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), "indexing, 75%") {
		t.Errorf("not-ready error = %v", err)
	}
}
