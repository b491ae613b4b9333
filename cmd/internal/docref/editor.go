package docref

import (
	"strings"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// Doc is one open document as the editor features see it: its text (after
// leansrc.Prepare), its parse and its comments, computed once per version.
type Doc struct {
	Src      []byte
	Syntax   *leansrc.File
	Comments []Comment
	Decls    []*library.Decl
	Lines    *leansrc.LineIndex
	// Known holds the identifiers the document's own code uses, which the
	// checker's Known (read from disk at start-up) may lack: code typed
	// since, or a file that is not saved yet.
	Known Known
}

// NewDoc parses text for the editor features; decls are the document's
// declarations from the index (nil when it is not indexed yet).
func NewDoc(text []byte, decls []*library.Decl) *Doc {
	src, _ := leansrc.Prepare(text)
	comments, code := Comments(src)
	known := Known{}
	known.Add(src, code)
	return &Doc{Src: src, Syntax: leansrc.Parse(text), Comments: comments, Decls: decls, Lines: leansrc.NewLineIndex(src), Known: known}
}

// comment returns the comment holding byte offset off, if any.
func (d *Doc) comment(off int) (Comment, bool) {
	lo, hi := 0, len(d.Comments)
	for lo < hi {
		m := (lo + hi) / 2
		if d.Comments[m].End <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(d.Comments) && d.Comments[lo].Start <= off && off < d.Comments[lo].End {
		return d.Comments[lo], true
	}
	return Comment{}, false
}

// At returns the reference under position p, which must be inside a
// comment: hover and go-to-definition work only there (the Lean server
// owns code).
func (c *Checker) At(d *Doc, p leansrc.Pos) (Ref, bool) {
	off := d.Lines.Offset(p)
	cm, ok := d.comment(off)
	if !ok {
		return Ref{}, false
	}
	for _, r := range c.refs(d.Src, []Comment{cm}, d.Syntax, d.Decls, d.Known) {
		if r.Start <= off && off <= r.End {
			return r, true
		}
	}
	return Ref{}, false
}

// Hover is what the editor shows for a reference.
type Hover struct {
	// Name is the full name; Kind, Signature, Module and File (relative to
	// its root) describe its declaration; Doc is the first sentence of its
	// docstring.
	Name, Kind, Signature, Doc, Module, File string
	// Replacement is what replaced a deprecated declaration ("" otherwise).
	Replacement string
	Deprecated  bool
}

// Hover describes the declaration a resolved or deprecated reference names.
func (c *Checker) Hover(r Ref) (Hover, bool) {
	if r.Target == "" {
		return Hover{}, false
	}
	d, ok := c.lib.Lookup(r.Target)
	if !ok {
		return Hover{}, false
	}
	h := Hover{Name: d.Name, Kind: string(d.Kind), Signature: d.Signature, Doc: FirstSentence(d.Doc),
		Module: d.Module, File: d.File, Deprecated: deprecated(d)}
	if h.Deprecated {
		h.Replacement = c.Replacement(d.Name)
	}
	return h, true
}

// Markdown renders a hover as Markdown: the signature in a Lean code
// block, then kind, module and file, the docstring's first sentence and,
// for a deprecated declaration, its replacement.
func (h Hover) Markdown() string {
	var b strings.Builder
	b.WriteString("```lean\n")
	b.WriteString(h.Signature)
	b.WriteString("\n```\n\n")
	b.WriteString("*" + h.Kind + "* `" + h.Name + "` — module `" + h.Module + "` (" + h.File + ")")
	if h.Doc != "" {
		b.WriteString("\n\n" + h.Doc)
	}
	if h.Deprecated {
		if h.Replacement != "" {
			b.WriteString("\n\n**Deprecated**: use `" + h.Replacement + "`.")
		} else {
			b.WriteString("\n\n**Deprecated**.")
		}
	}
	return b.String()
}

// FirstSentence returns the first sentence of a docstring: up to the first
// ". " or blank line, with line breaks folded.
func FirstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i+1]
	}
	return doc
}

// Location is a declaration's place on disk.
type Location struct {
	// Path is the absolute file path; Range the declaration's range in it.
	Path  string
	Range library.Range
}

// Definition returns where the declaration a reference names is.
func (c *Checker) Definition(r Ref) (Location, bool) {
	if r.Target == "" {
		return Location{}, false
	}
	d, ok := c.lib.Lookup(r.Target)
	if !ok {
		return Location{}, false
	}
	p, ok := c.lib.DeclPath(d)
	if !ok {
		return Location{}, false
	}
	return Location{Path: p, Range: d.Range}, true
}

// Completion is the backtick name being typed at a position: Prefix is the
// text since the backtick (a name's start, or words separated by spaces for
// the search), which the chosen name replaces from Start.
type Completion struct {
	Prefix string
	Start  leansrc.Pos
}

// CompletionAt reports whether position p is right after "`" plus the
// start of a name or words on the same line inside a comment (never in
// code), and what was typed.
func (d *Doc) CompletionAt(p leansrc.Pos) (Completion, bool) {
	off := d.Lines.Offset(p)
	cm, ok := d.comment(off)
	if !ok && off > 0 {
		cm, ok = d.comment(off - 1)
	}
	if !ok {
		return Completion{}, false
	}
	from, _ := commentBody(d.Src, cm)
	i := off
	for i > from {
		r, n := utf8.DecodeLastRune(d.Src[from:i])
		if r == '`' {
			break
		}
		if r == '\n' || !(r == ' ' || r == '\t' || r == '.' || r == '_' || r == '\'' || r == '«' || r == '»' ||
			leansrc.IsIdentifier(string(r)) || (r >= '0' && r <= '9')) {
			return Completion{}, false
		}
		i -= n
	}
	if i <= from || d.Src[i-1] != '`' {
		return Completion{}, false
	}
	// An even number of backticks before on the line means we are after a
	// closing one, not inside a span.
	line := d.Src[:i-1]
	if nl := strings.LastIndexByte(string(line), '\n'); nl >= 0 {
		line = line[nl+1:]
	}
	if strings.Count(string(line), "`")%2 == 1 {
		return Completion{}, false
	}
	return Completion{Prefix: string(d.Src[i:off]), Start: d.Lines.Pos(i)}, true
}

// maxCompletions bounds the names Complete returns.
const maxCompletions = 50

// Complete returns up to maxCompletions full names for a prefix: names whose
// full name or a dotted suffix starts with it, shortest first.
func (c *Checker) Complete(prefix string) []string {
	if prefix == "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range c.ix.Partial(prefix, 20*maxCompletions) {
		if seen[n] {
			continue
		}
		if strings.HasPrefix(n, prefix) || strings.Contains(n, "."+prefix) {
			seen[n] = true
			out = append(out, n)
			if len(out) == maxCompletions {
				break
			}
		}
	}
	return out
}

// FileDecls returns the indexed declarations of a file (absolute path), for
// NewDoc.
func (c *Checker) FileDecls(path string) []*library.Decl { return c.lib.FileDecls(path) }

// Diagnostics returns the findings of a document.
func (c *Checker) Diagnostics(d *Doc) []Finding {
	return c.Findings(c.refs(d.Src, d.Comments, d.Syntax, d.Decls, d.Known))
}
