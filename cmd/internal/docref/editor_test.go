package docref

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/benchstat"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// posOf returns the position of the first occurrence of needle in text,
// plus delta characters (ASCII text).
func posOf(t *testing.T, text, needle string, delta int) leansrc.Pos {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in the text", needle)
	}
	line := strings.Count(text[:i], "\n")
	col := i - (strings.LastIndexByte(text[:i], '\n') + 1)
	return leansrc.Pos{Line: line, Character: col + delta}
}

func editorFixture(t testing.TB) (*Checker, *Doc, string, string) {
	t.Helper()
	lib, dir := loadWS(t)
	known, err := LoadKnown(context.Background(), lib, 2)
	if err != nil {
		t.Fatal(err)
	}
	c := New(lib, names.New(lib.Decls()), known)
	path := filepath.Join(dir, "Lib", "Uses.lean")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c, NewDoc(text, lib.FileDecls(path)), string(text), dir
}

func TestHoverAndDefinition(t *testing.T) {
	c, d, text, dir := editorFixture(t)
	tests := []struct {
		name, needle string
		delta        int
		want         []string // substrings of the hover's Markdown; nil: no hover
		defFile      string
	}{
		{"dot-suffix in namespace", "`add_twice` resolves", 3, []string{"theorem Nat.add_twice (n : ℕ) : n = n", "*theorem* `Nat.add_twice`", "module `Lib.Defs`", "A lemma."}, "Lib/Defs.lean"},
		{"open in", "`Widget.double` resolves", 8, []string{"def Lib.Widget.double", "*def*"}, "Lib/Defs.lean"},
		{"deprecated alias", "`Lib.old_name`", 2, []string{"*alias* `Lib.old_name`", "**Deprecated**: use `Lib.new_name`."}, "Lib/Defs.lean"},
		{"unresolved", "`Widget.tripel`", 3, nil, ""},
		{"code is not ours", "theorem uses2", 9, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := c.At(d, posOf(t, text, tt.needle, tt.delta))
			h, hok := c.Hover(r)
			if tt.want == nil {
				if ok && hok {
					t.Fatalf("hover %+v, want none", h)
				}
				return
			}
			if !ok || !hok {
				t.Fatalf("no hover (ref %+v, found %v)", r, ok)
			}
			md := h.Markdown()
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("hover lacks %q:\n%s", w, md)
				}
			}
			loc, ok := c.Definition(r)
			if !ok || loc.Path != filepath.Join(dir, filepath.FromSlash(tt.defFile)) {
				t.Errorf("definition %+v, %v; want %s", loc, ok, tt.defFile)
			}
		})
	}
}

func TestCompletion(t *testing.T) {
	c, _, _, _ := editorFixture(t)
	tests := []struct {
		text   string
		prefix string // "" with ok false: no completion
		ok     bool
	}{
		{"/-- See `Lib.Wid", "Lib.Wid", true},
		{"-- see `add_tw", "add_tw", true},
		{"/-- `", "", true},
		{"/-- a `closed` span and", "", false},
		{"-- see `sum of range", "sum of range", true},
		{"-- a `closed` span, `b", "b", true},
		{"def x := Lib.Wid", "", false},
	}
	for _, tt := range tests {
		d := NewDoc([]byte(tt.text+"\n"), nil)
		got, ok := d.CompletionAt(leansrc.Pos{Line: 0, Character: len([]rune(tt.text))})
		if ok != tt.ok || got.Prefix != tt.prefix {
			t.Errorf("%q: completion %+v, %v; want %q, %v", tt.text, got, ok, tt.prefix, tt.ok)
		}
	}
	if got := c.Complete("Lib.Wid"); len(got) == 0 || got[0] != "Lib.Widget" {
		t.Errorf("Complete(Lib.Wid) = %v", got)
	}
	if got := c.Complete("add_tw"); len(got) != 1 || got[0] != "Nat.add_twice" {
		t.Errorf("Complete(add_tw) = %v", got)
	}
}

func TestDiagnosticsOfBuffer(t *testing.T) {
	c, d, text, _ := editorFixture(t)
	got := map[string]bool{}
	for _, f := range c.Diagnostics(d) {
		got[f.Name] = true
	}
	for _, want := range []string{"Lib.Widget.dubble", "Lib.old_name", "Lib.new_nam", "Widget.tripel"} {
		if !got[want] {
			t.Errorf("diagnostics lack %s: %v", want, got)
		}
	}
	// An unsaved edit that fixes a reference removes its diagnostic.
	edited := strings.Replace(text, "`Lib.new_nam`", "`Lib.new_name`", 1)
	for _, f := range c.Diagnostics(NewDoc([]byte(edited), d.Decls)) {
		if f.Name == "Lib.new_nam" || f.Name == "Lib.new_name" {
			t.Errorf("edited buffer still reports %s", f.Name)
		}
	}
}

