package leansrc

import (
	"sort"
	"unicode/utf8"
)

// Pos is a position in LSP coordinates: 0-based line, UTF-16 column. It is
// the one position type of the Lean syntax layer and of the language
// server.
type Pos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Before reports whether p comes strictly before q.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Character < q.Character)
}

// Range is a half-open span in LSP coordinates.
type Range struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// lineStarts returns the byte offset of the start of each line of src. A
// line ends at "\n", "\r\n" or a lone "\r", as the LSP specification says.
func lineStarts(src []byte) []int {
	ls := make([]int, 1, len(src)/30+1)
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			ls = append(ls, i+1)
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				ls = append(ls, i+1)
			}
		}
	}
	return ls
}

// utf16Col converts a byte column on a line into a UTF-16 column.
func utf16Col(src []byte, lineStart, off int) int {
	seg := src[lineStart:off]
	ascii := true
	for _, c := range seg {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return len(seg)
	}
	n := 0
	for len(seg) > 0 {
		r, sz := utf8.DecodeRune(seg)
		seg = seg[sz:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// LineIndex converts between byte offsets and LSP positions of one text.
type LineIndex struct {
	src    []byte
	starts []int
}

// NewLineIndex indexes the line starts of src (after Prepare).
func NewLineIndex(src []byte) *LineIndex { return &LineIndex{src: src, starts: lineStarts(src)} }

// LineCount returns the number of lines (an empty text has one).
func (x *LineIndex) LineCount() int { return len(x.starts) }

// LineStart returns the byte offset of the start of line l, clamped to
// the text.
func (x *LineIndex) LineStart(l int) int {
	if l < 0 {
		return 0
	}
	if l >= len(x.starts) {
		return len(x.src)
	}
	return x.starts[l]
}

// LineEnd returns the byte offset of the end of line l before its line
// terminator, clamped to the text.
func (x *LineIndex) LineEnd(l int) int {
	if l < 0 {
		l = 0
	}
	if l+1 >= len(x.starts) {
		return len(x.src)
	}
	end := x.starts[l+1]
	if end > 0 && x.src[end-1] == '\n' {
		end--
	}
	if end > x.starts[l] && x.src[end-1] == '\r' {
		end--
	}
	return end
}

// Pos returns the LSP position of byte offset off; offsets are clamped to
// the text, and an offset inside a line terminator to its line's end.
func (x *LineIndex) Pos(off int) Pos {
	off = min(max(off, 0), len(x.src))
	l := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	off = min(off, x.LineEnd(l))
	return Pos{Line: l, Character: utf16Col(x.src, x.starts[l], off)}
}

// Offset returns the byte offset of an LSP position. Positions past the end
// of a line clamp to the line's end, lines past the end of the text to the
// end of the text, and a position inside a surrogate pair to the start of
// its character.
func (x *LineIndex) Offset(p Pos) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(x.starts) {
		return len(x.src)
	}
	off, end := x.starts[p.Line], x.LineEnd(p.Line)
	for n := 0; off < end; {
		r, sz := utf8.DecodeRune(x.src[off:end])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > p.Character {
			break
		}
		off += sz
		n += w
	}
	return off
}

// Range returns the LSP range of the byte range [start, end).
func (x *LineIndex) Range(start, end int) Range {
	return Range{Start: x.Pos(start), End: x.Pos(end)}
}
