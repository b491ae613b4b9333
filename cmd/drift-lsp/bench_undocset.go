package main

import (
	"os"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// undocSet turns one in every documented theorem into a query asked the
// way most of a library's theorems must be found, by what they state: the
// query is the docstring's first sentence and the corpus the set is run on
// (undocCorpus) has that docstring removed, so only the theorem's name and
// statement can match it. Declarations named in exclude (a held-out
// benchmark's gold), generated and private ones, sentences quoting code,
// math or a reference ("See note [...]") are skipped.
func undocSet(lib *library.Library, every int, exclude map[string]bool) []setItem {
	var out []setItem
	for _, d := range lib.Decls() {
		if d.Kind != library.KindTheorem || d.Doc == "" || d.Generated || d.Private || exclude[d.Name] {
			continue
		}
		if !sampled("undoc:"+d.Name, every) {
			continue
		}
		lead, ok := docLead(d.Doc)
		if !ok || len(strings.Fields(lead)) < 4 || strings.Contains(lead, "[") {
			continue
		}
		if strings.HasPrefix(lead, "See ") || strings.HasPrefix(lead, "Porting note") || strings.HasPrefix(lead, "TODO") {
			continue
		}
		out = append(out, setItem{ID: "undoc:" + d.Name, Query: lead, Gold: []string{d.Name}, Style: "undoc", Kind: string(d.Kind)})
	}
	return out
}

// writeUndocCorpus writes the library's declarations in the decls JSONL
// schema with the docstrings of the undoc set's gold removed: the
// corpus (`bench search --corpus`) the undoc set is asked against.
func writeUndocCorpus(path string, lib *library.Library, items []setItem) error {
	hidden := map[string]bool{}
	for _, it := range items {
		hidden[it.Gold[0]] = true
	}
	decls := lib.Decls()
	out := make([]*library.Decl, len(decls))
	for i, d := range decls {
		out[i] = d
		if hidden[d.Name] && d.Doc != "" {
			c := *d
			c.Doc = ""
			out[i] = &c
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := library.WriteDecls(f, out); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
