package main

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/blueprint"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// blueprintSet turns the nodes of a leanblueprint into queries: each
// definition, lemma, theorem, proposition or corollary with a \lean{…} tag
// is asked for by its statement as its author wrote it in LaTeX (the
// blueprint's commands dropped and its own macros expanded by the
// blueprint reader), gold the tagged names the library has. Style is
// "latex" for a statement with math ($…$, \(…\), \[…\] or a display
// environment), else "prose"; nodes without a statement or whose names
// the library lacks are skipped, a statement repeated is asked once, and a
// name in exclude is no gold. The split hashes the first gold name, so a
// declaration two nodes tag is in one half.
func blueprintSet(lib *library.Library, bp *blueprint.Blueprint, exclude map[string]bool) []setItem {
	var out []setItem
	seen := map[string]bool{}
	for _, n := range bp.Nodes {
		if n.Statement == "" || seen[n.Statement] {
			continue
		}
		var gold []string
		kind := ""
		for _, name := range n.Lean {
			d, ok := lib.Lookup(name)
			if !ok || exclude[d.Name] {
				continue
			}
			if kind == "" {
				kind = string(d.Kind)
			}
			gold = append(gold, d.Name)
		}
		if len(gold) == 0 {
			continue
		}
		style := "prose"
		if hasMath(n.Statement) {
			style = "latex"
		}
		seen[n.Statement] = true
		out = append(out, setItem{ID: "blueprint:" + n.Label, Query: n.Statement, Gold: gold, Style: style, Kind: kind, split: gold[0]})
	}
	return out
}

// hasMath reports whether a LaTeX text has math: an inline or display
// formula or a math environment.
func hasMath(s string) bool {
	for _, m := range []string{"$", `\(`, `\[`, `\begin{equation`, `\begin{align`, `\begin{gather`, `\begin{multline`} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}
