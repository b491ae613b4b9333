package blueprint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// Existing is what a Lean file declares: its declarations' full names,
// each with its command's text (docstring left out), and its header.
type Existing struct {
	Text   string
	Header string
	Decls  map[string]string
}

// ReadExisting reads the Lean file at path; a missing file is empty.
func ReadExisting(path string) (*Existing, error) {
	e := &Existing{Decls: map[string]string{}}
	if path == "" {
		return e, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return e, nil
	}
	if err != nil {
		return nil, err
	}
	e.Text, e.Header = string(data), leansrc.Header(string(data))
	byShort := map[string]string{}
	for _, c := range leansrc.Commands(data) {
		if c.Name != "" {
			byShort[c.Name] = string(data[c.Start:c.End])
		}
	}
	for _, d := range leansrc.Parse(data).Decls {
		text := byShort[d.Name]
		if text == "" {
			// Declared inside a namespace: the command names the last part(s).
			for short, t := range byShort {
				if strings.HasSuffix(d.Name, "."+short) {
					text = t
					break
				}
			}
		}
		e.Decls[d.Name] = text
	}
	return e, nil
}

// Block is one node's stub as written to the output file.
type Block struct {
	Label, Env string
	// Statement is the blueprint's text, written as the docstring.
	Statement string
	// Stub is the declaration (`theorem … := by sorry`, `def … := sorry`).
	Stub string
	// Failed marks a stub that failed its checks; Verdict says how.
	Failed  bool
	Verdict string
	// Note is one more comment line (the model's reading of a definition).
	Note string
	// Imports and Opens are header lines the stub needs.
	Imports, Opens []string
}

// Render is the block's text: a comment with the label, the verdict of a
// failed stub, the docstring and the stub.
func (b Block) Render() string {
	var s strings.Builder
	fmt.Fprintf(&s, "-- blueprint: %s (%s)\n", oneLine(b.Label), b.Env)
	if b.Failed {
		fmt.Fprintf(&s, "-- FAILED the checks: %s\n", oneLine(b.Verdict))
	}
	if b.Note != "" {
		fmt.Fprintf(&s, "-- %s\n", oneLine(b.Note))
	}
	stub := strings.TrimSpace(b.Stub)
	if b.Statement != "" && !strings.HasPrefix(stub, "/--") {
		fmt.Fprintf(&s, "/-- %s -/\n", docText(b.Statement))
	}
	s.WriteString(stub)
	s.WriteString("\n")
	return s.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// docText makes s safe inside /-- … -/.
func docText(s string) string {
	s = oneLine(s)
	s = strings.ReplaceAll(s, "-/", "- /")
	return strings.ReplaceAll(s, "/-", "/ -")
}

// Out appends blocks to the output file, one atomic write each, so that
// an interrupted run keeps every block written: the file's current text is
// read again before each write and kept as it is (what the user wrote is
// never overwritten); imports a block needs go after the file's imports,
// its opens before it.
type Out struct {
	Path string
	// Header is the start of a new file (imports and opens).
	Header string
	mu     sync.Mutex
}

// Append writes b at the end of the file.
func (o *Out) Append(b Block) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	data, err := os.ReadFile(o.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	text := string(data)
	if text == "" && strings.TrimSpace(o.Header) != "" {
		text = strings.TrimSpace(o.Header) + "\n"
	}
	text = addImports(text, b.Imports)
	var add strings.Builder
	if text != "" && !strings.HasSuffix(text, "\n") {
		add.WriteString("\n")
	}
	have := lineSet(text)
	for _, op := range b.Opens {
		if op = strings.TrimSpace(op); op != "" && !have[op] {
			add.WriteString("\n" + op + "\n")
			have[op] = true
		}
	}
	if text != "" && !strings.HasSuffix(text+add.String(), "\n\n") {
		add.WriteString("\n")
	}
	add.WriteString(b.Render())
	return atomicfile.Write(o.Path, 0o644, []byte(text), []byte(add.String()))
}

func lineSet(text string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		m[strings.TrimSpace(l)] = true
	}
	return m
}

// addImports inserts the imports text lacks after its last import line
// at the top (or at the start).
func addImports(text string, imports []string) string {
	have := lineSet(text)
	var missing []string
	for _, im := range imports {
		if im = strings.TrimSpace(im); im != "" && !have[im] {
			missing = append(missing, im)
			have[im] = true
		}
	}
	if len(missing) == 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	at := 0
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "import ") {
			at = i + 1
			continue
		}
		if t != "" && t != "prelude" && !strings.HasPrefix(t, "--") {
			break
		}
	}
	ins := strings.Join(missing, "\n") + "\n"
	if at == 0 {
		ins += "\n"
	}
	if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		ins = "\n" + ins
	}
	return strings.Join(lines[:at], "") + ins + strings.Join(lines[at:], "")
}
