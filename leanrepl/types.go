package leanrepl

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

// CodeType is the finding code of the light elaborator (internal/elab): an
// application Lean certainly rejects (a type applied as a function, too many
// arguments, a theorem used as a proposition, no coercion down ℤ → ℕ, a
// name used before it is bound).
const CodeType = "type"

// TypeEnv is what the light elaborator knows of stub s under header: the
// names the name check resolves (those that exist) and the library's
// signatures; a name the header declares has no known signature.
func TypeEnv(s *leansrc.Stub, header string, lib *library.Library, names Names, kinds KindFunc, autoImplicit bool) elab.Env {
	h := readHeader(header)
	r := newResolver(s, h, names, kinds)
	lookup := func(full string) (*library.Decl, bool) {
		if h.defined[full] || lib == nil {
			return nil, false
		}
		d, ok := lib.Lookup(full)
		if !ok || d.Private {
			return nil, false // another file's private name is not in scope
		}
		return d, true
	}
	return elab.Env{
		Resolve: func(name string) []string {
			short := !strings.Contains(name, ".")
			if short && !elab.AutoBoundShape(name) && openField(name, names, lookup) {
				// a class field Lean may reach unqualified (Mathlib exports
				// dist and gcd), which the candidates lack
				return []string{name, "?"}
			}
			var out []string
			for _, c := range r.candidates(strings.TrimPrefix(name, "_root_.")) {
				d, ok := lookup(c)
				switch {
				case ok && d.Protected && short && c != name:
					// a protected name is not reachable by its last component
				case ok || coreNames[c] || h.defined[c] || names != nil && names.Exact(c):
					out = append(out, c)
				case short && coreNamespaces[strings.TrimSuffix(c, "."+name)]:
					// an opened namespace of Lean core, which the library may
					// not index, may hold the name: Lean would choose
					out = append(out, c)
				}
			}
			return out
		},
		Lookup: lookup,
		SectionVariables: func(d *library.Decl) ([]string, bool) {
			if lib == nil {
				return nil, false
			}
			return explicitVariables(lib, d)
		},
		Variables:    h.variables,
		AutoImplicit: autoImplicit,
	}
}

// openField reports whether name is the last component of a class field
// that is not protected (so that an `export` or `open` may bring it into
// scope unqualified).
func openField(name string, names Names, lookup func(string) (*library.Decl, bool)) bool {
	if names == nil {
		return false
	}
	for _, full := range names.Suffix(name) {
		d, ok := lookup(full)
		if !ok || d.Kind != library.KindField || d.Protected {
			continue
		}
		if p, ok := lookup(d.Parent); ok && (p.Kind == library.KindClass || p.Kind == library.KindClassInductive) {
			return true
		}
	}
	return false
}

// coreNamespaces are namespaces of Lean core and Batteries whose
// declarations a library built from Mathlib's sources lacks.
var coreNamespaces = map[string]bool{"Nat": true, "Int": true, "List": true, "Array": true, "String": true, "Char": true,
	"Option": true, "Function": true, "Fin": true, "Bool": true, "Prod": true, "Sum": true, "Subtype": true,
	"Classical": true, "Decidable": true, "Eq": true, "HEq": true, "Std": true, "Lean": true, "IO": true, "Rat": true,
	"Float": true, "UInt8": true, "UInt16": true, "UInt32": true, "UInt64": true, "USize": true, "Thunk": true,
	"Except": true, "Id": true, "Sigma": true, "PSigma": true, "Quot": true, "Quotient": true, "Setoid": true,
	"Iff": true, "And": true, "Or": true, "Not": true, "Exists": true, "ByteArray": true, "BitVec": true}

// typeCheck runs the light elaborator on a stub that passed the gate; it
// finds nothing without a library.
func (c *Checker) typeCheck(s *leansrc.Stub, header string) []elab.Finding {
	if c.cfg.Library == nil {
		return nil
	}
	lib := c.cfg.Library()
	if lib == nil {
		return nil
	}
	return elab.Check(s, TypeEnv(s, header, lib, c.cfg.Names, c.cfg.Kinds, c.cfg.AutoImplicit))
}

// fileVariables is where a library file's explicit section variables are
// in force, as of the file's size and time.
type fileVariables struct {
	size  int64
	mod   time.Time
	spans []variableSpan
}

// variableSpan says that the explicit variable Name is in force on the
// 0-based lines [From, To).
type variableSpan struct {
	Name     string
	From, To int
}

// variableScans caches fileVariables by path for every checker.
var variableScans = struct {
	sync.Mutex
	files map[string]fileVariables
}{files: map[string]fileVariables{}}

// explicitVariables returns the names of the explicit section variables
// in force at d in its file; ok is false when the file cannot be read.
func explicitVariables(lib *library.Library, d *library.Decl) ([]string, bool) {
	type answer struct {
		names []string
		ok    bool
	}
	if v, ok := sectionDecls.Load(d); ok {
		a := v.(answer)
		return a.names, a.ok
	}
	names, ok := scanSectionVariables(lib, d)
	if sectionDeclsN.Add(1) > maxSectionDecls {
		// a long session re-parses files (new *Decl values): start afresh
		sectionDecls.Clear()
		sectionDeclsN.Store(0)
	}
	sectionDecls.Store(d, answer{names, ok})
	return names, ok
}

