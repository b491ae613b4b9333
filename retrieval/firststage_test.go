package retrieval

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// pruningQueries are the golden queries (topic- and sentence-shaped) and a
// long sentence, over the demo workspace.
var pruningQueries = append(slices.Clone(goldenQueries), "a group is a monoid in which every element has an inverse")

// TestFirstStageSkipIsExact checks that the first stage's skip (a slot
// whose bound cannot enter the pool is not scored) changes nothing: the
// best n of a small pool, where the skip acts, are the best n of a pool
// larger than the library, where it cannot.
func TestFirstStageSkipIsExact(t *testing.T) {
	e := openReady(t, Config{Roots: []string{filepath.Join("..", "testdata", "workspace")}})
	s, err := e.current()
	if err != nil {
		t.Fatal(err)
	}
	syn := e.synonyms(s)
	w := DefaultSearch.weights()
	compared := 0
	for _, q := range pruningQueries {
		qs := uniq(lexical.Terms(q))
		exps := syn.expand(qs)
		all := s.humanScores(qs, exps, DefaultSearch, w, nil, int(s.n())+1)
		for _, n := range []int{1, 3, 5} {
			small := s.humanScores(qs, exps, DefaultSearch, w, nil, n)
			want := min(n, len(all.slots))
			if !slices.Equal(small.slots, all.slots[:want]) || !slices.Equal(small.scores, all.scores[:want]) {
				t.Errorf("%q, pool %d: slots %v scores %v, want %v %v", q, n, small.slots, small.scores, all.slots[:want], all.scores[:want])
			}
			if len(all.slots) > n {
				compared++
			}
		}
	}
	if compared == 0 {
		t.Fatal("no query found more declarations than the small pools hold: the skip was never exercised")
	}
}

// TestPhraseGateIsExact checks that reading the first sentence and the
// docstring only when their postings hold two query terms (twoTermsIn)
// gives every candidate the phrase features it has when they are always
// read, and that the gate does skip some candidates.
func TestPhraseGateIsExact(t *testing.T) {
	e := openReady(t, Config{Roots: []string{filepath.Join("..", "testdata", "workspace")}})
	s, err := e.current()
	if err != nil {
		t.Fatal(err)
	}
	skipped, read := 0, 0
	for _, q := range pruningQueries {
		seq := lexical.Terms(q)
		two := s.twoTermsIn(seq)
		for sl := range s.n() {
			if !s.live(sl) {
				continue
			}
			d := s.decl(sl)
			gated, full := &candidate{slot: sl}, &candidate{slot: sl}
			lead, doc := two(fLead, sl), two(fDoc, sl)
			gated.phrase(d, seq, nil, true, lead, doc)
			full.phrase(d, seq, nil, true, true, true)
			if *gated != *full {
				t.Errorf("%q, %s: gated phrase features %+v, read in full %+v", q, d.Name, *gated, *full)
			}
			if d.Doc != "" && len(seq) > 1 {
				if lead && doc {
					read++
				} else {
					skipped++
				}
			}
		}
	}
	if skipped == 0 || read == 0 {
		t.Fatalf("the gate skipped %d and read %d docstrings: it must do both on these queries", skipped, read)
	}
}
