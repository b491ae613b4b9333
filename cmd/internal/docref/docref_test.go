package docref

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// loadWS copies the fixture workspace to a temporary directory (so --fix
// can write) and loads it.
func loadWS(t testing.TB) (*library.Library, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "ws"))); err != nil {
		t.Fatal(err)
	}
	ws, err := library.Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := library.Load(context.Background(), ws, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return lib, dir
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestResolveGolden lists every reference of the fixture workspace with
// what it resolves to, then the findings with their suggestions.
func TestResolveGolden(t *testing.T) {
	lib, dir := loadWS(t)
	ix := names.New(lib.Decls())
	c := New(lib, ix, nil)
	var b strings.Builder
	for _, path := range lib.Files() {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := leansrc.Prepare(raw)
		refs := c.File(src, leansrc.Parse(raw), lib.FileDecls(path))
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(&b, "== %s\n", rel)
		for _, r := range refs {
			fmt.Fprintf(&b, "%d:%d %s [self %s] %s %s\n", r.Range.Start.Line+1, r.Range.Start.Character+1, r.Name,
				r.Self, r.Status, r.Target)
		}
		for _, f := range c.Findings(refs) {
			fmt.Fprintf(&b, "finding %d:%d %s %s → %s sure=%v\n", f.Range.Start.Line+1, f.Range.Start.Character+1,
				f.Name, f.Status, strings.Join(f.Suggestions, " | "), f.Sure)
		}
	}
	golden(t, "resolve.golden", b.String())
}

// TestLintFixGolden runs Lint over the workspace, applies the sure
// suggestions and compares the rewritten file.
func TestLintFixGolden(t *testing.T) {
	lib, dir := loadWS(t)
	reports, refs, err := Lint(context.Background(), lib, names.New(lib.Decls()), leansrc.Parse, 2)
	if err != nil {
		t.Fatal(err)
	}
	if refs == 0 || len(reports) != 1 {
		t.Fatalf("refs %d, reports %d: want references and findings in Lib/Uses.lean only", refs, len(reports))
	}
	r := reports[0]
	out, n, err := Fix(r.Src, r.Findings)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("nothing fixed")
	}
	if !sameCode(r.Src, out) {
		t.Fatal("Fix changed code")
	}
	if err := WriteAtomic(r.Path, out); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(dir, "Lib", "Uses.lean"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "Uses.fixed.lean", string(written))
}

func TestFixRefusesCodeEdits(t *testing.T) {
	src := []byte("-- `foo`\ndef foo := 1\n")
	// A finding whose span lies in code (as if the text had shifted).
	bad := Finding{Ref: Ref{Name: "foo", Start: 13, End: 16}, Suggestions: []string{"bar"}, Sure: true}
	if _, _, err := Fix(src, []Finding{bad}); err == nil {
		t.Fatal("Fix rewrote code outside comments")
	}
	stale := Finding{Ref: Ref{Name: "baz", Start: 4, End: 7}, Suggestions: []string{"bar"}, Sure: true}
	if _, _, err := Fix(src, []Finding{stale}); err == nil {
		t.Fatal("Fix accepted a finding that no longer matches the text")
	}
	ok := Finding{Ref: Ref{Name: "foo", Start: 4, End: 7}, Suggestions: []string{"bar"}, Sure: true}
	out, n, err := Fix(src, []Finding{ok})
	if err != nil || n != 1 || string(out) != "-- `bar`\ndef foo := 1\n" {
		t.Fatalf("Fix = %q, %d, %v", out, n, err)
	}
}

func TestRefsInSkipsNonLean(t *testing.T) {
	for _, text := range []string{`\frac{a}{b}`, "Mathlib/Data/Nat.lean", "https://x.org", "#check foo", "@[simp]",
		"$x$", "Set.Ic*.orderBot", "theorem foo : True"} {
		src := []byte(text)
		if ids, _ := refsIn(src, leansrc.ByteSpan{Start: 0, End: len(src)}); len(ids) != 0 {
			t.Errorf("%q: got references %d", text, len(ids))
		}
	}
	src := []byte("f (Nat.succ n) + g.1")
	ids, whole := refsIn(src, leansrc.ByteSpan{Start: 0, End: len(src)})
	var got []string
	for _, t := range ids {
		got = append(got, string(src[t.Start:t.End]))
	}
	if whole || strings.Join(got, " ") != "f Nat.succ n g" {
		t.Errorf("expression identifiers %q whole=%v", got, whole)
	}
}
