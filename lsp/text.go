package lsp

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Pos is a position in LSP coordinates (leansrc.Pos: a 0-based line and a
// 0-based column counted in UTF-16 code units).
type Pos = leansrc.Pos

// Span is a half-open range in LSP coordinates (leansrc.Range).
type Span = leansrc.Range

// Document is the server's copy of one open editor buffer.
type Document struct {
	URI        string
	LanguageID string
	// Version is the client's version label of the text (the last one
	// received, even if it went backwards).
	Version int32
	// Rev counts every change the server applied; it only grows, so jobs can
	// tell whether the text changed since they started even when a client
	// sends out-of-order version numbers.
	Rev  uint64
	Text string
	// lines converts between byte offsets and positions of Text.
	lines *leansrc.LineIndex
	// comments caches scanComments(Text) and commands leansrc.Commands(Text)
	// (nil until first needed).
	comments []comment
	commands []leansrc.Command
}

// Comments returns the comments of the text, computed once per revision.
func (d *Document) Comments() []comment {
	if d.comments == nil {
		d.comments = scanComments(d.Text)
		if d.comments == nil {
			d.comments = []comment{}
		}
	}
	return d.comments
}

// Command is one top-level command of a document: its keyword, name and
// range (leansrc.Command).
type Command = leansrc.Command

// Commands returns the commands of the text (leansrc's parser), computed
// once per revision.
func (d *Document) Commands() []Command {
	if d.commands == nil {
		d.commands = leansrc.Commands([]byte(d.Text))
		if d.commands == nil {
			d.commands = []leansrc.Command{}
		}
	}
	return d.commands
}

func newDocument(uri, lang string, version int32, text string) *Document {
	d := &Document{URI: uri, LanguageID: lang, Version: version, Text: text}
	d.index()
	return d
}

func (d *Document) index() {
	d.lines = leansrc.NewLineIndex([]byte(d.Text))
	d.comments, d.commands = nil, nil
}

// lineEnd returns the byte offset of the end of line l, before its line
// terminator.
func (d *Document) lineEnd(l int) int { return d.lines.LineEnd(l) }

// Offset converts an LSP position into a byte offset into Text
// (leansrc.LineIndex.Offset: clamped to the line and the text, a position
// inside a surrogate pair to the start of its character).
func (d *Document) Offset(p Pos) int { return d.lines.Offset(p) }

// Position converts a byte offset into an LSP position; offsets are clamped
// to the text.
func (d *Document) Position(off int) Pos { return d.lines.Pos(off) }

// SpanOf returns the LSP range of the byte range [start, end).
func (d *Document) SpanOf(start, end int) Span { return d.lines.Range(start, end) }

// Change is one content change of a didChange notification: a replacement
// of Range (nil for the whole document) by Text.
type Change struct {
	Range *Span
	Text  string
}

// Apply applies changes in order and records the new version. Ranges are
// clamped to the text, and reversed ranges are normalised, so a confused
// client cannot crash the server; the result is what an editor would show.
func (d *Document) Apply(version int32, changes []Change) {
	for _, c := range changes {
		if c.Range == nil {
			d.Text = c.Text
			d.index()
			continue
		}
		start, end := d.Offset(c.Range.Start), d.Offset(c.Range.End)
		if end < start {
			start, end = end, start
		}
		var b strings.Builder
		b.Grow(len(d.Text) - (end - start) + len(c.Text))
		b.WriteString(d.Text[:start])
		b.WriteString(c.Text)
		b.WriteString(d.Text[end:])
		d.Text = b.String()
		d.index()
	}
	d.Version = version
	d.Rev++
}

// LineText returns the text of line l without its terminator ("" when out of
// range).
func (d *Document) LineText(l int) string {
	if l < 0 || l >= d.lines.LineCount() {
		return ""
	}
	return d.Text[d.lines.LineStart(l):d.lines.LineEnd(l)]
}

// LineCount returns the number of lines of the document.
func (d *Document) LineCount() int { return d.lines.LineCount() }

// LineStart returns the byte offset of the start of line l, clamped.
func (d *Document) LineStart(l int) int { return d.lines.LineStart(l) }

// clone returns a snapshot of the document that later changes do not touch.
func (d *Document) clone() *Document {
	c := *d // lines is never modified, only replaced
	return &c
}
