package names

import (
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

func decls(names ...string) []*library.Decl {
	out := make([]*library.Decl, len(names))
	for i, n := range names {
		out[i] = &library.Decl{Name: n}
	}
	return out
}

func fixture() *Index {
	ds := decls("Set", "Set.ncard", "Finset.card", "Nat.Prime", "Prime", "Nat.Prime.two_le", "Finset.prod", "Finset.sum",
		"Set.encard", "IsOpen", "IsClosed", "Nat.card", "«term_∣_»", "Foo.«weird.name»")
	for _, d := range ds {
		if d.Name == "Finset.prod" {
			d.Twin = "Finset.sum"
		}
	}
	return New(ds)
}

func TestExactSuffix(t *testing.T) {
	ix := fixture()
	if ix.Len() != 14 {
		t.Fatalf("Len = %d", ix.Len())
	}
	for _, tc := range []struct {
		name string
		want bool
	}{{"Set.ncard", true}, {"ncard", false}, {"Nat.Prime", true}, {"", false}, {"Nat", false}, {"a\x00b", false}} {
		if got := ix.Exact(tc.name); got != tc.want {
			t.Errorf("Exact(%q) = %v", tc.name, got)
		}
	}
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"ncard", []string{"Set.ncard"}},
		{"Prime", []string{"Prime", "Nat.Prime"}},
		{"card", []string{"Nat.card", "Finset.card"}},
		{"_root_.Prime", []string{"Prime", "Nat.Prime"}},
		{"Prime.two_le", []string{"Nat.Prime.two_le"}},
		{"zzz", nil},
		{"", nil},
	} {
		if got := ix.Suffix(tc.s); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Suffix(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestPartial(t *testing.T) {
	ix := fixture()
	got := ix.Partial("card", 3)
	want := []string{"Nat.card", "Finset.card", "Set.ncard"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Partial(card) = %q, want %q", got, want)
	}
	if got := ix.Partial("Prime", 0); len(got) != 3 || got[0] != "Prime" {
		t.Errorf("Partial(Prime) = %q", got)
	}
	if ix.Partial("", 5) != nil {
		t.Error("Partial of empty string should be nil")
	}
}

func TestSimilar(t *testing.T) {
	ix := fixture()
	for _, tc := range []struct {
		name  string
		limit int
		want  []string
	}{
		{"Finset.prod", 1, []string{"Finset.sum"}},
		{"Real.Prime", 2, []string{"Nat.Prime", "Prime"}},
		{"IsOpn", 2, []string{"IsOpen"}},
		{"Set.ncrd", 1, []string{"Set.ncard"}},
		{"Completely.Unrelated", 3, nil},
	} {
		if got := ix.Similar(tc.name, tc.limit); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Similar(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestWith(t *testing.T) {
	ix := fixture()
	nx := ix.With([]string{"Set.ncard"}, decls("Set.ncard'", "Mine.ncard"))
	if nx.Exact("Set.ncard") || !nx.Exact("Mine.ncard") || !ix.Exact("Set.ncard") {
		t.Fatal("With did not overlay removals and additions (or changed the receiver)")
	}
	if got := nx.Suffix("ncard"); !reflect.DeepEqual(got, []string{"Mine.ncard"}) {
		t.Errorf("Suffix after With = %q", got)
	}
	if got := nx.Similar("Other.ncard", 5); !reflect.DeepEqual(got, []string{"Mine.ncard", "Set.encard", "Set.ncard'", "Finset.card", "Nat.card"}) {
		t.Errorf("Similar after With = %q", got)
	}
	if nx.Len() != ix.Len()+1 {
		t.Errorf("Len = %d, want %d", nx.Len(), ix.Len()+1)
	}
	// Re-adding a removed base name restores it.
	if !nx.With(nil, decls("Set.ncard")).Exact("Set.ncard") {
		t.Error("re-added name missing")
	}
	// A large overlay triggers a rebuild with the same answers.
	var many []*library.Decl
	for i := range rebuildAt + 1 {
		many = append(many, &library.Decl{Name: fmt.Sprintf("Gen.n%d", i)})
	}
	big := nx.With(nil, many)
	if big.extra != nil || !big.Exact("Gen.n7") || !big.Exact("Mine.ncard") || big.Exact("Set.ncard") {
		t.Error("rebuilt index lost names")
	}
}

func TestLastDistance(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Nat.Prime", "Prime"}, {"Prime", "Prime"}, {"Foo.«a.b»", "«a.b»"}, {"A.", "A."},
	} {
		if got := Last(tc.in); got != tc.want {
			t.Errorf("Last(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if Distance("kitten", "sitting") != 3 || Distance("", "ab") != 2 || Distance("ℝ", "ℕ") != 1 {
		t.Error("Distance wrong")
	}
}

func synthetic(n int) []*library.Decl {
	ns := []string{"Nat", "Int", "Real", "Set", "Finset", "Polynomial", "MeasureTheory", "Filter", "Topology"}
	out := make([]*library.Decl, n)
	for i := range out {
		out[i] = &library.Decl{Name: fmt.Sprintf("%s.lemma_%d_mul_comm%d", ns[i%len(ns)], i/7, i%13)}
	}
	return out
}

func BenchmarkLookups(b *testing.B) {
	ix := New(synthetic(200000))
	b.Run("Exact", func(b *testing.B) {
		for b.Loop() {
			ix.Exact("Real.lemma_1234_mul_comm3")
		}
	})
	b.Run("Suffix", func(b *testing.B) {
		for b.Loop() {
			ix.Suffix("lemma_1234_mul_comm3")
		}
	})
	b.Run("Partial", func(b *testing.B) {
		for b.Loop() {
			ix.Partial("lemma_1234_", 20)
		}
	})
	b.Run("Similar", func(b *testing.B) {
		for b.Loop() {
			ix.Similar("Foo.lemma_1234_mul_com3", 10)
		}
	})
}

func BenchmarkNew(b *testing.B) {
	ds := synthetic(200000)
	for b.Loop() {
		New(ds)
	}
}

// BenchmarkMathlib measures lookups over a real declaration dump when
// DRIFT_BENCH_CORPUS names one (a decls JSONL file).
func BenchmarkMathlib(b *testing.B) {
	path := os.Getenv("DRIFT_BENCH_CORPUS")
	if path == "" {
		b.Skip("set DRIFT_BENCH_CORPUS to a decls JSONL dump")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	ds, err := library.ReadCorpus(f, "corpus")
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	ix := New(ds)
	b.Logf("built over %d names in %v", ix.Len(), time.Since(start))
	for _, q := range []struct{ op, arg string }{{"Exact", "Nat.Prime"}, {"Suffix", "ncard"}, {"Partial", "card_le"}, {"Similar", "Nat.prime_def_lt''"}, {"Similar", "Real.sqrt_two_mul_self'"}, {"Similar", "Finset.sum_congr"}} {
		b.Run(q.op+"/"+q.arg, func(b *testing.B) {
			for b.Loop() {
				switch q.op {
				case "Exact":
					ix.Exact(q.arg)
				case "Suffix":
					ix.Suffix(q.arg)
				case "Partial":
					ix.Partial(q.arg, 20)
				case "Similar":
					ix.Similar(q.arg, 10)
				}
			}
		})
	}
}

func TestContainsAndEndsWith(t *testing.T) {
	ix := New([]*library.Decl{{Name: "Nat.rat_smul_eq"}, {Name: "Foo.map_rat_smul"}})
	tests := []struct {
		s          string
		contains   bool
		endsWithIt bool
	}{
		{"_smul_", true, false}, {"rat_smul", true, true}, {"_smul", true, true}, {"zzz", false, false}, {"", false, false},
	}
	for _, tt := range tests {
		if got := ix.Contains(tt.s); got != tt.contains {
			t.Errorf("Contains(%q) = %v", tt.s, got)
		}
		if got := ix.EndsWith(tt.s); got != tt.endsWithIt {
			t.Errorf("EndsWith(%q) = %v", tt.s, got)
		}
	}
	ix2 := ix.With([]string{"Foo.map_rat_smul"}, nil)
	if ix2.EndsWith("rat_smul") {
		t.Error("EndsWith sees a removed name")
	}
}
