package library

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

var update = flag.Bool("update", false, "rewrite golden files")

// writeTree creates files (relative path → content) under a new temporary
// directory and returns it.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t testing.TB, dir, cache string) *Library {
	t.Helper()
	ws, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := Load(context.Background(), ws, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func mustLookup(t *testing.T, lib *Library, name string) *Decl {
	t.Helper()
	d, ok := lib.Lookup(name)
	if !ok {
		t.Fatalf("%s not found", name)
	}
	return d
}

// TestWorkspaceGolden indexes testdata/workspace and compares the JSONL
// dump with testdata/workspace.golden.jsonl (-update rewrites it).
func TestWorkspaceGolden(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir()) // no toolchain sources in the test
	dir := filepath.Join("..", "..", "testdata", "workspace")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("testdata/workspace not present")
	}
	lib := load(t, dir, "")
	var buf bytes.Buffer
	if err := WriteDecls(&buf, lib.Decls()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "workspace.golden.jsonl")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		w, g := strings.Split(string(want), "\n"), strings.Split(buf.String(), "\n")
		for i := 0; i < len(w) && i < len(g); i++ {
			if w[i] != g[i] {
				t.Fatalf("line %d differs:\nwant %s\n got %s", i+1, w[i], g[i])
			}
		}
		t.Fatalf("output has %d lines, golden %d", len(g), len(w))
	}
}

const resolutionSrc = `
namespace Foo
def bar : Nat := 1
protected def prot : Nat := 2
theorem baz : bar = 1 := rfl
end Foo

def Foo.qux : Nat := bar

namespace Foo.Inner
def deep (n : Nat) : Nat := bar + n
end Foo.Inner

open Foo in
def useOpen : Nat := bar

def afterOpenIn : Nat := bar

def useProt : Nat := Foo.prot

section
open Foo
def useProtShort : Nat := prot
def useBarShort : Nat := bar
end

def Nat := Unit
def usesRoot (x : Nat) : _root_.Nat := x

def shadow (bar : Nat) : Nat := bar

theorem projection : Foo.baz.symm = Foo.baz.symm := rfl

notation "𝔹" => Foo.bar
def usesNotation : 𝔹 = 𝔹 := rfl

export Foo (baz)
def usesExport : Foo.bar = 1 := baz
`

func TestResolution(t *testing.T) {
	dir := writeTree(t, map[string]string{"lakefile.lean": "", "Res.lean": resolutionSrc})
	lib := load(t, dir, "")
	tests := []struct {
		decl      string
		stmt      []string
		proof     []string
		protected bool
	}{
		{"Foo.baz", []string{"Foo.bar"}, []string{}, false},
		{"Foo.qux", []string{"Nat"}, []string{"Foo.bar"}, false},
		{"Foo.Inner.deep", []string{"Nat"}, []string{"Foo.bar"}, false},
		{"useOpen", []string{"Nat"}, []string{"Foo.bar"}, false},
		{"afterOpenIn", []string{"Nat"}, []string{}, false},
		{"useProt", []string{"Nat"}, []string{"Foo.prot"}, false},
		{"useProtShort", []string{"Nat"}, []string{}, false},
		{"useBarShort", []string{"Nat"}, []string{"Foo.bar"}, false},
		{"usesRoot", []string{"Nat"}, []string{}, false},
		{"shadow", []string{"Nat"}, []string{}, false},
		{"projection", []string{"Foo.baz"}, []string{}, false},
		{"usesNotation", []string{"Foo.bar"}, []string{}, false},
		{"Foo.prot", []string{"Nat"}, []string{}, true},
		{"usesExport", []string{"Foo.bar"}, []string{"Foo.baz"}, false},
	}
	for alias, want := range map[string]string{"baz": "Foo.baz", "bar": "", "Foo.baz": ""} {
		if got, ok := lib.ExportAlias(alias); got != want || ok != (want != "") {
			t.Errorf("ExportAlias(%q) = %q, %v; want %q", alias, got, ok, want)
		}
	}
	for _, tt := range tests {
		t.Run(tt.decl, func(t *testing.T) {
			d := mustLookup(t, lib, tt.decl)
			if !reflect.DeepEqual(d.StatementDeps, tt.stmt) {
				t.Errorf("statement deps %q, want %q", d.StatementDeps, tt.stmt)
			}
			if !reflect.DeepEqual(d.ProofDeps, tt.proof) {
				t.Errorf("proof deps %q, want %q", d.ProofDeps, tt.proof)
			}
			if d.Protected != tt.protected {
				t.Errorf("protected = %v", d.Protected)
			}
		})
	}
	if got := names(lib.UsedBy("Foo.bar")); !reflect.DeepEqual(got, []string{"Foo.baz", "«term𝔹»", "usesNotation", "usesExport"}) {
		t.Errorf("UsedBy(Foo.bar) = %q", got)
	}
}

