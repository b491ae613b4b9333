package leansrc

import "strings"

// Header returns the `prelude`, import and open lines of a Lean file (a
// file that starts with `prelude` does not import Init): the context a
// stub taken from the file is checked in. An `open … in` line opens for
// one command only and is left out.
func Header(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "prelude" || strings.HasPrefix(t, "import ") || (strings.HasPrefix(t, "open ") && !strings.Contains(t, " in ")) {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// Command is one top-level command of a Lean text, as the parser splits
// the text: byte offsets from its first attribute or modifier (its
// docstring left out) to the end of its last token (comments after it left
// out).
type Command struct {
	Start, End int
	// Keyword is the command's keyword after its attributes and modifiers
	// ("theorem", "example", "def", "namespace", …), "" when it starts with
	// no identifier.
	Keyword string
	// Name is the identifier after the keyword, as written ("" for none).
	Name string
	// Placeholder is set for a theorem or lemma whose statement is `sorry`
	// (`theorem NAME … : sorry`, optionally `:= sorry` or `:= by sorry`):
	// a place the user left for a statement to be filled in.
	Placeholder bool
}

// Theorem reports whether c is a theorem, lemma or example: a command the
// checker takes.
func (c Command) Theorem() bool {
	return c.Keyword == "theorem" || c.Keyword == "lemma" || c.Keyword == "example"
}

// modifierWords are the words that may precede a command's keyword.
var modifierWords = map[string]bool{"private": true, "protected": true, "noncomputable": true, "unsafe": true,
	"partial": true, "nonrec": true, "local": true, "scoped": true}

// Commands returns the commands of src in order, as the parser bounds them
// (a command runs to the next token that starts one, isStarter) without
// parsing their insides: one scan of the text. src is the text as it is
// (not passed through Prepare), so that offsets are the caller's.
func Commands(src []byte) []Command {
	toks, _ := Scan(src)
	p := &parser{src: src, toks: toks}
	var out []Command
	for i := 0; i < len(toks); {
		start, col := i, toks[i].Col
		if toks[i].Kind == TokModDoc {
			i++
			continue
		}
		i = p.modifiers(i, col)
		for i++; i < len(toks) && !p.isStarter(i, col); i++ {
		}
		if c, ok := p.commandOf(start, min(i, len(toks)), col); ok {
			out = append(out, c)
		}
	}
	return out
}

// modifiers returns the index of the keyword of the command whose first
// token is i, at column col: after its docstring, attributes and modifier
// words (an attribute list left open ends at the next command, as the
// parser has it).
func (p *parser) modifiers(i int, col int32) int {
	for i < len(p.toks) {
		switch {
		case p.kind(i) == TokDoc:
			i++
		case p.is(i, "@["):
			for depth, first := 0, i; i < len(p.toks); i++ {
				if i > first && p.isStarter(i, col) && !p.is(i, "instance") && !p.is(i, "class") {
					return i
				}
				if p.is(i, "@[") || p.is(i, "[") {
					depth++
				} else if p.is(i, "]") {
					if depth--; depth == 0 {
						break
					}
				}
			}
			i++
		case p.kind(i) == TokIdent && modifierWords[p.text(i)]:
			i++
		default:
			return i
		}
	}
	return i
}

// commandOf describes the command of tokens [from, to), at column col.
func (p *parser) commandOf(from, to int, col int32) (Command, bool) {
	for from < to && (p.toks[from].Kind == TokDoc || p.toks[from].Kind == TokModDoc) {
		from++
	}
	if from >= to {
		return Command{}, false
	}
	c := Command{Start: int(p.toks[from].Start), End: int(p.toks[to-1].End)}
	i := p.modifiers(from, col)
	if i >= to || p.kind(i) != TokIdent {
		return c, true
	}
	c.Keyword = p.text(i)
	if i+1 < to && p.kind(i+1) == TokIdent {
		c.Name = p.text(i + 1)
	}
	c.Placeholder = (c.Keyword == "theorem" || c.Keyword == "lemma") && c.Name != "" && p.sorryStatement(i+2, to)
	return c, true
}

// sorryStatement reports whether tokens [from, to) end with `: sorry`,
// optionally followed by `:= sorry` or `:= by sorry`.
func (p *parser) sorryStatement(from, to int) bool {
	ends := func(words ...string) bool {
		if to-len(words) < from {
			return false
		}
		for k, w := range words {
			if !p.is(to-len(words)+k, w) {
				return false
			}
		}
		return true
	}
	switch {
	case ends(":=", "by", "sorry"):
		to -= 3
	case ends(":=", "sorry"):
		to -= 2
	}
	return ends(":", "sorry")
}

// TheoremAt returns the theorem, lemma or example among cmds whose text
// overlaps the byte range [from, to] (a line of the text, say).
func TheoremAt(cmds []Command, from, to int) (Command, bool) {
	for _, c := range cmds {
		if c.Theorem() && c.Start <= to && c.End >= from {
			return c, true
		}
	}
	return Command{}, false
}
