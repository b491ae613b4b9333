package leanrepl

import (
	"bufio"
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
		Lookup:       lookup,
		Exact:        func(d *library.Decl) bool { return lib != nil && noExplicitVariables(lib, d) },
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

// fileVariables is where a library file's `variable` commands that bind
// explicit variables are in force, as of the file's size and time.
type fileVariables struct {
	size int64
	mod  time.Time
	// spans are 0-based [first, last) line ranges: from such a command to
	// the end of its section or namespace.
	spans [][2]int
}

// variableScans caches fileVariables by path for every checker.
var variableScans = struct {
	sync.Mutex
	files map[string]fileVariables
}{files: map[string]fileVariables{}}

// noExplicitVariables reports whether no `variable` command binding an
// explicit variable ((x : T), or (R) making one explicit) is in force at d
// in its file, so that d's signature as read from source shows every
// explicit parameter: Lean adds to a definition the section variables its
// body uses.
func noExplicitVariables(lib *library.Library, d *library.Decl) bool {
	if v, ok := exactDecls.Load(d); ok {
		return v.(bool)
	}
	v := scanExplicitVariables(lib, d)
	if exactDeclsN.Add(1) > maxExactDecls {
		// a long session re-parses files (new *Decl values): start afresh
		exactDecls.Clear()
		exactDeclsN.Store(0)
	}
	exactDecls.Store(d, v)
	return v
}

// exactDecls caches noExplicitVariables by declaration (a re-parsed file
// gives new *Decl values); exactDeclsN counts its entries, up to
// maxExactDecls.
var (
	exactDecls  sync.Map
	exactDeclsN atomic.Int64
)

const maxExactDecls = 1 << 16

func scanExplicitVariables(lib *library.Library, d *library.Decl) bool {
	path, ok := lib.DeclPath(d)
	if !ok {
		return false
	}
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	variableScans.Lock()
	fv, ok := variableScans.files[path]
	variableScans.Unlock()
	if !ok || fv.size != st.Size() || !fv.mod.Equal(st.ModTime()) {
		data, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		fv = fileVariables{size: st.Size(), mod: st.ModTime(), spans: explicitVariableSpans(data)}
		variableScans.Lock()
		variableScans.files[path] = fv
		variableScans.Unlock()
	}
	line := d.Range.Start.Line
	for _, sp := range fv.spans {
		if sp[0] <= line && line < sp[1] {
			return false
		}
	}
	return true
}

// explicitVariableSpans returns the lines where a `variable` command of a
// file that holds an explicit binder (a "(" on its line or its indented
// continuation) is in force: up to the `end` of the section, namespace or
// mutual block it stands in (at column 0, as Mathlib writes them), else to
// the end of the file.
func explicitVariableSpans(data []byte) [][2]int {
	var spans [][2]int
	var open [][]int // per enclosing block, the indexes of its spans
	cur := []int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	in, start, line := false, 0, 0
	word := func(text []byte, w string) bool {
		return bytes.HasPrefix(text, []byte(w)) && (len(text) == len(w) || text[len(w)] == ' ')
	}
	for ; sc.Scan(); line++ {
		text := sc.Bytes()
		continued := in && len(text) > 0 && (text[0] == ' ' || text[0] == '\t')
		if !continued {
			in = false
			switch {
			case word(text, "section") || word(text, "namespace") || word(text, "noncomputable section") || word(text, "mutual"):
				open = append(open, cur)
				cur = []int{}
			case word(text, "end") && len(open) > 0:
				for _, i := range cur {
					spans[i][1] = line
				}
				cur, open = open[len(open)-1], open[:len(open)-1]
			case word(bytes.TrimLeft(text, " \t"), "variable") || bytes.HasPrefix(bytes.TrimLeft(text, " \t"), []byte("variable(")):
				in, start = true, line
			}
		}
		if in && bytes.IndexByte(text, '(') >= 0 && (len(spans) == 0 || spans[len(spans)-1][0] != start) {
			spans = append(spans, [2]int{start, -1})
			cur = append(cur, len(spans)-1)
		}
	}
	for i := range spans {
		if spans[i][1] < 0 {
			spans[i][1] = line + 1
		}
	}
	return spans
}