func names(ds []*Decl) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func TestToAdditiveTwins(t *testing.T) {
	src := `
@[to_additive]
class Monoid' (M : Type) where
  one : M
  mul_one : ∀ a : M, a = a

namespace Monoid'
@[to_additive]
theorem one_mul_eq {M : Type} [Monoid' M] : True := trivial
end Monoid'

@[to_additive "The sum of nothing."]
def Finset.prod (s : Nat) : Nat := s

@[to_additive sum_custom_name]
theorem prod_weird : Finset.prod 1 = 1 := rfl

def Finset.sum_existing := 1
@[to_additive existing Finset.sum_existing]
def Finset.prod_existing := 1

theorem prod_attr : True := trivial
attribute [to_additive] prod_attr
`
	dir := writeTree(t, map[string]string{"lean-toolchain": "x", "T.lean": src})
	lib := load(t, dir, "")
	tests := []struct{ src, twin string }{
		{"Monoid'", "AddMonoid'"},
		{"Monoid'.one", "AddMonoid'.zero"},
		{"Monoid'.mul_one", "AddMonoid'.add_zero"},
		{"Monoid'.one_mul_eq", "AddMonoid'.zero_add_eq"},
		{"Finset.prod", "Finset.sum"},
		{"prod_weird", "sum_custom_name"},
		{"Finset.prod_existing", "Finset.sum_existing"},
		{"prod_attr", "sum_attr"},
	}
	for _, tt := range tests {
		s := mustLookup(t, lib, tt.src)
		g := mustLookup(t, lib, tt.twin)
		if s.Twin != tt.twin || g.Twin != tt.src {
			t.Errorf("%s ↔ %s: twins %q / %q", tt.src, tt.twin, s.Twin, g.Twin)
		}
	}
	if g := mustLookup(t, lib, "Finset.sum"); !g.Generated || g.Doc != "The sum of nothing." || !strings.HasPrefix(g.Signature, "def Finset.sum ") {
		t.Errorf("generated Finset.sum: %+v", g)
	}
	if g := mustLookup(t, lib, "Finset.sum_existing"); g.Generated {
		t.Errorf("existing twin marked generated")
	}
	if g := mustLookup(t, lib, "AddMonoid'.zero_add_eq"); !reflect.DeepEqual(g.StatementDeps, []string{"AddMonoid'"}) {
		t.Errorf("twin statement deps %q", g.StatementDeps)
	}
}

func TestGuessAdditiveName(t *testing.T) {
	for in, want := range map[string]string{
		"prod_comm":        "sum_comm",
		"Monoid":           "AddMonoid",
		"CommMonoid":       "AddCommMonoid",
		"LeftCancelMonoid": "AddLeftCancelMonoid",
		"mul_one":          "add_zero",
		"one_le_mul":       "nonneg_add",
		"inv_inv":          "neg_neg",
		"div_self'":        "sub_self'",
		"HPow":             "HSMul",
		"zpow_natCast":     "zsmul_natCast",
		"Multipliable":     "Summable",
		"tprod_one":        "tsum_zero",
		"IsUnit":           "IsAddUnit",
		"isSquare_iff":     "even_iff",
		"orderOf_one":      "addOrderOf_zero",
		"DivisionMonoid":   "SubtractionMonoid",
		"npowRec":          "nsmulRec",
		"mulSupport":       "support",
	} {
		if got := GuessAdditiveName(in); got != want {
			t.Errorf("GuessAdditiveName(%q) = %q, want %q", in, got, want)
		}
	}
	got := splitCase("InvHMulLEConjugate₂SMul_ne_top")
	want := []string{"Inv", "HMul", "LE", "Conjugate₂", "SMul", "_", "ne", "_", "top"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("splitCase = %q", got)
	}
}

