package lsp

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Pos is a position in LSP coordinates: a 0-based line and a 0-based column
// counted in UTF-16 code units.
type Pos struct {
	Line, Char int
}

// Span is a half-open range in LSP coordinates.
type Span struct {
	Start, End Pos
}

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
	// lines holds the byte offset at which each line starts.
	lines []int
	// comments caches scanComments(Text) (nil until first needed).
	comments []comment
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

func newDocument(uri, lang string, version int32, text string) *Document {
	d := &Document{URI: uri, LanguageID: lang, Version: version, Text: text}
	d.index()
	return d
}

func (d *Document) index() {
	d.lines = lineStarts(d.Text)
	d.comments = nil
}

// lineStarts returns the byte offset of the start of each line of text. A
// line ends at "\n", "\r\n" or a lone "\r", as the LSP specification says.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineEnd returns the byte offset of the end of line l, before its line
// terminator.
func (d *Document) lineEnd(l int) int {
	if l+1 < len(d.lines) {
		end := d.lines[l+1]
		if end > 0 && d.Text[end-1] == '\n' {
			end--
		}
		if end > d.lines[l] && d.Text[end-1] == '\r' {
			end--
		}
		return end
	}
	return len(d.Text)
}

// Offset converts an LSP position into a byte offset into Text. Positions
// past the end of a line clamp to the line's end, lines past the end of the
// document clamp to the end of the text, and a position inside a surrogate
// pair clamps to the start of the character.
func (d *Document) Offset(p Pos) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(d.lines) {
		return len(d.Text)
	}
	start, end := d.lines[p.Line], d.lineEnd(p.Line)
	units := 0
	for i := start; i < end; {
		if units >= p.Char {
			return i
		}
		r, size := utf8.DecodeRuneInString(d.Text[i:end])
		n := 1
		if r >= 0x10000 && r != utf8.RuneError {
			n = 2
		}
		if units+n > p.Char {
			return i
		}
		units += n
		i += size
	}
	return end
}

// Position converts a byte offset into an LSP position; offsets are clamped
// to the text.
func (d *Document) Position(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(d.Text) {
		off = len(d.Text)
	}
	// Binary search for the line containing off.
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	line := lo
	end := d.lineEnd(line)
	if off > end {
		off = end
	}
	return Pos{Line: line, Char: utf16Len(d.Text[d.lines[line]:off])}
}

// utf16Len returns the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// SpanOf returns the LSP range of the byte range [start, end).
func (d *Document) SpanOf(start, end int) Span {
	return Span{Start: d.Position(start), End: d.Position(end)}
}

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
	if l < 0 || l >= len(d.lines) {
		return ""
	}
	return d.Text[d.lines[l]:d.lineEnd(l)]
}

// LineCount returns the number of lines of the document.
func (d *Document) LineCount() int { return len(d.lines) }

// LineStart returns the byte offset of the start of line l, clamped.
func (d *Document) LineStart(l int) int {
	if l < 0 {
		return 0
	}
	if l >= len(d.lines) {
		return len(d.Text)
	}
	return d.lines[l]
}

// clone returns a snapshot of the document that later changes do not touch.
func (d *Document) clone() *Document {
	c := *d
	c.lines = append([]int(nil), d.lines...)
	return &c
}
