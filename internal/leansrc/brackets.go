package leansrc

import "strings"

// closers maps each of Lean's opening brackets to its closer.
var closers = map[string]string{
	"(": ")", "[": "]", "{": "}", "⦃": "⦄", "⟨": "⟩", "⟦": "⟧", "⁅": "⁆", "{{": "}}", "@[": "]", "#[": "]",
}

// isCloser holds every closing bracket.
var isCloser = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range closers {
		m[c] = true
	}
	return m
}()

// Closer returns the bracket that closes open, or "" when open is no
// opening bracket.
func Closer(open string) string { return closers[open] }

// BracketDelta says how a symbol changes the bracket depth: 1 when it
// opens a bracket, -1 when it closes one, 0 otherwise.
func BracketDelta(symbol string) int {
	switch {
	case closers[symbol] != "":
		return 1
	case isCloser[symbol]:
		return -1
	}
	return 0
}

// TopLevel calls visit with the byte offset of each rune of text outside
// ( ) [ ] { } ⦃ ⦄ ⟨ ⟩ (brackets themselves excluded), until visit returns
// false. It reports whether the brackets balance (and visit never stopped
// it early).
func TopLevel(text string, visit func(i int, r rune) bool) bool {
	depth := 0
	for i, r := range text {
		switch r {
		case '(', '[', '{', '⦃', '⟨':
			depth++
		case ')', ']', '}', '⦄', '⟩':
			depth--
			if depth < 0 {
				return false
			}
		default:
			if depth == 0 && !visit(i, r) {
				return false
			}
		}
	}
	return depth == 0
}

// Unparen drops one pair of parentheses around the whole of s.
func Unparen(s string) string {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return s
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(s)-1 {
				return s // "(a) / (b)": the first ( closes early
			}
		}
	}
	return s[1 : len(s)-1]
}
