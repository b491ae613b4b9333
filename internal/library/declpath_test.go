package library

import (
	"path/filepath"
	"testing"
)

// TestDeclPath: the one resolver of a declaration's file (the editor's
// definition, MCP's and the commands' Decl, the checker's type findings):
// the absolute path of the indexed file that declares it, else nothing.
func TestDeclPath(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir()) // no toolchain sources in the test
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	lib := load(t, dir, "")
	// A declaration of a Lake package: its file is relative to the
	// package's root, which the resolver finds.
	prime := mustLookup(t, lib, "Mm.Prime")
	want := filepath.Join(dir, ".lake", "packages", "minimath", "Minimath", "Basic.lean")
	if got, ok := lib.DeclPath(prime); !ok || got != want {
		t.Errorf("DeclPath(Mm.Prime) = %q, %v; want %q", got, ok, want)
	}
	// An absolute path stands as it is, with or without a library.
	abs := &Decl{Name: "X.y", File: want}
	if got, ok := lib.DeclPath(abs); !ok || got != want {
		t.Errorf("absolute: %q, %v", got, ok)
	}
	if got, ok := (*Library)(nil).DeclPath(abs); !ok || got != want {
		t.Errorf("absolute, no library: %q, %v", got, ok)
	}
	// A file no indexed root holds (a corpus entry, a package not indexed).
	for _, d := range []*Decl{
		{Name: "X.y", Package: prime.Package, File: "Minimath/Nowhere.lean"},
		{Name: "X.y", Package: "no-such-package", File: prime.File},
	} {
		if got, ok := lib.DeclPath(d); ok || got != "" {
			t.Errorf("DeclPath(%s in %s) = %q, %v; want none", d.File, d.Package, got, ok)
		}
		if got, ok := (*Library)(nil).DeclPath(d); ok || got != "" {
			t.Errorf("no library: %q, %v", got, ok)
		}
	}
}
