package lsp

import (
	"regexp"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"strings"
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

// declRE matches the start of a theorem-like declaration at the start of a
// line, after optional modifiers and attributes.
var declRE = regexp.MustCompile(`^(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable)\s+)*(theorem|lemma|example)\b`)

// declCommandRE matches a line that starts a new Lean command.
var declCommandRE = regexp.MustCompile(`^(?:@\[|/-|--|#|theorem\b|lemma\b|example\b|def\b|abbrev\b|instance\b|structure\b|class\b|inductive\b|namespace\b|section\b|end\b|open\b|variable\b|import\b|set_option\b|attribute\b|noncomputable\b|private\b|protected\b|universe\b|notation\b|axiom\b|opaque\b|macro\b|syntax\b)`)

// findDecl returns the theorem or example declaration whose text contains
// line (the declaration runs from its keyword to the line before the next
// command or blank line).
func findDecl(d *Document, line int) (start, end int, ok bool) {
	first := -1
	for l := line; l >= 0 && l > line-200; l-- {
		text := d.LineText(l)
		if declRE.MatchString(text) {
			first = l
			break
		}
		if l != line && (strings.TrimSpace(text) == "" || (declCommandRE.MatchString(text) && !declRE.MatchString(text))) {
			return 0, 0, false
		}
	}
	if first < 0 {
		return 0, 0, false
	}
	last := first
	for l := first + 1; l < d.LineCount(); l++ {
		text := d.LineText(l)
		if strings.TrimSpace(text) == "" || declCommandRE.MatchString(text) {
			break
		}
		last = l
	}
	if line > last {
		return 0, 0, false
	}
	return d.LineStart(first), d.lineEnd(last), true
}

// placeholderRE matches a `theorem NAME … : sorry` placeholder that a user
// wrote under a comment for drift to fill.
var placeholderRE = regexp.MustCompile(`^(theorem|lemma)\s+(\S+)[^\n]*?:\s*sorry\s*(?::=\s*(?:by\s+)?sorry)?\s*$`)

// stubNameRE finds the name of the theorem in a stub.
var stubNameRE = regexp.MustCompile(`\b(theorem|lemma)\s+([^\s:({\[]+)`)

// stubName returns the theorem name in stub, or "".
func stubName(stub string) string {
	if m := stubNameRE.FindStringSubmatch(stub); m != nil {
		return m[2]
	}
	return ""
}
