package drift

import (
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/stmtgrammar"
)

// Constrained decoding of Formalize: when the client sends grammars
// (llm.Config.Grammar; the bundled local model by default), every
// Formalize request carries the grammar of a Lean statement over the
// vocabulary of this statement (internal/stmtgrammar), and every answer is
// checked against it afterwards: a server that cannot load a grammar
// answers 200, unconstrained, and says nothing.

// GrammarReport says how Formalize's answers were constrained.
type GrammarReport struct {
	// Names is the vocabulary's size, Bytes the grammar's.
	Names int `json:"names"`
	Bytes int `json:"bytes"`
	// Answers counts the answers drawn with the grammar; Departed those
	// that do not keep to it.
	Answers  int `json:"answers"`
	Departed int `json:"departed"`
	// NotApplied, when answers departed, says that the grammar was not in
	// force and why ("grammar not applied: answer names `foo`, outside
	// the vocabulary").
	NotApplied string `json:"not_applied,omitempty"`
}

// Limits of the vocabulary's close relatives: the namespaces of the
// premises and illustrative theorems looked into, the names asked of the
// name index per namespace, and the names kept per namespace.
const (
	relativeNamespaces = 8
	relativeScan       = 400
	relativesKept      = 40
)

// statementGrammar is the grammar of one statement's Formalize answers.
type statementGrammar struct {
	vocab *stmtgrammar.Vocabulary
	text  string
}

// formalizeGrammar builds the grammar of Formalize's answers for the
// premises and illustrative theorems, or nil when the client sends no
// grammar. The vocabulary: the premises and illustrative theorems, the
// constants their statements use that are not theorems, their namespaces'
// definitions, structures and classes (bounded), the library's names of
// stmtgrammar.Common, and stmtgrammar.Core.
func (pl *Pipeline) formalizeGrammar(decls, theorems []*library.Decl) *statementGrammar {
	if pl.client == nil || pl.client.Config().Grammar == "" {
		return nil
	}
	var names []string
	seenNS := map[string]bool{}
	var namespaces []string
	notTheorem := func(name string) bool {
		d, ok := pl.r.Lookup(name)
		return ok && d.Kind != library.KindTheorem && d.Kind != library.KindInstance && d.Kind != library.KindAlias && !d.Private
	}
	for _, d := range append(append([]*library.Decl(nil), decls...), theorems...) {
		if d == nil {
			continue
		}
		names = append(names, d.Name)
		for _, dep := range d.StatementDeps {
			if notTheorem(dep) {
				names = append(names, dep)
			}
		}
		if i := strings.LastIndexByte(d.Name, '.'); i > 0 && !seenNS[d.Name[:i]] && len(namespaces) < relativeNamespaces {
			seenNS[d.Name[:i]] = true
			namespaces = append(namespaces, d.Name[:i])
		}
	}
	if pl.names != nil {
		for _, ns := range namespaces {
			kept := 0
			for _, n := range pl.names.Partial(ns+".", relativeScan) {
				rest, ok := strings.CutPrefix(n, ns+".")
				if !ok || strings.Contains(rest, ".") || !notTheorem(n) {
					continue
				}
				names = append(names, n)
				if kept++; kept == relativesKept {
					break
				}
			}
		}
	}
	for _, n := range stmtgrammar.Common {
		if _, ok := pl.r.Lookup(n); ok {
			names = append(names, n)
		}
	}
	v := stmtgrammar.New(names)
	return &statementGrammar{vocab: v, text: v.Lark()}
}

// record checks the answers drawn with the grammar into res.Grammar, and
// warns when the grammar was not in force.
func (g *statementGrammar) record(res *Result, samples []sample) {
	if g == nil {
		return
	}
	res.Grammar = g.report(samples)
	if res.Grammar.NotApplied != "" {
		res.Warnings = append(res.Warnings, res.Grammar.NotApplied)
	}
}

// report checks the answers drawn with the grammar.
func (g *statementGrammar) report(samples []sample) *GrammarReport {
	r := &GrammarReport{Names: len(g.vocab.Names), Bytes: len(g.text)}
	var first []string
	for _, s := range samples {
		if !s.grammar {
			continue
		}
		r.Answers++
		if p := g.vocab.Check(s.answer); len(p) > 0 {
			r.Departed++
			if first == nil {
				first = p
			}
		}
	}
	if r.Departed > 0 {
		r.NotApplied = fmt.Sprintf("grammar not applied: %d of %d answers depart from it (%s)", r.Departed, r.Answers, strings.Join(first, "; "))
	}
	return r
}
