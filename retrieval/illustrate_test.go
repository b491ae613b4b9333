package retrieval

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// writeCorpus writes decls as a JSONL corpus and returns its path.
func writeCorpus(t *testing.T, decls []*library.Decl) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "corpus.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := library.WriteDecls(f, decls); err != nil {
		t.Fatal(err)
	}
	return p
}

func thm(name, doc string, deps ...string) *library.Decl {
	return &library.Decl{Name: name, Kind: library.KindTheorem, File: "T.lean", Doc: doc, Signature: "theorem " + name, StatementDeps: deps}
}

func def(name, doc string) *library.Decl {
	return &library.Decl{Name: name, Kind: library.KindDef, File: "D.lean", Doc: doc, Signature: "def " + name}
}

func TestIllustrateGreedy(t *testing.T) {
	corpus := writeCorpus(t, []*library.Decl{
		def("A", "alpha things"), def("B", "beta things"), def("C", "gamma things"), def("D", "delta, used nowhere"),
		thm("t_ab_plain", "", "A", "B"),
		thm("t_ab_match", "alpha beta swap", "A", "B"),
		thm("t_a", "alpha", "A"),
		thm("t_c", "", "C"),
		thm("t_abc_other", "", "E"),
	})
	e := openReady(t, Config{Corpus: []string{corpus}})
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		stmt     string
		premises []string
		m        int
		want     []string
		covers   [][]string
		coverage float64
	}{
		{
			// t_ab_plain and t_ab_match tie on coverage; the one whose text is
			// closer to the statement wins; then t_c; D is never covered, so
			// the loop stops on zero gain before m.
			name: "ties and zero gain", stmt: "alpha beta swap", premises: []string{"A", "B", "C", "D"}, m: 5,
			want: []string{"t_ab_match", "t_c"}, covers: [][]string{{"A", "B"}, {"C"}}, coverage: 0.75,
		},
		{
			// With no similarity signal, ties go to the smaller name.
			name: "tie by name", stmt: "zzz", premises: []string{"A", "B"}, m: 3,
			want: []string{"t_ab_match"}, covers: [][]string{{"A", "B"}}, coverage: 1,
		},
		{
			name: "budget", stmt: "alpha", premises: []string{"A", "C"}, m: 1,
			want: []string{"t_a"}, covers: [][]string{{"A"}}, coverage: 0.5,
		},
		{
			name: "nothing uses the premise", stmt: "delta", premises: []string{"D", "D"}, m: 3,
			want: nil, coverage: 0,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ill, err := e.Illustrate(ctx, tc.stmt, tc.premises, tc.m)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ill.Theorems {
				got = append(got, d.Name)
			}
			if !reflect.DeepEqual(got, tc.want) || (tc.covers != nil && !reflect.DeepEqual(ill.Covers, tc.covers)) || ill.Coverage != tc.coverage {
				t.Errorf("got %q covers %q coverage %v; want %q %q %v", got, ill.Covers, ill.Coverage, tc.want, tc.covers, tc.coverage)
			}
		})
	}
	if ill, err := e.Illustrate(ctx, "x", nil, 3); err != nil || len(ill.Theorems) != 0 {
		t.Errorf("no premises: %v %v", ill, err)
	}
}

func TestFusionPriors(t *testing.T) {
	// Two definitions match "widget" equally by name; the one used by more
	// statements (graph prior) ranks first; theorems never rank as premises;
	// graph feedback finds a definition whose own text does not match.
	decls := []*library.Decl{
		def("Widget", "a widget"), def("Other.Widget", "a widget"), def("Gadget", "an unrelated thing"),
		thm("widget_spin", "every widget spins", "Widget", "Gadget"),
		thm("widget_turns", "a widget turns", "Widget", "Gadget"),
	}
	e := openReady(t, Config{Corpus: []string{writeCorpus(t, decls)}})
	prem, err := e.Retrieve(context.Background(), "widget spins", nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range prem {
		names = append(names, p.Decl.Name)
	}
	if len(names) != 3 || names[0] != "Widget" || names[1] != "Gadget" {
		t.Errorf("premises = %q", names)
	}
	if prem[1].Channels["graph"] == 0 {
		t.Errorf("Gadget should come from graph feedback: %v", prem[1].Channels)
	}
	// Ablation switches are honoured: without feedback Gadget disappears.
	r := DefaultRanking
	r.PRF = false
	s, _ := e.current()
	hits, err := e.rankPremises(context.Background(), s, "widget spins", "", "", 3, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Decl.Name == "Gadget" {
			t.Error("Gadget found without graph feedback")
		}
	}
}
