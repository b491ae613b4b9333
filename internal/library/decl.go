// Package library holds drift-lsp's picture of a Lean library: the
// declarations of every file in the workspace, their dependency edges, and
// the JSONL corpus format in which that picture is exchanged.
package library

import (
	"slices"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Position is a point in a source file in LSP coordinates (leansrc.Pos: a
// 0-based line and a 0-based column counted in UTF-16 code units).
type Position = leansrc.Pos

// Range is a half-open span of source text in LSP coordinates
// (leansrc.Range).
type Range = leansrc.Range

// Kind is the kind of a declaration as the indexer reports it.
type Kind string

// The declaration kinds. Lemmas are reported as theorems; class inductives as
// KindClassInductive.
const (
	KindDef            Kind = "def"
	KindTheorem        Kind = "theorem"
	KindAbbrev         Kind = "abbrev"
	KindInstance       Kind = "instance"
	KindStructure      Kind = "structure"
	KindClass          Kind = "class"
	KindInductive      Kind = "inductive"
	KindClassInductive Kind = "class inductive"
	KindOpaque         Kind = "opaque"
	KindAxiom          Kind = "axiom"
	KindField          Kind = "field"
	KindConstructor    Kind = "constructor"
	KindAlias          Kind = "alias"
	KindNotation       Kind = "notation"
)

// Kinds lists every declaration kind, in the order of the constants above.
var Kinds = []Kind{KindDef, KindTheorem, KindAbbrev, KindInstance, KindStructure, KindClass, KindInductive,
	KindClassInductive, KindOpaque, KindAxiom, KindField, KindConstructor, KindAlias, KindNotation}

// IsTypeLike reports whether declarations of kind k introduce a type, a
// structure or a class rather than a term or a proof.
func (k Kind) IsTypeLike() bool {
	switch k {
	case KindStructure, KindClass, KindInductive, KindClassInductive:
		return true
	}
	return false
}

// Decl is one declaration of the library. Its JSON form is the `decls` JSONL
// schema: the fields up to Private are the stable interface; the rest are
// optional extras.
type Decl struct {
	Name          string   `json:"name"`
	Kind          Kind     `json:"kind"`
	Module        string   `json:"module"`
	File          string   `json:"file"`
	Range         Range    `json:"range"`
	Signature     string   `json:"signature"`
	Doc           string   `json:"doc"`
	Attrs         []string `json:"attrs"`
	StatementDeps []string `json:"statement_deps"`
	ProofDeps     []string `json:"proof_deps"`
	Private       bool     `json:"private"`

	// Informal is an informal description (from a corpus dump or from the
	// informalization stage) used by search in addition to Doc.
	Informal string `json:"informal,omitempty"`
	// Protected marks `protected` declarations, which are never reachable by
	// their last name component alone.
	Protected bool `json:"protected,omitempty"`
	// Anonymous marks instances that were declared without a name; Name then
	// holds the name Lean generates (best effort).
	Anonymous bool `json:"anonymous,omitempty"`
	// Parent is the structure, class or inductive type that a field or
	// constructor belongs to, or the declaration an alias points to.
	Parent string `json:"parent,omitempty"`
	// Twin is the full name of the @[to_additive] counterpart: on a
	// multiplicative declaration its generated additive twin, on a generated
	// declaration its source.
	Twin string `json:"twin,omitempty"`
	// Generated marks declarations that do not appear in source but that Lean
	// generates (to_additive twins).
	Generated bool `json:"generated,omitempty"`
	// Symbol is the notation symbol of a KindNotation declaration (for example
	// "∣" or "∑ x ∈ s, f x"); its StatementDeps name the constants it unfolds to.
	Symbol string `json:"symbol,omitempty"`
	// Package is the Lake package the file belongs to ("" for the workspace's
	// own root, "mathlib", "batteries", "lean4" for core sources, or the corpus
	// file name for --corpus dumps).
	Package string `json:"package,omitempty"`
	// User marks declarations from the user's own workspace files (as opposed
	// to dependencies), which rank higher in search.
	User bool `json:"user,omitempty"`
	// Main marks the declarations that the file's module docstring lists in
	// a "Main definitions" / "Main results" / "Main statements" section.
	Main bool `json:"main,omitempty"`
	// MainDoc is the description that bullet gives ("intermediate value
	// theorem"), when it has one.
	MainDoc string `json:"main_doc,omitempty"`
	// Value is the body of a short, non-recursive, term-mode def or abbrev
	// (see leansrc.Decl.Value), for the falsifier to unfold.
	Value string `json:"value,omitempty"`
}

// MayBeClass reports whether d may name a class: a class, a class
// inductive, a structure made one by `attribute [class]` (Mathlib's
// MeasurableSpace), or an abbreviation (which may unfold to one).
func (d *Decl) MayBeClass() bool {
	return d.Kind == KindClass || d.Kind == KindClassInductive || d.Kind == KindAbbrev || slices.Contains(d.Attrs, "class")
}
