package leansrc

import (
	"strings"
	"unicode/utf8"
)

// MainEntry is one bullet of a module docstring's "Main definitions",
// "Main results", "Main statements", "Main theorems" or "Main declarations"
// section: `* \`name\`: description`.
type MainEntry struct {
	// Section is the lower-case section title ("main definitions", …).
	Section string
	// Names are the identifiers written in backquotes before the bullet's
	// colon (all backquoted identifiers when it has none).
	Names []string
	// Text is the description after the colon, on one line ("" when none).
	Text string
}

// isMainSection reports whether a Markdown heading introduces the main
// declarations of a file.
func isMainSection(title string) bool {
	t := strings.ToLower(strings.TrimSpace(strings.TrimLeft(title, "#")))
	if !strings.HasPrefix(t, "main ") {
		return false
	}
	for _, w := range []string{"definition", "result", "statement", "theorem", "declaration", "construction"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// MainEntries returns the bullets of the main-declaration sections of a
// file's module docstrings, in order. A bullet runs until the next bullet,
// heading or blank line; indented continuation lines are joined to it.
func MainEntries(moduleDocs []string) []MainEntry {
	var out []MainEntry
	for _, doc := range moduleDocs {
		section := ""
		var cur *MainEntry
		var text strings.Builder
		flush := func() {
			if cur != nil {
				head, desc := splitBullet(text.String())
				cur.Names = backquotedIdents(head)
				if desc == "" && len(cur.Names) == 0 {
					cur.Names = backquotedIdents(text.String())
				}
				cur.Text = desc
				if len(cur.Names) > 0 {
					out = append(out, *cur)
				}
			}
			cur = nil
			text.Reset()
		}
		for _, line := range strings.Split(doc, "\n") {
			t := strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(t, "#"):
				flush()
				section = ""
				if isMainSection(t) {
					section = strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "#")))
				}
			case section == "":
			case t == "":
				flush()
			case strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "+ "):
				flush()
				cur = &MainEntry{Section: section}
				text.WriteString(t[2:])
			case cur != nil:
				text.WriteString(" ")
				text.WriteString(t)
			}
		}
		flush()
	}
	return out
}

// splitBullet splits a bullet at its first colon outside backquotes into the
// head (where the names are) and the description.
func splitBullet(s string) (head, desc string) {
	in := false
	for i, r := range s {
		switch {
		case r == '`':
			in = !in
		case !in && (r == ':' || r == '—' || r == '–'):
			return s[:i], strings.Join(strings.Fields(s[i+utf8.RuneLen(r):]), " ")
		case !in && r == '-' && i > 0 && i+1 < len(s) && s[i-1] == ' ' && s[i+1] == ' ':
			return s[:i], strings.Join(strings.Fields(s[i+1:]), " ")
		}
	}
	return s, ""
}

// backquotedIdents returns the backquoted spans of s (CodeSpans) that are
// single Lean identifiers (`Nat.gcd`, `inner_mul_le_norm_mul_norm`), not
// expressions.
func backquotedIdents(s string) []string {
	var out []string
	for _, sp := range CodeSpans([]byte(s), 0, len(s)) {
		if id := s[sp.Start:sp.End]; IsIdentifier(id) {
			out = append(out, id)
		}
	}
	return out
}

// BoldTerms returns the `**…**` spans of a docstring (trimmed, one line
// each): Mathlib's way of naming what a declaration is.
func BoldTerms(doc string) []string {
	var out []string
	for {
		i := strings.Index(doc, "**")
		if i < 0 {
			return out
		}
		j := strings.Index(doc[i+2:], "**")
		if j < 0 {
			return out
		}
		if t := strings.Join(strings.Fields(doc[i+2:i+2+j]), " "); t != "" && len(t) <= 120 && !strings.Contains(t, "`") {
			out = append(out, t)
		}
		doc = doc[i+j+4:]
	}
}

// FirstSentence returns a docstring's first sentence (up to the first period
// followed by a space or line end outside backquotes and math, or the first
// blank line), on one line.
func FirstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	if k := strings.Index(doc, "\n\n"); k >= 0 {
		doc = doc[:k]
	}
	code, math := false, false
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '`':
			code = !code
		case c == '$' && !code:
			math = !math
		case c == '.' && !code && !math && (i+1 == len(doc) || doc[i+1] == ' ' || doc[i+1] == '\n'):
			if !abbreviationBefore(doc[:i]) {
				return strings.Join(strings.Fields(doc[:i+1]), " ")
			}
		}
	}
	return strings.Join(strings.Fields(doc), " ")
}

// abbreviationBefore reports whether the text before a period ends in an
// abbreviation that does not end a sentence ("e.g", "i.e", "resp", "cf").
func abbreviationBefore(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	w := strings.ToLower(strings.TrimLeft(f[len(f)-1], "(["))
	switch w {
	case "e.g", "i.e", "resp", "cf", "etc", "vs", "viz", "wrt", "w.r.t", "approx", "def", "thm", "prop":
		return true
	}
	return false
}

// AlsoKnownAs returns the names a docstring gives as alternatives: the
// phrase after "also known as", "also called", "a.k.a." or "aka", up to the
// next punctuation (bold markers and a leading article dropped).
func AlsoKnownAs(doc string) []string {
	var out []string
	low := strings.ToLower(doc)
	for _, cue := range []string{"also known as ", "also called ", "a.k.a. ", "aka ", "sometimes called ", "otherwise known as "} {
		for off := 0; ; {
			i := strings.Index(low[off:], cue)
			if i < 0 {
				break
			}
			start := off + i + len(cue)
			off = start
			if i > 0 && cue == "aka " && isLetterByte(low[off-len(cue)-1]) {
				continue
			}
			end := start
			for end < len(doc) && !strings.ContainsRune(".,;:()\n", rune(doc[end])) {
				end++
			}
			p := strings.ReplaceAll(doc[start:end], "*", "")
			p = strings.TrimSpace(p)
			for _, art := range []string{"the ", "a ", "an "} {
				p = strings.TrimPrefix(p, art)
			}
			if n := len(strings.Fields(p)); n >= 1 && n <= 6 {
				out = append(out, p)
			}
		}
	}
	return out
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
