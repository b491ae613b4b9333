package lsp

import (
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// CommentKind says what sort of comment a Target is.
type CommentKind string

// The kinds of text a code action can start from.
const (
	KindDocComment   CommentKind = "docstring" // /-- … -/
	KindBlockComment CommentKind = "block"     // /- … -/ (also /-! … -/)
	KindLineComments CommentKind = "lines"     // a run of -- lines
	KindSelection    CommentKind = "selection" // an explicit selection
)

// comment is one comment of a Lean source text, as byte offsets.
type comment struct {
	kind       CommentKind
	start, end int
	// ownLine is true for a -- comment with only white space before it on
	// its line; only such comments join into runs.
	ownLine bool
}

// scanComments finds every comment of a Lean text with the one Lean
// lexer (internal/leansrc): nested block comments, docstrings and --
// comments, string and character literals skipped.
func scanComments(text string) []comment {
	toks, _ := leansrc.ScanWithComments([]byte(text))
	var out []comment
	for _, t := range toks {
		c := comment{start: int(t.Start), end: int(t.End)}
		switch {
		case t.Kind != leansrc.TokComment && t.Kind != leansrc.TokDoc && t.Kind != leansrc.TokModDoc:
			continue
		case t.Kind == leansrc.TokDoc:
			c.kind = KindDocComment
		case strings.HasPrefix(text[c.start:], "--"):
			c.kind, c.ownLine = KindLineComments, t.BOL
		default:
			c.kind = KindBlockComment
		}
		out = append(out, c)
	}
	return out
}

// Target is the text a code action works on: a comment or a selection.
type Target struct {
	Kind CommentKind
	// Start and End delimit the whole comment (markers included) or the
	// selection, as byte offsets into the document text.
	Start, End int
	// Raw is Text[Start:End], kept to re-anchor the target after edits.
	Raw string
	// Statement is the informal text without comment markers.
	Statement string
}

// findTarget returns the comment under the cursor or the selection of r; ok
// is false when there is neither.
func findTarget(d *Document, r Span) (Target, bool) {
	start, end := d.Offset(r.Start), d.Offset(r.End)
	if end < start {
		start, end = end, start
	}
	comments := d.Comments()
	// A cursor or selection inside one comment means that comment.
	for i, c := range comments {
		inside := start >= c.start && start <= c.end && end <= c.end
		if c.kind == KindLineComments && c.ownLine {
			// The cursor may also sit anywhere on a line of the run.
			ls := d.LineStart(d.Position(c.start).Line)
			inside = start >= ls && start <= c.end && end <= c.end
		}
		if !inside {
			continue
		}
		if c.kind == KindLineComments && c.ownLine {
			first, last := i, i
			for first > 0 && joins(d, comments[first-1], comments[first]) {
				first--
			}
			for last+1 < len(comments) && joins(d, comments[last], comments[last+1]) {
				last++
			}
			c = comment{kind: KindLineComments, start: comments[first].start, end: comments[last].end}
		}
		raw := d.Text[c.start:c.end]
		stmt := commentBody(c.kind, raw)
		if strings.TrimSpace(stmt) == "" {
			return Target{}, false
		}
		return Target{Kind: c.kind, Start: c.start, End: c.end, Raw: raw, Statement: stmt}, true
	}
	if end > start {
		raw := d.Text[start:end]
		if strings.TrimSpace(raw) == "" {
			return Target{}, false
		}
		return Target{Kind: KindSelection, Start: start, End: end, Raw: raw, Statement: strings.TrimSpace(raw)}, true
	}
	return Target{}, false
}

// joins reports whether two -- comments are on consecutive lines, each alone
// on its line.
func joins(d *Document, a, b comment) bool {
	if a.kind != KindLineComments || b.kind != KindLineComments || !a.ownLine || !b.ownLine {
		return false
	}
	return d.Position(b.start).Line == d.Position(a.start).Line+1
}

// commentBody strips the comment markers of raw and normalises its white
// space line by line.
func commentBody(kind CommentKind, raw string) string {
	switch kind {
	case KindDocComment:
		raw = strings.TrimPrefix(raw, "/--")
		raw = strings.TrimSuffix(raw, "-/")
	case KindBlockComment:
		raw = strings.TrimPrefix(raw, "/-")
		raw = strings.TrimPrefix(raw, "!")
		raw = strings.TrimSuffix(raw, "-/")
	case KindLineComments:
		lines := strings.Split(raw, "\n")
		for i, l := range lines {
			l = strings.TrimSpace(l)
			l = strings.TrimLeft(l, "-")
			lines[i] = l
		}
		raw = strings.Join(lines, "\n")
	}
	lines := strings.Split(raw, "\n")
	var keep []string
	for _, l := range lines {
		l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		keep = append(keep, l)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// findDecl returns the theorem, lemma or example declaration (leansrc's
// commands) whose text holds line.
func findDecl(d *Document, line int) (start, end int, ok bool) {
	if line < 0 || line >= d.LineCount() {
		return 0, 0, false
	}
	c, ok := leansrc.TheoremAt(d.Commands(), d.LineStart(line), d.lineEnd(line))
	return c.Start, c.End, ok
}

// stubName returns the name of the first theorem or lemma in stub, or "".
func stubName(stub string) string {
	for _, c := range leansrc.Commands([]byte(stub)) {
		if c.Keyword == "theorem" || c.Keyword == "lemma" {
			return c.Name
		}
	}
	return ""
}