// sectionDecls caches explicitVariables by declaration (a re-parsed file
// gives new *Decl values); sectionDeclsN counts its entries, up to
// maxSectionDecls.
var (
	sectionDecls  sync.Map
	sectionDeclsN atomic.Int64
)

const maxSectionDecls = 1 << 16

func scanSectionVariables(lib *library.Library, d *library.Decl) ([]string, bool) {
	path, ok := lib.DeclPath(d)
	if !ok {
		return nil, false
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, false
	}
	variableScans.Lock()
	fv, ok := variableScans.files[path]
	variableScans.Unlock()
	if !ok || fv.size != st.Size() || !fv.mod.Equal(st.ModTime()) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, false
		}
		fv = fileVariables{size: st.Size(), mod: st.ModTime(), spans: variableSpans(data)}
		variableScans.Lock()
		variableScans.files[path] = fv
		variableScans.Unlock()
	}
	line := d.Range.Start.Line
	var names []string
	for _, sp := range fv.spans {
		if sp.From <= line && line < sp.To {
			names = append(names, sp.Name)
		}
	}
	return names, true
}

// variableSpans reads where a file's explicit section variables may stand
// in a declaration's signature or be added to it: from the `variable`
// command that binds one ((x : T), or (x) making it explicit) to the `end`
// of its section, namespace or mutual block (at column 0, as Mathlib writes
// them), else to the end of the file; a `variable … in` holds up to the
// next declaration. A later `variable {x}` does not end it: Lean then takes
// x as implicit, but the signature read from source shows the binder as
// first declared (CategoryTheory.Abelian.Ext shows `(C : Type u)`).
func variableSpans(data []byte) []variableSpan {
	var spans []variableSpan
	var outer [][]int // per enclosing block, the open spans outside it
	cur := []int{}    // indexes of the open spans of the current block
	lines := bytes.Split(data, []byte("\n"))
	word := func(text []byte, w string) bool {
		return bytes.HasPrefix(text, []byte(w)) && (len(text) == len(w) || text[len(w)] == ' ' || text[len(w)] == '(')
	}
	declStart := func(text []byte) bool {
		for _, w := range []string{"def", "theorem", "lemma", "abbrev", "instance", "structure", "class", "inductive",
			"noncomputable", "private", "protected", "irreducible_def", "opaque", "@["} {
			if bytes.HasPrefix(text, []byte(w)) {
				return true
			}
		}
		return false
	}
	for n := 0; n < len(lines); n++ {
		text := lines[n]
		switch {
		case word(text, "section") || word(text, "namespace") || word(text, "noncomputable section") || word(text, "mutual"):
			outer = append(outer, cur)
			cur = []int{}
		case word(text, "end") && len(outer) > 0:
			for _, i := range cur {
				if spans[i].To < 0 {
					spans[i].To = n
				}
			}
			cur, outer = outer[len(outer)-1], outer[:len(outer)-1]
		case word(bytes.TrimLeft(text, " \t"), "variable"):
			// the command and its indented continuation
			cmd := append([]byte(nil), bytes.TrimLeft(text, " \t")[len("variable"):]...)
			m := n + 1
			for ; m < len(lines) && len(lines[m]) > 0 && (lines[m][0] == ' ' || lines[m][0] == '\t'); m++ {
				cmd = append(append(cmd, ' '), lines[m]...)
			}
			explicit := variableGroups(cmd)
			in := bytes.HasSuffix(bytes.TrimSpace(cmd), []byte(" in"))
			if in {
				end := len(lines)
				for k := m; k < len(lines); k++ {
					if declStart(lines[k]) {
						end = k + 1
						break
					}
				}
				for _, x := range explicit {
					spans = append(spans, variableSpan{Name: x, From: n, To: end})
				}
			} else {
				// a later `variable {x}` does not end the span: the indexer
				// shows the binder as first declared, explicit
				for _, x := range explicit {
					spans = append(spans, variableSpan{Name: x, From: n, To: -1})
					cur = append(cur, len(spans)-1)
				}
			}
			n = m - 1
		}
	}
	for i := range spans {
		if spans[i].To < 0 {
			spans[i].To = len(lines) + 1
		}
	}
	return spans
}

// variableGroups returns the names a `variable` command binds or makes
// explicit: those of its ( ) groups.
func variableGroups(cmd []byte) []string {
	var explicit []string
	rs := []rune(string(cmd))
	for i := 0; i < len(rs); i++ {
		if rs[i] != '(' {
			continue
		}
		depth, j := 0, i
		for ; j < len(rs); j++ {
			switch rs[j] {
			case '(', '{', '[', '⦃':
				depth++
			case ')', '}', ']', '⦄':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if j >= len(rs) || rs[j] != ')' {
			return explicit
		}
		names, _, _ := strings.Cut(string(rs[i+1:j]), ":")
		explicit = append(explicit, strings.Fields(names)...)
		i = j
	}
	return explicit
}
