package fakeeditor

import (
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Doc is the editor's copy of one document; positions are UTF-16, as LSP
// says.
type Doc struct {
	URI     string
	Version int32
	Text    string
}

// Position returns the LSP position of byte offset off.
func (d *Doc) Position(off int) protocol.Position {
	line, col := 0, 0
	for i, r := range d.Text {
		if i >= off {
			break
		}
		if r == '\n' {
			line, col = line+1, 0
			continue
		}
		col += utf16Len(r)
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// Range returns the LSP range of the bytes [start, end).
func (d *Doc) Range(start, end int) protocol.Range {
	return protocol.Range{Start: d.Position(start), End: d.Position(end)}
}

// Offset returns the byte offset of p, clamped to its line and the text.
func (d *Doc) Offset(p protocol.Position) int {
	line, col := uint32(0), uint32(0)
	for i, r := range d.Text {
		if line == p.Line && (col >= p.Character || r == '\n') {
			return i
		}
		if r == '\n' {
			if line == p.Line {
				return i
			}
			line, col = line+1, 0
			continue
		}
		col += uint32(utf16Len(r))
	}
	return len(d.Text)
}

func (d *Doc) apply(r protocol.Range, text string) {
	start, end := d.Offset(r.Start), d.Offset(r.End)
	if end < start {
		end = start
	}
	d.Text = d.Text[:start] + text + d.Text[end:]
}

func utf16Len(r rune) int {
	if r >= 0x10000 && utf8.ValidRune(r) {
		return 2
	}
	return 1
}