// TestDiagnosticsKnowTheBuffersCode: a name that only the buffer's own
// code uses — typed after the checker read the library's code — is not
// reported in a comment, as it would not be after a restart.
func TestDiagnosticsKnowTheBuffersCode(t *testing.T) {
	c, d, text, _ := editorFixture(t)
	const comment = "\n/-- Compare `Qux.frobnicate`. -/\ntheorem t_q : True := trivial\n"
	reported := func(d *Doc) bool {
		for _, f := range c.Diagnostics(d) {
			if f.Name == "Qux.frobnicate" {
				return true
			}
		}
		return false
	}
	if !reported(NewDoc([]byte(text+comment), d.Decls)) {
		t.Fatal("Qux.frobnicate is not reported although no code uses it: the test shows nothing")
	}
	if reported(NewDoc([]byte(text+comment+"#check Qux.frobnicate\n"), d.Decls)) {
		t.Error("Qux.frobnicate is reported although the buffer's code uses it")
	}
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"A lemma. More.":         "A lemma.",
		"Two\nlines. X":          "Two lines.",
		"Para one\n\nPara two.":  "Para one",
		"  `Nat.succ n` is n+1 ": "`Nat.succ n` is n+1",
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkEditorMathlib measures the editor features on DRIFT_MATHLIB
// (warm index cache in DRIFT_CACHE_DIR): hover and definition at every
// reference of the 2,018-line MeasureTheory/Integral/Lebesgue.lean,
// completion of prefixes, and diagnostics of that whole file (parse,
// resolve, suggest) as after a debounced edit, and the checker's rebuild
// after a library change. Each reports its p95 too.
func BenchmarkEditorMathlib(b *testing.B) {
	dir := os.Getenv("DRIFT_MATHLIB")
	if dir == "" {
		b.Skip("set DRIFT_MATHLIB=/path/to/mathlib to run")
	}
	ws, err := library.Discover(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	lib, err := library.Load(context.Background(), ws, library.Options{CacheDir: os.Getenv("DRIFT_CACHE_DIR")})
	if err != nil {
		b.Fatal(err)
	}
	known, err := LoadKnown(context.Background(), lib, 0)
	if err != nil {
		b.Fatal(err)
	}
	c := New(lib, names.New(lib.Decls()), known)
	path := filepath.Join(ws.Dir, "Mathlib", "MeasureTheory", "Integral", "Lebesgue.lean")
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	d := NewDoc(text, lib.FileDecls(path))
	refs := c.Refs(d.Src, d.Comments, d.Syntax, d.Decls)
	if len(refs) == 0 {
		b.Fatal("no references")
	}
	timed := func(name string, f func(i int)) { benchstat.Timed(b, name, f) }
	// rebuild is what the backend does after the index's snapshot changed
	// (the name index comes with the snapshot; Known is reused).
	ix := names.New(lib.Decls())
	timed("rebuild", func(int) { New(lib, ix, known) })
	timed("hover", func(i int) {
		if ref, ok := c.At(d, refs[i%len(refs)].Range.Start); ok {
			c.Hover(ref)
		}
	})
	timed("definition", func(i int) {
		if ref, ok := c.At(d, refs[i%len(refs)].Range.Start); ok {
			c.Definition(ref)
		}
	})
	prefixes := []string{"Filter.Tend", "isOpen_", "Continuous.", "nhds_", "Set.mem_", "closure_", "lintegral_"}
	timed("completion", func(i int) { c.Complete(prefixes[i%len(prefixes)]) })
	timed("diagnostics", func(i int) { c.Diagnostics(NewDoc(text, d.Decls)) })
}

// FuzzEditor feeds arbitrary text through every editor feature: none may
// panic, and every reference must lie inside a comment of the text.
func FuzzEditor(f *testing.F) {
	for _, s := range []string{"/-- `Nat.succ` -/\ntheorem x : True := trivial", "-- `", "/- `a` `b", "/-- ``x`` `",
		"/-! ```\n`x`\n``` -/", "\xff\xfe/-- `é` -/", "namespace A\nopen B in\n/-- `c` -/ def d := 1\nend A"} {
		f.Add(s, 0, 3)
	}
	c, _, _, _ := editorFixture(f)
	f.Fuzz(func(t *testing.T, text string, line, char int) {
		d := NewDoc([]byte(text), nil)
		for _, r := range c.Refs(d.Src, d.Comments, d.Syntax, nil) {
			if _, ok := d.comment(r.Start); !ok || r.End > len(d.Src) || string(d.Src[r.Start:r.End]) != r.Name {
				t.Fatalf("reference %+v outside a comment or not its text", r)
			}
		}
		p := leansrc.Pos{Line: line % 8, Character: char % 80}
		if r, ok := c.At(d, p); ok {
			c.Hover(r)
			c.Definition(r)
		}
		if comp, ok := d.CompletionAt(p); ok {
			c.Complete(comp.Prefix)
		}
		for _, fd := range c.Diagnostics(d) {
			if _, _, err := Fix(d.Src, []Finding{fd}); err != nil && fd.Sure {
				t.Fatalf("sure finding %+v does not apply: %v", fd, err)
			}
		}
	})
}
