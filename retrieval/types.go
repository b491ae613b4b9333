// Package retrieval finds the library declarations an informal statement
// needs (premises) and the theorems that show them in use, over a hybrid
// lexical, name and dense index of the workspace library that is kept up to
// date as files change.
package retrieval

import "github.com/drift-lsp/drift-lsp/internal/library"

// Query is one search request.
type Query struct {
	// Text is the free-text query: an informal phrase, a Lean expression or a
	// name.
	Text string
	// Formal is an optional guessed Lean form of the same concept (from the
	// decompose stage), used by the name and lexical channels.
	Formal string
	// K is the number of hits wanted.
	K int
	// Kinds restricts hits to these declaration kinds; empty means all.
	Kinds []library.Kind
}

// Hit is one search result.
type Hit struct {
	Decl  *library.Decl
	Score float64
	// Channels records the rank (1-based) at which each channel ("lexical",
	// "names", "dense", "graph", …) found the declaration, for explanation.
	Channels map[string]int
	// Why explains a search hit in one line: the matched docstring phrase
	// or bold term and the channels (empty for premise ranking).
	Why string
	// Summary is the first sentence of the declaration's docstring, for
	// search result lists (empty for premise ranking).
	Summary string
}

// SubQuery is one concept of a decomposed statement: an informal sentence and
// the model's guess of its Lean form.
type SubQuery struct {
	Informal string
	Formal   string
}

// Premise is a retrieved premise with the sub-query that found it (-1 when it
// came from the whole statement or from another source).
type Premise struct {
	Hit
	SubQuery int
	// Source says how the premise was found: "retrieve", "propose" (named by
	// the model and verified), …
	Source string
}

// Illustration is the result of DRIFT's Illustrate stage.
type Illustration struct {
	// Theorems are the chosen library theorems, in the order picked.
	Theorems []*library.Decl
	// Covers lists, per chosen theorem, the premises it newly covered.
	Covers [][]string
	// Coverage is the share of premises used by at least one chosen theorem.
	Coverage float64
}

// Progress counts the work of one indexing phase; Done never decreases
// while the phase runs.
type Progress struct {
	Done, Total int
}

// Status describes how far the index has come, for progress reporting.
type Status struct {
	// Phase is "scanning", "indexing", "embedding" (ready, dense vectors
	// filling in), "ready" or "failed"; Done and Total mirror the counts of
	// the phase under way.
	Phase string
	// Done and Total count files (or declarations while indexing).
	Done, Total int
	// Scan counts the files read and parsed, Index the declarations
	// indexed, Embed the declarations embedded by the dense channel (Total
	// grows when updates bring new declarations).
	Scan, Index, Embed Progress
	// Decls is the number of declarations searchable now.
	Decls int
	// Ready is true when lexical and name search cover the whole library;
	// dense search may still be filling in.
	Ready bool
	// Warning holds a one-line degraded-mode message, for example a missing
	// ONNX Runtime library.
	Warning string
}