func TestCacheWarmStart(t *testing.T) {
	dir := writeTree(t, map[string]string{"lakefile.toml": "", "A.lean": resolutionSrc, "B/C.lean": "theorem c : Foo.bar = 1 := Foo.baz"})
	cache := t.TempDir()
	cold := load(t, dir, cache)
	packs, _ := filepath.Glob(filepath.Join(cache, "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("cache files %v", packs)
	}
	warm := load(t, dir, cache)
	var a, b bytes.Buffer
	WriteDecls(&a, cold.Decls())
	WriteDecls(&b, warm.Decls())
	if a.String() != b.String() {
		t.Errorf("warm start differs from cold parse")
	}
	snaps, _ := filepath.Glob(filepath.Join(cache, "*.lib"))
	if len(snaps) != 1 {
		t.Fatalf("snapshot files %v", snaps)
	}
	for _, f := range append(packs, snaps...) {
		if err := os.WriteFile(f, []byte("garbage"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var logged []string
	ws, _ := Discover(dir, nil)
	again, err := Load(context.Background(), ws, Options{CacheDir: cache, Logf: func(f string, args ...any) { logged = append(logged, f) }})
	if err != nil || len(again.Decls()) != len(cold.Decls()) || len(logged) != 2 {
		t.Errorf("corrupt cache: err %v, %d decls, logs %q", err, len(again.Decls()), logged)
	}
}

func TestUpdateAndRemoveFile(t *testing.T) {
	dir := writeTree(t, map[string]string{"lakefile.lean": "", "A.lean": resolutionSrc, "B.lean": "theorem usesBar : Foo.bar = 1 := Foo.baz\n"})
	lib := load(t, dir, "")
	b := filepath.Join(dir, "B.lean")
	n := len(lib.Decls())
	nl, delta := lib.UpdateFile(b, []byte("theorem usesBar : Foo.bar = 2 := sorry\n@[to_additive] theorem prod_new : Foo.qux = 1 := rfl\n"))
	if len(delta.Added) != 2 || len(delta.Changed) != 1 || len(delta.Removed) != 0 {
		t.Errorf("delta added %q changed %q removed %q", names(delta.Added), names(delta.Changed), names(delta.Removed))
	}
	if _, ok := lib.Lookup("prod_new"); ok {
		t.Errorf("old snapshot sees the update")
	}
	if d := mustLookup(t, nl, "sum_new"); !d.Generated || !reflect.DeepEqual(d.StatementDeps, []string{"Foo.qux"}) {
		t.Errorf("sum_new: %+v", d)
	}
	if got := len(nl.Decls()); got != n+2 {
		t.Errorf("%d decls after update, want %d", got, n+2)
	}
	if got := names(nl.UsedBy("Foo.qux")); !reflect.DeepEqual(got, []string{"prod_new", "sum_new"}) {
		t.Errorf("UsedBy(Foo.qux) = %q", got)
	}
	// A second update of the same file replaces the overlay entry.
	nl2, _ := nl.UpdateFile(b, []byte("def only := 1\n"))
	if _, ok := nl2.Lookup("prod_new"); ok {
		t.Errorf("stale overlay entry")
	}
	mustLookup(t, nl2, "only")
	// A new file outside the indexed set.
	nl3, d3 := nl2.UpdateFile(filepath.Join(dir, "New.lean"), []byte("def fresh := Foo.bar\n"))
	if len(d3.Added) != 1 || mustLookup(t, nl3, "fresh").Module != "New" {
		t.Errorf("new file: %+v", d3)
	}
	rl, rd := nl3.RemoveFile(filepath.Join(dir, "A.lean"))
	if _, ok := rl.Lookup("Foo.bar"); ok || len(rd.Removed) == 0 {
		t.Errorf("remove: %d removed", len(rd.Removed))
	}
	if _, ok := nl3.Lookup("Foo.bar"); !ok {
		t.Errorf("remove changed the previous snapshot")
	}
	// Many updates compact the overlay into the base.
	cur := rl
	for i := 0; i < maxOverlay+5; i++ {
		cur, _ = cur.UpdateFile(filepath.Join(dir, "Gen", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".lean"), []byte("def g := 1\n"))
	}
	if cur.over != nil && len(cur.shadow) > maxOverlay {
		t.Errorf("overlay not compacted: %d", len(cur.shadow))
	}
	mustLookup(t, cur, "only")
}

func TestDiscover(t *testing.T) {
	home := t.TempDir()
	dir := writeTree(t, map[string]string{
		"lean-toolchain":              "leanprover/lean4:v4.17.0\n",
		"lakefile.lean":               "",
		"Proj/A.lean":                 "def a := 1",
		"Proj/Sub/B.lean":             "def b := 1",
		".lake/build/ir/X.lean":       "def built := 1",
		".lake/packages/dep/Dep.lean": "def dep := 1",
		"build/Y.lean":                "def y := 1",
		".hidden/Z.lean":              "def z := 1",
		"notes.txt":                   "",
		"../extra/E.lean":             "",
	})
	tc := filepath.Join(home, "toolchains", "leanprover--lean4---v4.17.0", "src", "lean", "Init")
	os.MkdirAll(tc, 0o755)
	os.WriteFile(filepath.Join(tc, "Prelude.lean"), []byte("inductive Nat | zero | succ (n : Nat)"), 0o644)
	extra := writeTree(t, map[string]string{"Ext/E.lean": "def ext := Nat.zero"})
	ws, err := DiscoverWith(filepath.Join(dir, "Proj", "Sub"), []string{extra}, home)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Dir != dir || ws.Toolchain != "leanprover/lean4:v4.17.0" {
		t.Errorf("workspace %s toolchain %q", ws.Dir, ws.Toolchain)
	}
	var pkgs []string
	for _, r := range ws.Roots {
		pkgs = append(pkgs, r.Package)
	}
	if want := []string{"", "dep", "lean4", filepath.Base(extra)}; !reflect.DeepEqual(pkgs, want) {
		t.Errorf("roots %q, want %q", pkgs, want)
	}
	lib, err := Load(context.Background(), ws, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range lib.Decls() {
		got = append(got, d.Module+":"+d.Name)
	}
	want := []string{"Proj.A:a", "Proj.Sub.B:b", "Dep:dep", "Ext.E:ext", "Init.Prelude:Nat", "Init.Prelude:Nat.zero", "Init.Prelude:Nat.succ"}
	if strings.Join(sorted(got), ",") != strings.Join(sorted(want), ",") {
		t.Errorf("decls %q, want %q", got, want)
	}
	if d := mustLookup(t, lib, "ext"); !reflect.DeepEqual(d.ProofDeps, []string{"Nat.zero"}) || !d.User {
		t.Errorf("ext: %+v", d)
	}
	if d := mustLookup(t, lib, "dep"); d.User || d.Package != "dep" {
		t.Errorf("dep: %+v", d)
	}
	if _, err := Discover(filepath.Join(dir, "missing"), nil); err == nil {
		t.Errorf("missing dir accepted")
	}
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

func TestCorpusRoundTrip(t *testing.T) {
	dir := writeTree(t, map[string]string{"lakefile.lean": "", "A.lean": resolutionSrc})
	lib := load(t, dir, "")
	var buf bytes.Buffer
	if err := WriteDecls(&buf, lib.Decls()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "null") {
		t.Errorf("JSONL contains null: %s", buf.String())
	}
	back, err := ReadCorpus(bytes.NewReader(buf.Bytes()), "dump")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(lib.Decls()) || back[0].Package != "dump" || back[0].Name != lib.Decls()[0].Name {
		t.Errorf("round trip: %d decls", len(back))
	}
	_, err = ReadCorpus(strings.NewReader("{\"name\":\"a\"}\n\n{broken\n"), "x")
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad line error: %v", err)
	}
	ds, err := ReadCorpus(strings.NewReader(`{"name":"x","kind":"def","informal":"an x"}`), "x")
	if err != nil || len(ds) != 1 || ds[0].Attrs == nil || ds[0].Informal != "an x" {
		t.Errorf("minimal record: %v %+v", err, ds)
	}
	if _, err := ReadCorpus(strings.NewReader(`{"kind":"def"}`), "x"); err == nil {
		t.Errorf("nameless record accepted")
	}
}

func TestOddFilesInWorkspace(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"lakefile.lean": "",
		"Empty.lean":    "",
		"Bom.lean":      "\xef\xbb\xbfdef bom := 1\n",
		"Crlf.lean":     "def crlf := 1\r\ntheorem crlf2 : crlf = 1 := rfl\r\n",
		"Latin1.lean":   "-- caf\xe9\ndef latin := 1\n",
		"Broken.lean":   "theorem broken : \n/- never closed\n",
	})
	lib := load(t, dir, t.TempDir())
	for _, n := range []string{"bom", "crlf", "crlf2", "latin", "broken"} {
		mustLookup(t, lib, n)
	}
	if d := mustLookup(t, lib, "crlf2"); !reflect.DeepEqual(d.StatementDeps, []string{"crlf"}) || d.Range.Start.Line != 1 {
		t.Errorf("crlf2: %+v", d)
	}
	var msgs []string
	errs := 0
	for _, p := range lib.Problems() {
		msgs = append(msgs, filepath.Base(p.File)+": "+p.Msg)
		if p.Error {
			errs++
		}
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"Empty.lean: empty file", "Bom.lean: byte order mark removed", "Crlf.lean: CRLF line endings",
		"Latin1.lean: invalid UTF-8 (first at line 1) replaced by U+FFFD", "Broken.lean: line 2: unterminated block comment"} {
		if !strings.Contains(joined, want) {
			t.Errorf("problems lack %q:\n%s", want, joined)
		}
	}
	if errs != 1 {
		t.Errorf("%d errors, want 1:\n%s", errs, joined)
	}
}

// TestOneNamePerFile checks the counting rule: generated names (anonymous
// instances, notations) that repeat in a file get Lean's `_1` suffix, and a
// repeated explicit name is kept once with a warning.
func TestOneNamePerFile(t *testing.T) {
	dir := writeTree(t, map[string]string{"lakefile.lean": "-- lake", "A.lean": `
class Foo (α : Type) where x : α
instance : Foo Nat := ⟨0⟩
instance : Foo Nat := ⟨1⟩
instance : Foo Nat := ⟨2⟩
section
local notation "σ" => Foo.x
end
section
local notation "σ" => Foo.x
end
theorem t : True := trivial
theorem t : True := trivial
`})
	lib := load(t, dir, "")
	var names []string
	for _, d := range lib.Decls() {
		names = append(names, d.Name)
	}
	want := []string{"Foo", "Foo.mk", "Foo.x", "instFooNat", "instFooNat_1", "instFooNat_2", "«termσ»", "«termσ_1»", "t"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("names = %q, want %q", names, want)
	}
	var msgs []string
	for _, p := range lib.Problems() {
		msgs = append(msgs, p.Msg)
		if p.Error {
			t.Errorf("duplicate reported as an error: %s", p.Msg)
		}
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "line 13: t already declared in this file (line 12)") {
		t.Errorf("problems = %q", msgs)
	}
}

// declSet renders a library's declarations (name, kind, module, file,
// dependencies) for comparisons between two loads.
func declSet(lib *Library) []string {
	var out []string
	for _, d := range lib.Decls() {
		out = append(out, declString(d))
	}
	sort.Strings(out)
	return out
}

// declString renders what the comparisons look at in one declaration.
func declString(d *Decl) string {
	return fmt.Sprintf("%s %s %s %s %q %q %s", d.Name, d.Kind, d.Module, d.File, d.StatementDeps, d.ProofDeps, d.Twin)
}

// symlinkWorkspace builds a workspace with one file of its own whose
// .lake/packages/mathlib is a symbolic link to pkg, and whose other
// packages are links to pkg's own packages (as Lake lays them out).
func symlinkWorkspace(t *testing.T, pkg string) string {
	t.Helper()
	ws := writeTree(t, map[string]string{"lakefile.lean": "-- lake\n", "User.lean": "theorem mine : True := trivial\n"})
	if err := os.MkdirAll(filepath.Join(ws, ".lake", "packages"), 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := Discover(pkg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range real.Roots {
		name := r.Package
		if name == "" {
			name = "mathlib"
		}
		if err := os.Symlink(r.Dir, filepath.Join(ws, ".lake", "packages", name)); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// pkgDecls keeps the declarations of one package, keyed without the package.
func pkgDecls(lib *Library, pkg string) []string {
	var out []string
	for _, d := range lib.Decls() {
		if d.Package == pkg {
			out = append(out, declString(d))
		}
	}
	sort.Strings(out)
	return out
}

// TestSymlinkedPackage checks that a .lake/packages/mathlib that is a
// symbolic link indexes the same declarations as the real directory (the
// testdata workspace, and the DRIFT_MATHLIB tree when set), that a root
// given through a link is walked, and that link cycles end.
func TestSymlinkedPackage(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	real := []string{filepath.Join("..", "..", "testdata", "workspace")}
	if m := os.Getenv("DRIFT_MATHLIB"); m != "" {
		real = append(real, m)
	}
	for _, dir := range real {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			direct := load(t, dir, "")
			ws := symlinkWorkspace(t, dir)
			linked := load(t, ws, "")
			want := pkgDecls(direct, "")
			got := pkgDecls(linked, "mathlib")
			for _, r := range direct.Workspace().Roots[1:] {
				want = append(want, pkgDecls(direct, r.Package)...)
				got = append(got, pkgDecls(linked, r.Package)...)
			}
			if len(want) == 0 || !reflect.DeepEqual(got, want) {
				for i := range want {
					if i < len(got) && got[i] != want[i] {
						t.Errorf("first difference:\n link   %s\n direct %s", got[i], want[i])
						break
					}
				}
				t.Fatalf("through the link: %d declarations, directly: %d", len(got), len(want))
			}
			if _, ok := linked.Lookup("mine"); !ok {
				t.Error("the workspace's own file is missing")
			}
			// An editor may name a package file by its real path.
			f := direct.Files()[len(direct.Files())/2]
			edited, _ := linked.UpdateFile(f, []byte("theorem edited_through_real_path : True := trivial\n"))
			if len(edited.Files()) != len(linked.Files()) {
				t.Errorf("update by real path added a file: %d files, was %d", len(edited.Files()), len(linked.Files()))
			}
			if d, ok := edited.Lookup("edited_through_real_path"); !ok || d.Package == "" {
				t.Errorf("update by real path: %+v, %v", d, ok)
			}
			// --root given as a link to the tree.
			link := filepath.Join(t.TempDir(), "link")
			abs, _ := filepath.Abs(dir)
			if err := os.Symlink(abs, link); err != nil {
				t.Fatal(err)
			}
			viaLink := load(t, link, "")
			if got, want := declSet(viaLink), declSet(direct); len(want) == 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("root through a link: %d declarations, want %d", len(got), len(direct.Decls()))
			}
		})
	}
}

// TestSymlinkCycle checks that link loops and links to trees already
// walked neither hang nor index a file twice, and that Dirs lists the
// directories reached through links.
func TestSymlinkCycle(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	dir := writeTree(t, map[string]string{"lakefile.lean": "-- lake\n", "A/B.lean": "def b : Nat := 1\n", "Other/C.lean": "def c : Nat := 2\n"})
	for link, target := range map[string]string{
		"A/up":     "..",                           // loop to the workspace
		"A/self":   "self",                         // loop to itself (dangling)
		"A/again":  filepath.Join(dir, "A"),        // the tree it lives in
		"Linked":   filepath.Join(dir, "Other"),    // second path to a walked tree
		"Dangling": filepath.Join(dir, "missing"),  // broken link
		"D.lean":   filepath.Join(dir, "A/B.lean"), // second path to a file
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	lib := load(t, dir, "")
	var files []string
	for _, f := range lib.Files() {
		rel, _ := filepath.Rel(dir, f)
		files = append(files, filepath.ToSlash(rel))
	}
	// Each real file once, by the first path the sorted walk reaches.
	if want := []string{"A/B.lean", "Other/C.lean", "lakefile.lean"}; !reflect.DeepEqual(files, want) {
		t.Errorf("files = %q, want %q", files, want)
	}
	ws, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := ws.Dirs()
	if err != nil || len(dirs) != 3 {
		t.Errorf("Dirs = %q, %v; want the workspace, A and Other", dirs, err)
	}
}

// TestEmptyRoot checks that a root without Lean files is reported.
func TestEmptyRoot(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	dir := writeTree(t, map[string]string{"lakefile.lean": "-- lake\n"})
	empty := t.TempDir()
	ws, err := Discover(dir, []string{empty})
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	lib, err := Load(context.Background(), ws, Options{Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	if er := lib.EmptyRoots(); len(er) != 1 || er[0].Dir != empty {
		t.Errorf("EmptyRoots = %+v", er)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], empty+" yields no Lean files") {
		t.Errorf("log = %q", logged)
	}
}

// TestNamesUniquePerFile checks the counting rule on real trees: no two
// declarations share package, file and name, so every consumer that keys
// declarations that way (retrieval's documents) counts what `index` counts.
func TestNamesUniquePerFile(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	trees := []string{filepath.Join("..", "..", "testdata", "workspace")}
	if m := os.Getenv("DRIFT_MATHLIB"); m != "" {
		trees = append(trees, m)
	}
	for _, dir := range trees {
		lib := load(t, dir, "")
		seen := map[string]bool{}
		for _, d := range lib.Decls() {
			k := d.Package + ":" + d.File + "\x1f" + d.Name
			if seen[k] || d.Name == "" {
				t.Fatalf("%s: %q declared twice in %s", dir, d.Name, d.File)
			}
			seen[k] = true
		}
	}
}

// TestNotationToken reads the notations that are one token standing for a
// constant, the other one-atom notations (OneAtom) and the constants
// notations stand for by their first atom, from a fresh build and from the
// snapshot.
func TestNotationToken(t *testing.T) {
	dir := writeTree(t, map[string]string{"lakefile.lean": "", "A.lean": `
def NNReal := Nat
def PNat := Nat
def Foo (n : Nat) := n
namespace NNReal
scoped notation "ℝ≥0" => NNReal
end NNReal
notation "ℕ+" => PNat
local notation "ℚ≥0" => PNat
notation "ℤ[i]" => Foo 2
notation "ω_ " o => Foo o
notation "ℂ≥0" => NNReal
infix:50 " ∣ₘ " => Foo
prefix:max "√ₘ" => Foo
notation:max "ℤ≥0" => PNat
@[inherit_doc] scoped[Foo] notation:9000 R "[X]" => Foo R
notation:9000 R "[Y]" => Foo 2
notation R:max "⟦Z⟧" => _root_.Foo R
infixr:25 " →ₘ " => Foo
infixl:25 " →ₙ " => Foo 2
notation "∂ₘ" => PNat
prefix:100 "∂ₘ" => Foo
scoped[Prob] notation:max P "[" X "]" => Foo P
namespace Bar
scoped infixl:80 " ⊚ " => Foo
end Bar
infixl:max " ⊛ " => Foo
`, "B.lean": `
def Other := Nat
notation "ℂ≥0" => Other
`})
	cache := t.TempDir()
	for _, round := range []string{"built", "from the snapshot"} {
		lib := load(t, dir, cache)
		for tok, want := range map[string]string{"ℝ≥0": "NNReal", "ℕ+": "PNat", "ℤ≥0": "PNat", "ℚ≥0": "", "ℤ[i]": "", "ω_": "", "ℂ≥0": "", "ℝ": "",
			"∣ₘ": "", "√ₘ": "", "∂ₘ": ""} {
			if got, ok := lib.NotationToken(tok); got != want || ok != (want != "") {
				t.Errorf("%s: NotationToken(%q) = %q, %v; want %q", round, tok, got, ok, want)
			}
		}
		for tok, want := range map[string]bool{"∣ₘ": true, "√ₘ": true, "ω_": true, "ℤ[i]": true, "ℝ≥0": false, "+": false} {
			if got := lib.OneAtom(tok); got != want {
				t.Errorf("%s: OneAtom(%q) = %v, want %v", round, tok, got, want)
			}
		}
		for atom, want := range map[string]string{"[X]": "Foo", "[Y]": "", "⟦Z⟧": "Foo", "ℝ≥0": "", "ω_": ""} {
			if got, ok := lib.PostfixNotation(atom); got != want || ok != (want != "") {
				t.Errorf("%s: PostfixNotation(%q) = %q, %v; want %q", round, atom, got, ok, want)
			}
		}
		for atom, want := range map[string]string{"→ₘ": "Foo", "→ₙ": "", "∣ₘ": "Foo", "√ₘ": "", "[X]": ""} {
			if got, ok := lib.InfixNotation(atom); got != want || ok != (want != "") {
				t.Errorf("%s: InfixNotation(%q) = %q, %v; want %q", round, atom, got, ok, want)
			}
		}
		for _, tc := range []struct {
			atom  string
			opens []string
			want  string
		}{
			{"→ₘ", nil, "Foo infixr 25"}, {"∣ₘ", nil, "Foo infix 50"}, {"→ₙ", nil, ""}, {"√ₘ", nil, ""},
			{"⊚", nil, ""}, {"⊚", []string{"Bar"}, "Foo infixl 80"}, {"⊛", nil, ""}, // infixl:max: no number
		} {
			got := ""
			if target, op, ok := lib.InfixOperator(tc.atom, &leansrc.Scope{Opens: tc.opens}); ok {
				got = fmt.Sprintf("%s %s %d", target, map[leansrc.Fixity]string{leansrc.Infix: "infix", leansrc.Infixl: "infixl", leansrc.Infixr: "infixr"}[op.Fixity], op.Prec)
			}
			if got != tc.want {
				t.Errorf("%s: InfixOperator(%q, opens %v) = %q, want %q", round, tc.atom, tc.opens, got, tc.want)
			}
		}
		for _, tc := range []struct {
			atom  string
			opens []string
			want  string
		}{
			{"ℝ≥0", nil, "NNReal/NNReal"}, {"ℝ≥0", []string{"NNReal"}, ""}, {"[X]", nil, "Foo/Foo"},
			{"[X]", []string{"Foo"}, ""}, {"ℕ+", nil, ""}, {"ℚ≥0", nil, ""}, {"+", nil, ""},
			// Prob's `P "[" X "]"` in force reads `μ[X]` too
			{"[X]", []string{"Prob"}, ""},
		} {
			targets, nss := lib.InactiveNotation(tc.atom, &leansrc.Scope{Opens: tc.opens})
			got := ""
			for i := range targets {
				got += targets[i] + "/" + nss[i]
			}
			if got != tc.want {
				t.Errorf("%s: InactiveNotation(%q) with opens %v = %q, want %q", round, tc.atom, tc.opens, got, tc.want)
			}
		}
		if !lib.PieceInForce("[X]", &leansrc.Scope{Opens: []string{"Prob"}}) || lib.PieceInForce("[X]", &leansrc.Scope{}) {
			t.Errorf("%s: PieceInForce([X]) should hold under open Prob only", round)
		}
		for mod, want := range map[string]bool{"A": true, "B": true, "C": false, "A.B": false} {
			if got := lib.HasModule(mod); got != want {
				t.Errorf("%s: HasModule(%q) = %v, want %v", round, mod, got, want)
			}
		}
		for atom, want := range map[string]string{"ω_": "Foo", "ℂ≥0": "NNReal Other", "ℝ≥0": "NNReal", "∣ₘ": "Foo", "+": ""} {
			got := lib.NotationTargets(atom)
			slices.Sort(got)
			if strings.Join(got, " ") != want {
				t.Errorf("%s: NotationTargets(%q) = %q, want %q", round, atom, got, want)
			}
		}
	}
}
