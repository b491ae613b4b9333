package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// TestUndocSet writes the undoc sets of the test workspace (every
// documented theorem, one in 1) and checks that each gold theorem has its
// docstring removed from undoc-corpus.jsonl and every other declaration
// keeps its own, and that a name in --exclude is no gold.
func TestUndocSet(t *testing.T) {
	t.Setenv("DRIFT_EMBED_PROVIDER", "none")
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	exclude := filepath.Join(dir, "names.txt")
	if err := os.WriteFile(exclude, []byte("Mm.even_or_odd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := dispatch([]string{"bench", "mkset", "--root", ws, "--cache", "", "--undoc", "1", "--exclude", exclude, "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("mkset: exit %d\n%s%s", code, out.String(), errb.String())
	}
	gold := map[string]string{}
	for _, half := range []string{"dev", "test"} {
		for _, it := range readSetFile(t, filepath.Join(dir, "undoc-"+half+".jsonl")) {
			if it.Style != "undoc" || it.Kind != "theorem" || len(it.Gold) != 1 {
				t.Errorf("item %+v: want style undoc, kind theorem, one gold", it)
			}
			gold[it.Gold[0]] = it.Query
		}
	}
	if gold["Mm.Prime.eq_one_or_self_of_divides"] != "The only divisors of a prime are one and itself" {
		t.Errorf("undoc query of Mm.Prime.eq_one_or_self_of_divides = %q", gold["Mm.Prime.eq_one_or_self_of_divides"])
	}
	if _, ok := gold["Mm.even_or_odd"]; ok {
		t.Errorf("excluded Mm.even_or_odd is a gold")
	}
	f, err := os.Open(filepath.Join(dir, "undoc-corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	decls, err := library.ReadCorpus(f, "")
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, d := range decls {
		if _, hidden := gold[d.Name]; hidden && d.Doc != "" {
			t.Errorf("%s keeps its docstring %q in the corpus", d.Name, d.Doc)
		}
		if strings.Contains(d.Doc, " ") {
			kept++
		}
	}
	if len(gold) == 0 || kept == 0 {
		t.Errorf("%d gold theorems, %d declarations with a docstring in the corpus: want both", len(gold), kept)
	}
}

// readSetFile reads a set written by bench mkset.
func readSetFile(t *testing.T, path string) []setItem {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var items []setItem
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var it setItem
		if err := json.Unmarshal([]byte(line), &it); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	return items
}
