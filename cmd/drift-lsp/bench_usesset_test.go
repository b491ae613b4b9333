package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/drift-lsp/drift-lsp/retrieval"
)

// TestUsesSetLeaveOneOut writes the uses sets of the test workspace (a
// theorem's docstring → the premises its statement uses) and runs bench
// retrieval over them with and without --leave-one-out: the theorem's own
// statement, which names the gold, must stop voting in the graph feedback,
// so leaving it out lowers F1.
func TestUsesSetLeaveOneOut(t *testing.T) {
	t.Setenv("DRIFT_EMBED_PROVIDER", "none")
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := dispatch([]string{"bench", "mkset", "--root", ws, "--cache", "", "--uses", "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("mkset: exit %d\n%s%s", code, out.String(), errb.String())
	}
	var items []setItem
	for _, half := range []string{"dev", "test"} {
		items = append(items, readSetFile(t, filepath.Join(dir, "uses-"+half+".jsonl"))...)
	}
	for _, tc := range []struct {
		theorem string
		gold    []string // nil: not in the set
	}{
		{"Mm.Prime.eq_one_or_self_of_divides", []string{"Minimath.Divides", "Mm.Prime"}},
		{"Mm.Monotone.comp", []string{"Mm.Monotone", "Mm.Preorder"}},
	} {
		i := slices.IndexFunc(items, func(it setItem) bool { return it.ID == tc.theorem })
		if i < 0 {
			t.Errorf("%s: not in the uses sets", tc.theorem)
			continue
		}
		if !slices.Equal(items[i].Gold, tc.gold) {
			t.Errorf("%s: gold %q, want %q", tc.theorem, items[i].Gold, tc.gold)
		}
	}
	for _, it := range items {
		if it.Kind != "theorem" {
			t.Errorf("%s: kind %q, want theorem", it.ID, it.Kind)
		}
	}
	f1 := func(extra ...string) float64 {
		out.Reset()
		args := append([]string{"bench", "retrieval", "--json", "--root", ws, "--cache", "", "-k", "2", "--bench", filepath.Join(dir, "uses-test.jsonl")}, extra...)
		if code := dispatch(args, &out, &errb); code != 0 {
			t.Fatalf("retrieval: exit %d\n%s%s", code, out.String(), errb.String())
		}
		var r retrieval.BenchResult
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		return r.F1
	}
	if in, loo := f1(), f1("--leave-one-out"); loo >= in {
		t.Errorf("F1@2 with the theorem left out %.2f, not below %.2f with it", loo, in)
	}
}
