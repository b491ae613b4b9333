// Package blueprint reads leanblueprint sources (blueprint/src/content.tex
// and the files it \input's or \include's) into nodes: the definition,
// lemma, theorem, proposition and corollary environments with their
// \label, \lean{…}, \leanok, \uses{…} and statement text, macros of the
// blueprint's macro files expanded. It follows leanblueprint's semantics:
// a proof environment is not a node, and the \uses and \leanok inside a
// proof belong to the statement before it (its proof's dependencies and
// whether the proof is formalized). It also orders nodes by \uses and
// merges generated stubs into a Lean file (out.go), and runs a blueprint
// with a caller's formalizer (run.go). It knows nothing of the model or
// of Lean.
package blueprint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Envs are the environments that are nodes (each also starred).
var Envs = []string{"definition", "lemma", "theorem", "proposition", "corollary"}

func nodeEnv(name string) (string, bool) {
	base := strings.TrimSuffix(name, "*")
	for _, e := range Envs {
		if e == base {
			return base, true
		}
	}
	return "", false
}

// Node is one statement of the blueprint.
type Node struct {
	// Label is the \label (or "FILE:LINE" for a node without one:
	// leanblueprint numbers those, the report still lists them).
	Label string `json:"label"`
	// Env is the environment without the star: definition, lemma, ….
	Env string `json:"env"`
	// Title is the optional [title] after \begin{…}.
	Title string `json:"title,omitempty"`
	// Lean are the names of \lean{…}, in order.
	Lean []string `json:"lean"`
	// LeanOK is \leanok in the statement; ProofOK in its proof.
	LeanOK  bool `json:"leanok"`
	ProofOK bool `json:"proof_leanok"`
	// MathlibOK is \mathlibok (the statement is in Mathlib).
	MathlibOK bool `json:"mathlibok"`
	// Uses are the labels of the statement's \uses; ProofUses those of
	// its proof's.
	Uses      []string `json:"uses"`
	ProofUses []string `json:"proof_uses"`
	// Statement is the statement's text without the blueprint's commands,
	// macros expanded, white space collapsed.
	Statement string `json:"statement"`
	// File (relative to the blueprint's directory) and Line locate
	// \begin; EndLine is the line of the statement's \end.
	File    string `json:"file"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	// Offset and End are the byte range of the environment in File.
	Offset int `json:"-"`
	End    int `json:"-"`
}

// AllUses are the statement's and the proof's dependencies, each once.
func (n *Node) AllUses() []string {
	return uniq(append(append([]string{}, n.Uses...), n.ProofUses...))
}

// Blueprint is a blueprint's nodes and what was read to find them.
type Blueprint struct {
	// Dir is the source directory (blueprint/src).
	Dir string
	// Files are the files read, relative to Dir, content.tex first.
	Files []string
	// Nodes are in the order of the text.
	Nodes []*Node
	// Macros are the macros found, by name (without the backslash).
	Macros map[string]Macro
	// Warnings are problems read past (a duplicate label, a \uses of an
	// unknown label, an unterminated environment, …).
	Warnings []string
}

// Node returns the node labelled label.
func (b *Blueprint) Node(label string) *Node {
	for _, n := range b.Nodes {
		if n.Label == label {
			return n
		}
	}
	return nil
}

// ErrNotFound means no blueprint sources were found.
var ErrNotFound = errors.New("no blueprint found")

// Entries are the files a blueprint is read from, the first found: the
// text (content.tex, which leanblueprint's template \input's from web.tex
// and print.tex), else the web version's main file (projects such as PFR
// keep their chapters under web.tex without a content.tex).
var Entries = []string{"content.tex", "web.tex"}

// entry returns the entry file of dir, or "".
func entry(dir string) string {
	for _, e := range Entries {
		if _, err := os.Stat(filepath.Join(dir, e)); err == nil {
			return e
		}
	}
	return ""
}

// Find returns the blueprint's source directory: tex when given (a
// directory holding content.tex or web.tex), else blueprint/src under each
// root in turn.
func Find(roots []string, tex string) (string, error) {
	if tex != "" {
		if entry(tex) == "" {
			return "", fmt.Errorf("%w: %s has no content.tex or web.tex", ErrNotFound, tex)
		}
		return tex, nil
	}
	for _, r := range roots {
		dir := filepath.Join(r, "blueprint", "src")
		if entry(dir) != "" {
			return dir, nil
		}
	}
	return "", fmt.Errorf("%w: no blueprint/src/content.tex under %s (name the directory with --tex)", ErrNotFound, strings.Join(roots, ", "))
}

// MaxFiles and MaxBytes bound what Load reads.
const (
	MaxFiles = 2000
	MaxBytes = 64 << 20
)

// Load reads the blueprint in dir: the macro files (common.tex, then
// web.tex, then any other .tex file but print.tex, under macros/ and
// preamble/; then the files web.tex's preamble \input's), then content.tex (else web.tex) and every file it \input's
// or \include's, depth first, with the macros they define. A missing
// file or an \input cycle is an error naming the chain.
func Load(dir string) (*Blueprint, error) {
	b := &Blueprint{Dir: dir, Macros: map[string]Macro{}}
	for _, f := range macroFiles(dir) {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		defineMacros(stripComments(string(data)), b.Macros)
	}
	l := &loader{b: b, dir: dir, active: map[string]bool{}}
	first := entry(dir)
	if first == "" {
		return nil, fmt.Errorf("%w: %s has no content.tex or web.tex", ErrNotFound, dir)
	}
	if err := l.file(first, nil); err != nil {
		return nil, err
	}
	b.finish()
	return b, nil
}

// macroFiles lists the macro files of dir in the order they are read: those
// under macros/ and preamble/, then the files the preamble of web.tex (before
// \begin{document}) \input's, wherever they are (Con-NF keeps its macros
// in macro/).
func macroFiles(dir string) []string {
	out := macroDirFiles(dir)
	data, err := os.ReadFile(filepath.Join(dir, "web.tex"))
	if err != nil {
		return out
	}
	pre := stripComments(string(data))
	if i := strings.Index(pre, `\begin{document}`); i >= 0 {
		pre = pre[:i]
	}
	commands(pre, func(name string, _, end int) int {
		if name != "input" && name != "include" {
			return end
		}
		arg, e, ok := group(pre, skipSpace(pre, end))
		if !ok {
			return end
		}
		p := filepath.Join(dir, texPath(arg))
		if _, err := os.Stat(p); err == nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
		return e
	})
	return out
}

// macroDirFiles lists the .tex files under macros/ and preamble/ (common.tex,
// then web.tex, then the others but print.tex).
func macroDirFiles(dir string) []string {
	var out []string
	for _, sub := range []string{"macros", "preamble"} {
		seen := map[string]bool{}
		for _, n := range []string{"common.tex", "web.tex"} {
			p := filepath.Join(dir, sub, n)
			if _, err := os.Stat(p); err == nil {
				out = append(out, p)
				seen[p] = true
			}
		}
		rest, _ := filepath.Glob(filepath.Join(dir, sub, "*.tex"))
		sort.Strings(rest)
		for _, p := range rest {
			if !seen[p] && filepath.Base(p) != "print.tex" {
				out = append(out, p)
			}
		}
	}
	return out
}

type loader struct {
	b      *Blueprint
	dir    string
	active map[string]bool
	bytes  int
	last   *Node // the node a following proof belongs to
}

// texPath resolves an \input argument relative to the blueprint's
// directory, adding .tex when the name has no extension.
func texPath(name string) string {
	name = strings.TrimSpace(name)
	if filepath.Ext(name) == "" {
		name += ".tex"
	}
	return filepath.Clean(filepath.FromSlash(name))
}

func (l *loader) file(rel string, chain []string) error {
	chain = append(chain, rel)
	if l.active[rel] {
		return fmt.Errorf("blueprint: \\input cycle: %s", strings.Join(chain, " → "))
	}
	if len(l.b.Files) >= MaxFiles {
		return fmt.Errorf("blueprint: more than %d files", MaxFiles)
	}
	data, err := os.ReadFile(filepath.Join(l.dir, rel))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && len(chain) > 1 {
			return fmt.Errorf("blueprint: %s: \\input{%s}: no such file in %s", strings.Join(chain[:len(chain)-1], " → "), filepath.ToSlash(strings.TrimSuffix(rel, ".tex")), l.dir)
		}
		return fmt.Errorf("blueprint: %w", err)
	}
	if l.bytes += len(data); l.bytes > MaxBytes {
		return fmt.Errorf("blueprint: more than %d bytes of sources", MaxBytes)
	}
	l.active[rel] = true
	defer delete(l.active, rel)
	l.b.Files = append(l.b.Files, filepath.ToSlash(rel))
	return l.text(rel, stripComments(string(data)), chain)
}

// commands calls fn on each control sequence of s in order (\name or a
// backslash and one other character), with its name and the offsets of
// its backslash and of its end; fn returns where to go on from (at least
// end, else scanning moves past the backslash).
func commands(s string, fn func(name string, at, end int) int) {
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			return
		}
		i += j
		name, end := controlWord(s, i)
		if name == "" {
			return // a backslash at the end
		}
		i = max(fn(name, i, end), i+1)
	}
}

// text reads the commands of one file in order: macro definitions,
// \input/\include, node environments and proofs.
func (l *loader) text(rel, src string, chain []string) error {
	lines := lineIndex(src)
	var err error
	commands(src, func(name string, i, end int) int {
		switch name {
		case "input", "include", "subfile":
			arg, e, ok := group(src, skipSpace(src, end))
			if !ok {
				return end
			}
			if err = l.file(texPath(arg), chain); err != nil {
				return len(src)
			}
			return e
		case "newcommand", "renewcommand", "providecommand", "DeclareMathOperator", "def":
			return max(defineAt(src, i, l.b.Macros), end)
		case "begin":
			env, e, ok := group(src, skipSpace(src, end))
			if !ok {
				return end
			}
			base, isNode := nodeEnv(env)
			if !isNode && env != "proof" {
				return e
			}
			bodyEnd, after := findEnd(src, e, env)
			if bodyEnd < 0 {
				l.b.Warnings = append(l.b.Warnings, fmt.Sprintf("%s:%d: \\begin{%s} without \\end{%s}", rel, lineOf(lines, i), env, env))
				bodyEnd, after = len(src), len(src)
			}
			body := src[e:bodyEnd]
			if isNode {
				n := &Node{Env: base, File: filepath.ToSlash(rel), Line: lineOf(lines, i), EndLine: lineOf(lines, bodyEnd), Offset: i, End: after}
				l.node(n, body)
				l.last = n
			} else if l.last != nil {
				l.proof(l.last, body)
			}
			return after
		}
		return end
	})
	return err
}

// node reads a node's body.
func (l *loader) node(n *Node, body string) {
	if t, e, ok := optArg(body, skipSpace(body, 0)); ok {
		n.Title = strings.Join(strings.Fields(Expand(t, l.b.Macros)), " ")
		body = body[e:]
	}
	var text strings.Builder
	last := 0
	commands(body, func(name string, i, end int) int {
		switch name {
		case "label", "lean", "uses", "discussion", "notready", "leanok", "mathlibok", "proves":
		default:
			return end
		}
		text.WriteString(body[last:i])
		last = end
		switch name {
		case "leanok":
			n.LeanOK = true
		case "mathlibok":
			n.MathlibOK = true
		case "notready":
		default:
			arg, ge, ok := group(body, skipSpace(body, end))
			if !ok {
				break
			}
			last = ge
			switch name {
			case "label":
				if n.Label == "" {
					n.Label = strings.TrimSpace(arg)
				}
			case "lean":
				n.Lean = append(n.Lean, splitList(arg)...)
			case "uses":
				n.Uses = append(n.Uses, splitList(arg)...)
			}
		}
		return last
	})
	text.WriteString(body[last:])
	n.Lean, n.Uses, n.ProofUses = orEmpty(uniq(n.Lean)), orEmpty(uniq(n.Uses)), []string{}
	n.Statement = strings.Join(strings.Fields(Expand(text.String(), l.b.Macros)), " ")
	if n.Label == "" {
		n.Label = fmt.Sprintf("%s:%d", n.File, n.Line)
	}
	l.b.Nodes = append(l.b.Nodes, n)
}

// proof reads the \uses and \leanok of the proof of n.
func (l *loader) proof(n *Node, body string) {
	commands(body, func(name string, _, end int) int {
		switch name {
		case "leanok":
			n.ProofOK = true
		case "uses":
			if arg, e, ok := group(body, skipSpace(body, end)); ok {
				n.ProofUses = orEmpty(uniq(append(n.ProofUses, splitList(arg)...)))
				return e
			}
		}
		return end
	})
}

// finish checks labels and \uses.
func (b *Blueprint) finish() {
	seen := map[string]*Node{}
	for _, n := range b.Nodes {
		if o := seen[n.Label]; o != nil {
			b.Warnings = append(b.Warnings, fmt.Sprintf("%s:%d: label %q also at %s:%d", n.File, n.Line, n.Label, o.File, o.Line))
			continue
		}
		seen[n.Label] = n
	}
	for _, n := range b.Nodes {
		for _, u := range n.AllUses() {
			if seen[u] == nil {
				b.Warnings = append(b.Warnings, fmt.Sprintf("%s:%d: %s uses %q, which is no node's label", n.File, n.Line, n.Label, u))
			}
		}
	}
}

// splitList splits a comma-separated argument, trimming each item.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	out := s[:0:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// stripComments removes TeX comments: from an unescaped % to the end of
// the line, and the line break after it (as TeX does), keeping offsets of
// the lines (a comment's text becomes spaces).
func stripComments(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++ // \% and \\ are not comments
		case '%':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// controlWord reads the control sequence at s[i] == '\\': a name of
// letters (and @), or one other character; name is "" for a backslash
// at the end.
func controlWord(s string, i int) (name string, end int) {
	j := i + 1
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	if j == i+1 {
		if j < len(s) {
			return s[j : j+1], j + 1
		}
		return "", j
	}
	return s[i+1 : j], j
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '@' }

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// group reads a brace group at s[i]: its content and the offset after it.
func group(s string, i int) (string, int, bool) {
	return delimited(s, i, '{', '}')
}

// optArg reads an optional argument [..] at s[i].
func optArg(s string, i int) (string, int, bool) {
	return delimited(s, i, '[', ']')
}

func delimited(s string, i int, open, close byte) (string, int, bool) {
	if i >= len(s) || s[i] != open {
		return "", i, false
	}
	depth := 0 // braces open inside the argument
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case c == close && depth == 0:
			return s[i+1 : j], j + 1, true
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth < 0 {
				return "", i, false
			}
		}
	}
	return "", i, false
}

// findEnd finds the \end{env} that closes an environment whose body
// starts at s[from], counting nested \begin{env}: the offset of \end and
// the offset after it, or -1.
func findEnd(s string, from int, env string) (int, int) {
	begin, end := `\begin{`+env+`}`, `\end{`+env+`}`
	depth := 0
	for i := from; i < len(s); {
		b := strings.Index(s[i:], begin)
		e := strings.Index(s[i:], end)
		if e < 0 {
			return -1, -1
		}
		if b >= 0 && b < e {
			depth++
			i += b + len(begin)
			continue
		}
		if depth == 0 {
			return i + e, i + e + len(end)
		}
		depth--
		i += e + len(end)
	}
	return -1, -1
}

func lineIndex(s string) []int {
	out := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// lineOf returns the 1-based line of offset off.
func lineOf(lines []int, off int) int {
	return sort.Search(len(lines), func(i int) bool { return lines[i] > off })
}
