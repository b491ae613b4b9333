package coverage

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// word is one token of a statement or a stub: its text (LaTeX already
// read: `\geq` is "≥"), its kind and its byte range in the statement or
// the stub.
type word struct {
	kind       leansrc.TokenKind
	text       string
	start, end int
	math       bool // the word is inside math
	seg        int  // the math span the word is in (1, 2, …), 0 for prose
	stub       bool // the word is Lean of a stub
	index      bool // a numeral subscript (x_1): an argument, no quantity
}

// reader turns a statement into Lean-scannable text: math (`$…$`, `$$…$$`,
// `\(…\)`, `\[…\]`) has its LaTeX commands replaced by the symbols they
// stand for, its numeral subscripts made arguments (x_{1} → x(1)) and its
// other subscripts dropped; \text{…} and prose are copied with the few
// characters that would open a Lean comment or string blanked. off and end
// map every output byte to the statement bytes it came from.
type reader struct {
	src   string
	out   []byte
	off   []int // statement offset where the construct that wrote the byte starts
	end   []int // and where it ends
	seg   []int // math span number of the byte, 0 for prose
	cur   int   // the current math span, 0 in prose
	segs  int   // math spans so far
	index []int // output offsets of numeral subscripts
	// blackboard is the output length after the last blackboard letter,
	// blackboardAt the statement offset of its command
	blackboard, blackboardAt int
	// pending is 1 + the offset of a command that writes nothing (\frac,
	// \mathbf) whose brace is still to come, or 0
	pending int
}

// opener returns the statement offset a brace at i starts from in phrases:
// the command before it that writes nothing itself (\frac, \mathbf), if any.
func (r *reader) opener(i int) int {
	if r.pending > 0 {
		at := r.pending - 1
		r.pending = 0
		return at
	}
	return i
}

// signedSets are the marks after a number set that restrict its sign:
// \mathbb{Z}^{+} is the positive integers.
var signedSets = []struct{ mark, word string }{
	{"^{+}", "positive"}, {"^+", "positive"}, {"_{+}", "positive"}, {"_+", "positive"}, {"_{>0}", "positive"},
	{"^{\\geq 0}", "nonnegative"}, {"_{\\geq 0}", "nonnegative"}, {"_{\\ge 0}", "nonnegative"}, {"_{\\geq0}", "nonnegative"},
}

// signed reads a sign mark at s[i] after the number set whose command
// starts at at, and writes its word as prose, so that it is read as
// "positive" is; it returns the bytes read.
func (r *reader) signed(at, i int) int {
	for _, m := range signedSets {
		if strings.HasPrefix(r.src[i:], m.mark) {
			cur := r.cur
			r.cur = 0
			r.emit(" "+m.word+" ", at, i+len(m.mark))
			r.cur = cur
			return len(m.mark)
		}
	}
	return 0
}

// emit writes s for the statement's bytes [at, end).
func (r *reader) emit(s string, at, end int) {
	for i := 0; i < len(s); i++ {
		r.out = append(r.out, s[i])
		r.off = append(r.off, at)
		r.end = append(r.end, end)
		r.seg = append(r.seg, r.cur)
	}
}

