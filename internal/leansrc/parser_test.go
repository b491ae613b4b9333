package leansrc

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render prints a parse result in a stable, readable form for golden files.
func render(f *File) string {
	var b strings.Builder
	for _, d := range f.Decls {
		fmt.Fprintf(&b, "%s %s %d:%d-%d:%d", d.Kind, d.Name, d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character)
		for _, fl := range []struct {
			on   bool
			name string
		}{{d.Private, "private"}, {d.Protected, "protected"}, {d.Anonymous, "anonymous"}} {
			if fl.on {
				b.WriteString(" " + fl.name)
			}
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "  sig: %s\n", d.Signature)
		if d.Doc != "" {
			fmt.Fprintf(&b, "  doc: %q\n", d.Doc)
		}
		if len(d.Attrs) > 0 {
			fmt.Fprintf(&b, "  attrs: %q\n", d.Attrs)
		}
		if d.Additive != nil {
			fmt.Fprintf(&b, "  to_additive: name=%q existing=%v doc=%q\n", d.Additive.Name, d.Additive.Existing, d.Additive.Doc)
		}
		if d.Parent != "" {
			fmt.Fprintf(&b, "  parent: %s\n", d.Parent)
		}
		if d.Symbol != "" {
			fmt.Fprintf(&b, "  symbol: %q atoms: %q local: %v scoped: %v\n", d.Symbol, d.Atoms, d.Local, d.Scoped)
		}
		if len(d.StmtOps) > 0 {
			fmt.Fprintf(&b, "  ops: %q\n", d.StmtOps)
		}
		sc := f.Scopes[d.Scope]
		fmt.Fprintf(&b, "  scope: ns=%q opens=%q\n", sc.Namespace, sc.Opens)
		fmt.Fprintf(&b, "  stmt: %q\n  proof: %q\n", d.StmtRefs, d.ProofRefs)
	}
	for _, m := range f.ModuleDocs {
		fmt.Fprintf(&b, "moduledoc: %q\n", m)
	}
	for _, a := range f.AttrCmds {
		fmt.Fprintf(&b, "attribute: %q %q additive=%v\n", a.Attrs, a.Names, a.Additive != nil)
	}
	for _, e := range f.Exports {
		fmt.Fprintf(&b, "export: ns=%q from=%q names=%q\n", e.Namespace, e.From, e.Names)
	}
	for _, d := range f.Diags {
		fmt.Fprintf(&b, "diag: %s\n", d)
	}
	for _, w := range f.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

// TestGolden parses each fixture under testdata and compares with its
// .golden file (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.lean")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := render(Parse(src))
			golden := strings.TrimSuffix(path, ".lean") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from golden:\n%s", path, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows the first differing lines of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n want %q\n  got %q", i+1, a, b)
		}
	}
	return ""
}

var _ = bytes.Equal
