package app

import (
	"github.com/drift-lsp/drift-lsp/cmd/internal/docref"
	"github.com/drift-lsp/drift-lsp/lsp"
)

// commentChecker is lsp's view of a checker of names in comments
// (cmd/internal/docref). It is a comparable value: two of them over the same
// docref.Checker are equal, so the server keeps its parse of a document
// until the library changes.
type commentChecker struct {
	c *docref.Checker
}

// newCommentChecker wraps c for the server (nil for a nil c).
func newCommentChecker(c *docref.Checker) lsp.CommentChecker {
	if c == nil {
		return nil
	}
	return commentChecker{c: c}
}

// Parse implements lsp.CommentChecker: the document's text, parse and
// comments, with its declarations from the index.
func (k commentChecker) Parse(path, text string) lsp.CommentDoc {
	return commentDoc{c: k.c, d: docref.NewDoc([]byte(text), k.c.FileDecls(path))}
}

// Complete implements lsp.CommentChecker.
func (k commentChecker) Complete(prefix string) []string { return k.c.Complete(prefix) }

// commentDoc is one parsed revision of a document.
type commentDoc struct {
	c *docref.Checker
	d *docref.Doc
}

// At implements lsp.CommentDoc: the reference, the hover of the declaration
// it denotes and where that is.
func (k commentDoc) At(p lsp.Pos) (lsp.CommentRef, bool) {
	r, ok := k.c.At(k.d, p)
	if !ok {
		return lsp.CommentRef{}, false
	}
	out := lsp.CommentRef{Range: r.Range}
	if h, ok := k.c.Hover(r); ok {
		out.Hover = h.Markdown()
	}
	if loc, ok := k.c.Definition(r); ok {
		out.Definition = lsp.Location{Path: loc.Path, Range: loc.Range}
	}
	return out, true
}

// CompletionAt implements lsp.CommentDoc.
func (k commentDoc) CompletionAt(p lsp.Pos) (string, lsp.Pos, bool) {
	c, ok := k.d.CompletionAt(p)
	return c.Prefix, c.Start, ok
}

// Diagnostics implements lsp.CommentDoc.
func (k commentDoc) Diagnostics() []lsp.CommentFinding {
	var out []lsp.CommentFinding
	for _, f := range k.c.Diagnostics(k.d) {
		out = append(out, lsp.CommentFinding{Name: f.Name, Range: f.Range, Deprecated: f.Status == docref.Deprecated,
			Suggestions: f.Suggestions, Sure: f.Sure})
	}
	return out
}
