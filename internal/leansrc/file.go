package leansrc

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Additive describes a @[to_additive] attribute on a declaration.
type Additive struct {
	// Name is the explicit target name as written ("" to guess it).
	Name string
	// Existing is set by `to_additive existing`: the twin is declared by hand.
	Existing bool
	// Doc is the docstring argument of the attribute, if any.
	Doc string
}

// Decl is one declaration found in a file, before name resolution against
// the library. Name is already qualified by the enclosing namespaces.
type Decl struct {
	Name      string
	Kind      string
	Range     Range
	Signature string
	Doc       string
	Attrs     []string
	// StmtRefs and ProofRefs are the identifiers, as written, that the
	// statement (binders, type, relevant variables) and the proof or body use.
	StmtRefs  []string
	ProofRefs []string
	// StmtOps are the operator words (runs of adjacent symbol characters,
	// such as "→+*" or "∣") used in the statement; notations map them to
	// constants.
	StmtOps []string
	// Scope indexes File.Scopes: the namespace and opens in force.
	Scope     int
	Private   bool
	Protected bool
	Anonymous bool
	// Parent is the owning structure or inductive of a field or constructor
	// (full name), or the target of an alias as written.
	Parent string
	// Symbol is the notation symbol of a notation declaration.
	Symbol string
	// Local and Scoped mark `local` and `scoped` notations, which are not in
	// force everywhere (scoped ones: inside or with their namespace open).
	Local  bool
	Scoped bool
	// Atoms are the literal atoms of a notation, in order ("≡", "[MOD", "]"
	// for `a " ≡ " b " [MOD " n "]"`).
	Atoms []string
	// Additive is the @[to_additive] attribute, when present.
	Additive *Additive
	// Value is the body of a short term-mode, non-recursive def or abbrev
	// (the text after `:=`, at most MaxValue bytes), for evaluation.
	Value string
}

// MaxValue is the longest def or abbrev body kept as Decl.Value.
const MaxValue = 1024

// Scope is a name-resolution context: the current namespace and what the
// `open` commands in force opened. scope.go resolves names in it.
type Scope struct {
	// Namespace is the current namespace ("" at the root).
	Namespace string
	// Opens are the namespaces opened, in order, including those opened
	// for their scoped notation only or for some of their names only.
	Opens []string
	// Restricted are the namespaces of Opens whose names are not all open,
	// one entry per such occurrence in Opens: `open scoped X` (notation
	// only) and `open X (a b)` (a and b only).
	Restricted []string
	// Aliases map short names to the full names `open X (a)` and
	// `open X renaming a → b` make them stand for.
	Aliases map[string]string
}

// Mark records the scope in force from byte offset Offset of the file to
// the next mark: the namespace and opens (Scope indexes File.Scopes,
// including those of `open … in`) and the names of the variables declared
// with `variable`. Parse records one at each command where they change.
type Mark struct {
	Offset int
	Scope  int
	Vars   []string
}

// At returns the scope and the `variable` names in force at byte offset
// off (nil outside any mark).
func (f *File) At(off int) (*Scope, []string) {
	i := sort.Search(len(f.Marks), func(i int) bool { return f.Marks[i].Offset > off }) - 1
	if i < 0 || f.Marks[i].Scope >= len(f.Scopes) {
		return nil, nil
	}
	return &f.Scopes[f.Marks[i].Scope], f.Marks[i].Vars
}

// AttrCmd is an `attribute [attrs] names` command.
type AttrCmd struct {
	Names    []string
	Attrs    []string
	Additive *Additive
	Scope    int
}

// Export is an `export From (names)` command issued in Namespace.
type Export struct {
	Namespace string
	From      string
	Names     []string
}

// Diag is a problem found while reading or parsing a file. Line is 0-based.
type Diag struct {
	Line int
	Msg  string
}

// String formats the diagnostic as "line N: msg" with a 1-based line.
func (d Diag) String() string { return fmt.Sprintf("line %d: %s", d.Line+1, d.Msg) }

// File is the parse result for one source file.
type File struct {
	ModuleDocs []string
	Decls      []Decl
	Scopes     []Scope
	// Marks locate Scopes in the text, in increasing Offset order.
	Marks    []Mark
	AttrCmds []AttrCmd
	Exports  []Export
	// Diags are syntax problems the parser recovered from.
	Diags []Diag
	// Warnings are problems with the file as a whole (encoding, size, BOM).
	Warnings []string
}

// MaxFileSize is the largest file Parse reads; larger inputs are skipped
// with a warning.
const MaxFileSize = 64 << 20

// largeFile is the size above which a warning is recorded.
const largeFile = 4 << 20

// Prepare normalises raw file bytes for parsing: it strips a UTF-8 byte
// order mark and replaces invalid UTF-8, returning the text and warnings.
func Prepare(content []byte) ([]byte, []string) {
	var warns []string
	if len(content) == 0 {
		return content, []string{"empty file"}
	}
	if len(content) > largeFile {
		warns = append(warns, fmt.Sprintf("large file (%.1f MB)", float64(len(content))/(1<<20)))
	}
	if bytes.HasPrefix(content, []byte("\xef\xbb\xbf")) {
		content = content[3:]
		warns = append(warns, "byte order mark removed")
	}
	if !utf8.Valid(content) {
		line := 1 + bytes.Count(content[:firstInvalid(content)], []byte("\n"))
		content = bytes.ToValidUTF8(content, []byte("\uFFFD"))
		warns = append(warns, fmt.Sprintf("invalid UTF-8 (first at line %d) replaced by U+FFFD", line))
	}
	if bytes.Contains(content, []byte("\r\n")) {
		warns = append(warns, "CRLF line endings")
	}
	return content, warns
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
