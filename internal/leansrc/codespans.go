package leansrc

import "bytes"

// The Markdown code spans of comment text: the one scan of backticks that
// the comment checker (cmd/internal/docref) and the module docstrings'
// main-declaration bullets (MainEntries) share.

// ByteSpan is a half-open byte range [Start, End) of a text.
type ByteSpan struct {
	Start, End int
}

// CodeSpans returns the Markdown code spans of the comment text
// src[from:to]: a run of N backticks opens a span that the next run of
// exactly N backticks closes. Fenced code blocks (lines starting with ```)
// are skipped whole: they hold code, not references.
func CodeSpans(src []byte, from, to int) []ByteSpan {
	var out []ByteSpan
	i := from
	fenced := false
	for i < to {
		if atLineStart(src, from, i) {
			j := i
			for j < to && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if bytes.HasPrefix(src[j:to], []byte("```")) || bytes.HasPrefix(src[j:to], []byte("~~~")) {
				fenced = !fenced
				i = spanLineEnd(src, j, to)
				continue
			}
		}
		if fenced {
			i = spanLineEnd(src, i, to)
			continue
		}
		if src[i] != '`' {
			i++
			continue
		}
		n := backtickRun(src, i, to)
		closeAt := -1
		for j := i + n; j < to; {
			if src[j] != '`' {
				if fenceLine(src, from, j, to) {
					break // a span never runs into a fence
				}
				j++
				continue
			}
			m := backtickRun(src, j, to)
			if m == n {
				closeAt = j
				break
			}
			j += m
		}
		if closeAt < 0 {
			i += n
			continue
		}
		out = append(out, ByteSpan{i + n, closeAt})
		i = closeAt + n
	}
	return out
}

func backtickRun(src []byte, i, to int) int {
	n := 0
	for i+n < to && src[i+n] == '`' {
		n++
	}
	return n
}

func atLineStart(src []byte, from, i int) bool {
	return i == from || src[i-1] == '\n'
}

func spanLineEnd(src []byte, i, to int) int {
	for i < to && src[i] != '\n' {
		i++
	}
	if i < to {
		i++
	}
	return i
}

// FencedBlocks returns the contents of the fenced (``` or ~~~) code blocks
// of the comment body src[from:to], the parts CodeSpans skips.
func FencedBlocks(src []byte, from, to int) []ByteSpan {
	var out []ByteSpan
	start := -1
	for i := from; i < to; {
		j := i
		for j < to && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		next := spanLineEnd(src, i, to)
		if bytes.HasPrefix(src[j:to], []byte("```")) || bytes.HasPrefix(src[j:to], []byte("~~~")) {
			if start < 0 {
				start = next
			} else {
				out = append(out, ByteSpan{Start: start, End: i})
				start = -1
			}
		}
		i = next
	}
	return out
}

// fenceLine reports whether offset j starts a line that opens a fence.
func fenceLine(src []byte, from, j, to int) bool {
	if !atLineStart(src, from, j) {
		return false
	}
	for j < to && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return bytes.HasPrefix(src[j:to], []byte("```"))
}