// latexSymbols maps LaTeX commands to the Lean symbol they write; commands
// listed with "" are layout, and a command not listed is kept as a word
// (\sin → sin, \alpha → alpha).
var latexSymbols = map[string]string{
	"geq": "≥", "ge": "≥", "geqslant": "≥", "leq": "≤", "le": "≤", "leqslant": "≤", "neq": "≠", "ne": "≠",
	"lt": "<", "gt": ">", "mid": "∣", "nmid": "∤", "equiv": "≡", "in": "∈", "notin": "∉", "cdot": "*",
	"times": "*", "div": "/", "sqrt": "√", "forall": "∀", "exists": "∃", "neg": "¬", "lnot": "¬",
	"land": "∧", "wedge": "∧", "lor": "∨", "vee": "∨", "to": "→", "rightarrow": "→", "Rightarrow": "→",
	"implies": "→", "iff": "↔", "Leftrightarrow": "↔", "infty": "∞", "pm": "±", "circ": "∘",
	"left": "", "right": "", "big": "", "Big": "", "bigg": "", "Bigg": "", "bigl": "", "bigr": "",
	"Bigl": "", "Bigr": "", "frac": "", "dfrac": "", "tfrac": "", "cfrac": "", "mathbb": "", "mathbf": "",
	"mathrm": "", "mathcal": "", "mathfrak": "", "mathscr": "", "mathsf": "", "mathit": "", "text": "",
	"textbf": "", "textit": "", "textrm": "", "emph": "", "operatorname": "", "displaystyle": "",
	"textstyle": "", "limits": "", "quad": "", "qquad": "", "ldots": "…", "cdots": "…", "dots": "…",
	"vdots": "…", "ddots": "…", "begin": "", "end": "", "label": "", "tag": "", "mbox": "", "hbox": "",
	"boxed": "", "overline": "", "underline": "", "bar": "", "hat": "", "tilde": "", "widehat": "",
	"widetilde": "", "vec": "", "dot": "", "ddot": "", "prime": "'", "lvert": "|", "rvert": "|",
	"vert": "|", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "langle": "⟨", "rangle": "⟩",
	"lbrace": "", "rbrace": "", "{": "", "}": "", "%": "%", "$": "", ",": "", ";": "", ":": "", "!": "",
	" ": "", "\\": "", "&": "", "_": "", "#": "",
}

// mathOpeners are the math delimiters and the closer of each.
var mathOpeners = []struct{ open, close string }{
	{"$$", "$$"}, {"$", "$"}, {`\(`, `\)`}, {`\[`, `\]`},
}

// read scans the statement s (valid UTF-8) and returns its words.
func read(s string) []word {
	s = blankChoices(s)
	n := len(s) + 16
	r := &reader{src: s, out: make([]byte, 0, n), off: make([]int, 0, n), end: make([]int, 0, n), seg: make([]int, 0, n)}
	i := 0
	for i < len(s) {
		opened := false
		for _, m := range mathOpeners {
			if strings.HasPrefix(s[i:], m.open) {
				j := strings.Index(s[i+len(m.open):], m.close)
				end := len(s)
				if j >= 0 {
					end = i + len(m.open) + j
				}
				r.emit(" ", i, i)
				r.segs++
				r.cur = r.segs
				r.latex(i+len(m.open), end)
				r.cur = 0
				r.emit(" ", end, end)
				i = min(len(s), end+len(m.close))
				opened = true
				break
			}
		}
		if opened {
			continue
		}
		i = r.prose(i)
	}
	toks, _ := leansrc.Scan(r.out)
	out := make([]word, 0, len(toks))
	for _, t := range toks {
		if t.Kind == leansrc.TokDoc || t.Kind == leansrc.TokModDoc {
			continue
		}
		out = append(out, word{kind: t.Kind, text: string(r.out[t.Start:t.End]), start: r.off[t.Start], end: r.end[t.End-1],
			math: r.seg[t.Start] > 0, seg: r.seg[t.Start], index: slices.Contains(r.index, int(t.Start))})
	}
	return joinRelations(out)
}

