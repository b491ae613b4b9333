// Package textcut cuts text for display: a signature in a hover, a premise
// in the comment inserted into the user's file, a server's error message in
// a log line. A cut never splits a character: it falls between grapheme
// clusters (what a reader sees as one character: ℕ, é written as e and a
// combining accent, a flag, an emoji with its modifiers), so no broken byte
// sequence or stray accent reaches the user, and it is marked with "…".
//
// Grapheme clusters are segmented by github.com/rivo/uniseg (Unicode's
// UAX #29 rules, no dependencies of its own); the standard library and
// golang.org/x/text split runes but not grapheme clusters.
//
// It is a leaf: it imports nothing of drift-lsp, so every layer may use it.
package textcut

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Ellipsis marks a cut.
const Ellipsis = "…"

// Cut returns s when it has at most n characters (grapheme clusters), else
// its first characters and Ellipsis, n characters in all. n < 1 gives "".
func Cut(s string, n int) string {
	if len(s) <= n { // a character is at least a byte
		return s
	}
	if n < 1 {
		return ""
	}
	rest, state, keep := s, -1, 0
	for i := 0; i < n; i++ {
		if rest == "" {
			return s
		}
		if i == n-1 {
			keep = len(s) - len(rest)
		}
		_, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
	}
	if rest == "" {
		return s
	}
	return s[:keep] + Ellipsis
}

// CutBytes returns s when it has at most n bytes, else its first characters
// (grapheme clusters) and Ellipsis, at most n bytes in all: for text whose
// size is bounded (a response, a log line) rather than its length on screen.
// n < len(Ellipsis) gives "" for a longer s.
func CutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	budget := n - len(Ellipsis)
	if budget < 0 {
		return ""
	}
	rest, state, keep := s, -1, 0
	for rest != "" {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if keep+len(c) > budget {
			break
		}
		keep += len(c)
	}
	return s[:keep] + Ellipsis
}

// Line folds every run of white space (new lines included) into one space,
// trims both ends and cuts the result to n characters, as Cut does.
func Line(s string, n int) string {
	return Cut(strings.Join(strings.Fields(s), " "), n)
}

// Len is the number of characters (grapheme clusters) in s.
func Len(s string) int { return uniseg.GraphemeClusterCount(s) }
