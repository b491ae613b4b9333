// Package docref finds the Lean names that comments and docstrings mention
// in backticks, resolves them the way Lean would at that point of the file
// (namespaces, `open`s in force, `_root_`, dot-suffixes, to_additive twins,
// aliases) and reports the ones that do not resolve or that name a
// deprecated alias, with "did you mean" suggestions from the name index.
// Comments are located with leansrc's scanner, the one Lean lexer.
package docref

import (
	"bytes"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Comment is one comment of a file: a docstring, a module docstring or an
// ordinary line or block comment.
type Comment struct {
	// Start and End are byte offsets of the whole comment, delimiters included.
	Start, End int
	Kind       leansrc.TokenKind // TokDoc, TokModDoc or TokComment
}

// Comments returns the comments of src (already passed through
// leansrc.Prepare) and its code tokens, in order.
func Comments(src []byte) (comments []Comment, code []leansrc.Token) {
	toks, _ := leansrc.ScanWithComments(src)
	for _, t := range toks {
		switch t.Kind {
		case leansrc.TokDoc, leansrc.TokModDoc, leansrc.TokComment:
			comments = append(comments, Comment{Start: int(t.Start), End: int(t.End), Kind: t.Kind})
		default:
			code = append(code, t)
		}
	}
	return comments, code
}

// commentBody returns the byte range of a comment's text without its
// delimiters.
func commentBody(src []byte, c Comment) (int, int) {
	from, to := c.Start, c.End
	switch {
	case c.Kind == leansrc.TokDoc || c.Kind == leansrc.TokModDoc:
		from += 3
	case bytes.HasPrefix(src[from:to], []byte("--")):
		return from + 2, to
	default:
		from += 2
	}
	if to-2 >= from && bytes.HasSuffix(src[from:to], []byte("-/")) {
		to -= 2
	}
	return from, to
}

// notCode are span prefixes of Lean commands, attributes and shell text:
// such spans declare or configure rather than refer.
var notCode = []string{"#", "@[", "set_option", "import ", "open ", "namespace ", "section", "end ", "theorem ",
	"lemma ", "def ", "example", "instance ", "variable", "attribute ", "macro", "syntax", "elab", "notation",
	"local ", "scoped ", "abbrev ", "structure ", "class ", "inductive ", "universe", "lake ", "git ", "$", "-"}

// refsIn tokenizes one span's content with the Lean scanner and returns the
// identifiers to resolve: the whole span when it is one identifier, else the
// identifiers of the expression. Spans that are not Lean (LaTeX, paths,
// URLs, commands, attributes) yield nothing.
func refsIn(src []byte, s leansrc.ByteSpan) (ids []leansrc.Token, whole bool) {
	text := src[s.Start:s.End]
	trimmed := strings.TrimSpace(string(text))
	if trimmed == "" || strings.ContainsAny(trimmed, "\\$\"") || strings.Contains(trimmed, "://") {
		return nil, false
	}
	for _, p := range notCode {
		if strings.HasPrefix(trimmed, p) {
			return nil, false
		}
	}
	if strings.Contains(trimmed, "/") && (!strings.Contains(trimmed, " ") || strings.HasSuffix(trimmed, ".lean")) {
		return nil, false // a path (an expression writes `a / b`)
	}
	toks, errs := leansrc.Scan(text)
	if len(errs) > 0 || len(toks) == 0 {
		return nil, false
	}
	for i := 1; i < len(toks); i++ {
		if toks[i].Kind == leansrc.TokSymbol && text[toks[i].Start] == '*' && toks[i].Start == toks[i-1].End && toks[i-1].Kind == leansrc.TokIdent {
			return nil, false // a wildcard: `Set.Ic*.orderBot`
		}
	}
	for i := range toks {
		toks[i].Start += int32(s.Start)
		toks[i].End += int32(s.Start)
	}
	if len(toks) == 1 && toks[0].Kind == leansrc.TokIdent {
		return toks, true
	}
	if len(toks) == 2 && toks[0].Kind == leansrc.TokSymbol && src[toks[0].Start] == '@' && toks[1].Kind == leansrc.TokIdent {
		return toks[1:], true
	}
	for i, t := range toks {
		if t.Kind != leansrc.TokIdent {
			continue
		}
		if i > 0 && toks[i-1].End == t.Start && src[t.Start-1] == '.' {
			continue // `.foo`: a field or anonymous constructor, not a name
		}
		ids = append(ids, t)
	}
	return ids, false
}