// prose copies one character of prose (a LaTeX command in prose is read
// as in math: "$n$ \geq 2" happens) and returns the next offset.
func (r *reader) prose(i int) int {
	s := r.src
	r.pending = 0
	switch {
	case s[i] == '\\':
		return r.command(i)
	case s[i] == '"' || s[i] == '`' || s[i] == '\'' && (i == 0 || !isLetter(s[i-1])):
		r.emit(" ", i, i+1)
		return i + 1
	case strings.HasPrefix(s[i:], "--") || strings.HasPrefix(s[i:], "/-"):
		r.emit(s[i:i+1]+" ", i, i+1)
		return i + 1
	case separator(s, i, len(s)) > 0:
		return i + separator(s, i, len(s)) // 39,500 is one number
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	r.emit(s[i:i+n], i, i+n)
	return i + n
}

// latex reads the math between from and to.
func (r *reader) latex(from, to int) {
	s := r.src
	i := from
	for i < to {
		c := s[i]
		if c != ' ' && c != '{' {
			r.pending = 0
		}
		switch {
		case separator(s, i, to) > 0:
			i += separator(s, i, to) // 200{,}000 is one number
			continue
		case c == '\\' && textCommand(s[i:to]) > 0:
			n := textCommand(s[i:to])
			end := closingBrace(s, i+n, to)
			cur := r.cur
			r.cur = 0
			for k := i + n; k < end; {
				k = r.prose(k)
			}
			r.cur = cur
			i = min(end+1, to)
			continue
		case c == '\\':
			i = r.command(i)
			continue
		case c == '}' && i+1 < to && s[i+1] == '{':
			r.emit(")/(", i, i+2) // \frac{a}{b}
			i += 2
			continue
		case c == '_':
			j := skipScript(s, i+1, to)
			if d := strings.Trim(s[i+1:j], "{} "); d != "" && strings.Trim(d, "0123456789") == "" {
				// x_{1} is the value x(1); its index is no quantity, but
				// the 7 of \mathbb{F}_7 is one
				at := i
				if r.blackboard == len(r.out) {
					at = r.blackboardAt // the phrase is \mathbb{F}_7
				} else {
					r.index = append(r.index, len(r.out)+1)
				}
				r.emit("("+d+")", at, j)
			} else {
				r.emit(" ", i, j)
			}
			i = j
			continue
		case c == '{':
			r.emit("(", r.opener(i), i+1)
		case c == '}':
			r.emit(")", i, i+1)
		case strings.HasPrefix(s[i:], "..."):
			r.emit("…", i, i+3)
			i += 3
			continue
		case c == '&' || c == '~' || c == '"' || c == '`' || c == '\'':
			r.emit(" ", i, i+1)
		case strings.HasPrefix(s[i:], "--") || strings.HasPrefix(s[i:], "/-"):
			r.emit(s[i:i+1]+" ", i, i+1)
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			r.emit(s[i:i+n], i, i+n)
			i += n
			continue
		}
		i++
	}
}

// command reads the LaTeX command at s[i] ('\\') and returns the offset
// after it.
func (r *reader) command(i int) int {
	s := r.src
	j := i + 1
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	if j == i+1 && j < len(s) {
		j++ // \{ \, \\ …
	}
	name := s[i+1 : j]
	if name == "frac" || name == "dfrac" || name == "tfrac" {
		k := j
		for k < len(s) && s[k] == ' ' {
			k++
		}
		if k+1 < len(s) && isDigit(s[k]) && isDigit(s[k+1]) {
			r.emit(" ("+s[k:k+1]+")/("+s[k+1:k+2]+") ", i, k+2) // \frac19
			return k + 2
		}
		r.pending = i + 1 // its first brace starts at the command in phrases
		r.emit(" ", i, j)
		return j
	}
	if name == "mathbb" || name == "Bbb" {
		if w, n := blackboard(s[j:]); n > 0 {
			r.emit(" "+w+" ", i, j+n)
			r.blackboard, r.blackboardAt = len(r.out), i
			return j + n + r.signed(i, j+n)
		}
	}
	if sym, ok := latexSymbols[name]; ok {
		r.emit(" "+sym+" ", i, j)
		if sym == "" {
			r.pending = i + 1
		}
	} else {
		r.emit(" "+name+" ", i, j)
	}
	return j
}

// textCommands are the LaTeX commands whose argument is prose.
var textCommands = []string{`\text`, `\textbf`, `\textit`, `\textrm`, `\mbox`, `\hbox`, `\emph`}

// textCommand returns the length of a text command and its opening brace
// at the start of s, or 0.
func textCommand(s string) int {
	for _, c := range textCommands {
		if strings.HasPrefix(s, c) {
			k := len(c)
			for k < len(s) && s[k] == ' ' {
				k++
			}
			if k < len(s) && s[k] == '{' {
				return k + 1
			}
		}
	}
	return 0
}

// closingBrace returns the offset of the brace that closes the group
// whose content starts at from, or to.
func closingBrace(s string, from, to int) int {
	depth := 1
	for k := from; k < to; k++ {
		switch s[k] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return to
}

// blackboard reads the argument of \mathbb: {R} or R.
func blackboard(s string) (string, int) {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	arg := ""
	switch {
	case n+2 < len(s) && s[n] == '{' && s[n+2] == '}':
		arg, n = s[n+1:n+2], n+3
	case n < len(s) && isLetter(s[n]):
		arg, n = s[n:n+1], n+1
	default:
		return "", 0
	}
	if w, ok := map[string]string{"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ"}[arg]; ok {
		return w, n
	}
	return arg, n
}

// skipScript returns the offset after the subscript starting at s[i]: a
// braced group, a command or one character.
func skipScript(s string, i, to int) int {
	for i < to && s[i] == ' ' {
		i++
	}
	switch {
	case i >= to:
		return to
	case s[i] == '{':
		depth := 0
		for j := i; j < to; j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return to
	case s[i] == '\\':
		j := i + 1
		for j < to && isLetter(s[j]) {
			j++
		}
		return max(j, i+2)
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return i + n
}

// separator returns the length of the thousands separator at s[i] (",",
// "{,}" or ",\!" between a digit and three digits), or 0.
func separator(s string, i, to int) int {
	if i == 0 || !isDigit(s[i-1]) {
		return 0
	}
	for _, sep := range []string{",", "{,}", ",\\!"} {
		if strings.HasPrefix(s[i:to], sep) && thousands(s[i+len(sep):to]) {
			return len(sep)
		}
	}
	return 0
}

func thousands(s string) bool {
	return len(s) >= 3 && isDigit(s[0]) && isDigit(s[1]) && isDigit(s[2]) && (len(s) == 3 || !isDigit(s[3]))
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// choiceMarker matches one answer-choice label of a multiple-choice
// problem: (A), \textbf{(B)}, \text{(C) }, (\mathrm{D}).
var choiceMarker = regexp.MustCompile(`(?:\\(?:textbf|text|mathrm|mathbf|rm|bf)\s*)?\{?\s*\(\s*(?:\\(?:textbf|text|mathrm|mathbf)\s*)?\{?\s*([A-E])\s*\}?\s*\)\s*\}?`)

// blankChoices blanks the answer choices of a multiple-choice statement,
// from the (A) label to the sentence that gives the answer ("Show that it
// is …") or the end: the numerals of the wrong choices are no condition.
func blankChoices(s string) string {
	if !strings.Contains(s, "A") || !strings.Contains(s, "B") || !strings.Contains(s, "C") || !strings.Contains(s, "D") {
		return s
	}
	locs := choiceMarker.FindAllStringSubmatchIndex(s, -1)
	next := byte('A')
	start, last := -1, -1
	for _, l := range locs {
		letter := s[l[2]]
		if letter == 'A' && next != 'A' && next != 'B' {
			break
		}
		if letter != next {
			continue
		}
		if letter == 'A' {
			start = l[0]
		}
		last = l[1]
		next++
	}
	if start < 0 || next < 'D' {
		return s
	}
	end := len(s)
	if k := strings.Index(strings.ToLower(s[last:]), "show that"); k >= 0 {
		end = last + k
	}
	return s[:start] + strings.Repeat(" ", end-start) + s[end:]
}

// relations are the symbols a comparison is written with.
var relations = map[string]bool{"<": true, ">": true, "≤": true, "≥": true, "≠": true, "=": true}

// asciiRelations are the relations spelled with a following "=".
var asciiRelations = map[string]string{">": "≥", "<": "≤", "!": "≠"}

// joinRelations merges the ASCII spellings >=, <= and != that the Lean
// scanner leaves as two symbols.
func joinRelations(ws []word) []word {
	out := ws[:0]
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if i+1 < len(ws) && ws[i+1].text == "=" && ws[i+1].start == w.end && w.kind == leansrc.TokSymbol {
			if rel, ok := asciiRelations[w.text]; ok {
				w.text, w.end = rel, ws[i+1].end
				i++
			}
		}
		out = append(out, w)
	}
	return out
}
