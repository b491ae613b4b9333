package library

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestIncrementalEqualsFresh applies random sequences of UpdateFile and
// RemoveFile to a library (editing, truncating, emptying, restoring,
// deleting and adding files, writing each change to disk too) and checks
// that the result has the same declarations, resolved names, dependency
// lists, to_additive twins and used-by lists as Load on the final files,
// and that a consumer applying only the returned Deltas holds exactly the
// final declarations.
// It runs on testdata/workspace and, with DRIFT_MATHLIB set, on a sample of
// Mathlib files. DRIFT_PROPERTY_SEED reproduces a run.
func TestIncrementalEqualsFresh(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	seed := time.Now().UnixNano()
	if s := os.Getenv("DRIFT_PROPERTY_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d", seed)
	trees := []struct {
		name, dir   string
		runs, steps int
	}{{"testdata", filepath.Join("..", "..", "testdata", "workspace"), 30, 12}}
	if m := os.Getenv("DRIFT_MATHLIB"); m != "" {
		trees = append(trees, struct {
			name, dir   string
			runs, steps int
		}{"mathlib", m, 2, 8})
	}
	for _, tr := range trees {
		t.Run(tr.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			for run := 0; run < tr.runs; run++ {
				dir := copyLean(t, tr.dir, tr.name == "mathlib", rng)
				cache := ""
				if run%2 == 1 { // every other run edits a library opened from its snapshot
					cache = t.TempDir()
					load(t, dir, cache)
				}
				lib := load(t, dir, cache)
				mirror := newMirror(lib)
				// every third run defers the resolution of dependents and
				// drains it in random small batches between the edits
				deferred := run%3 == 2
				files := lib.Files()
				originals := map[string][]byte{}
				for _, p := range files {
					originals[p], _ = os.ReadFile(p)
				}
				var log []string
				for step := 0; step < tr.steps; step++ {
					p := files[rng.Intn(len(files))]
					var op string
					switch k := rng.Intn(7); {
					case k == 0:
						if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
							t.Fatal(err)
						}
						var d Delta
						if deferred {
							lib, d = lib.RemoveFileDeferred(p)
						} else {
							lib, d = lib.RemoveFile(p)
						}
						mirror.apply(d)
						op = "remove"
					case k == 1: // a new file using names of the others
						p = filepath.Join(dir, "Extra", fmt.Sprintf("New%d.lean", step))
						lib = write(t, lib, mirror, deferred, p, []byte(newFile(lib, step, rng)))
						files = append(files, p)
						op = "add"
					case k == 2: // restore the original text
						lib = write(t, lib, mirror, deferred, p, originals[p])
						op = "restore"
					default:
						b, err := os.ReadFile(p)
						if err != nil {
							b = nil
						}
						b = mutate(b, rng)
						lib = write(t, lib, mirror, deferred, p, b)
						op = fmt.Sprintf("update (%d bytes)", len(b))
					}
					log = append(log, op+" "+strings.TrimPrefix(p, dir))
					if deferred {
						var d Delta
						lib, d = lib.ResolvePending(rng.Intn(4))
						mirror.apply(d)
					}
				}
				for lib.Pending() {
					var d Delta
					lib, d = lib.ResolvePending(1 + rng.Intn(8))
					mirror.apply(d)
				}
				fresh := load(t, dir, "")
				if run == 0 {
					t.Logf("%d files, %d declarations", len(fresh.Files()), len(fresh.Decls()))
				}
				if diff := compareLibs(lib, fresh) + mirror.diff(lib); diff != "" {
					t.Fatalf("run %d: incremental ≠ fresh after\n  %s\n%s", run, strings.Join(log, "\n  "), diff)
				}
			}
		})
	}
}

// write stores content at p and applies it to lib (with UpdateFileDeferred
// when deferred) and its Delta to m.
func write(t *testing.T, lib *Library, m deltaMirror, deferred bool, p string, content []byte) *Library {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	update := lib.UpdateFile
	if deferred {
		update = lib.UpdateFileDeferred
	}
	nl, d := update(p, content)
	m.apply(d)
	return nl
}

// deltaMirror is what a consumer driven only by Deltas holds: declarations
// by package, file and name.
type deltaMirror map[string]*Decl

func mirrorKey(d *Decl) string { return d.Package + ":" + d.File + "\x1f" + d.Name }

func newMirror(l *Library) deltaMirror {
	m := deltaMirror{}
	for _, d := range l.Decls() {
		m[mirrorKey(d)] = d
	}
	return m
}

// apply updates the mirror with a Delta.
func (m deltaMirror) apply(d Delta) {
	for _, x := range d.Removed {
		delete(m, mirrorKey(x))
	}
	for _, x := range append(d.Added, d.Changed...) {
		m[mirrorKey(x)] = x
	}
}

// diff describes how the mirror differs from l's declarations.
func (m deltaMirror) diff(l *Library) string {
	var a, b []string
	for _, d := range m {
		a = append(a, declString(d))
	}
	for _, d := range l.Decls() {
		b = append(b, declString(d))
	}
	sort.Strings(a)
	sort.Strings(b)
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return "declarations known from the Deltas:\n" + setDiff(a, b)
}

// newFile is the text of a new file whose declarations (a theorem with a
// to_additive twin, a notation, an export) use names of lib.
func newFile(lib *Library, n int, rng *rand.Rand) string {
	ds := lib.Decls()
	use := func() string {
		if len(ds) == 0 {
			return "True"
		}
		return ds[rng.Intn(len(ds))].Name
	}
	return fmt.Sprintf(`namespace New%[1]d
/-- A product. -/
@[to_additive]
theorem mul_thing%[1]d : %[2]s = %[3]s := sorry
notation "ν%[1]d" => %[2]s
def usesNotation : Nat := ν%[1]d
end New%[1]d
theorem usesTwin : New%[1]d.add_thing%[1]d = %[3]s := sorry
`, n, use(), use())
}

// mutate edits Lean text: drops a block of lines, duplicates one, renames
// the declarations of a line, empties the file or keeps it.
func mutate(b []byte, rng *rand.Rand) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < 2 {
		return []byte("theorem fresh_name : True := trivial\n")
	}
	i := rng.Intn(len(lines))
	switch rng.Intn(5) {
	case 0: // drop a block
		j := min(len(lines), i+1+rng.Intn(30))
		lines = append(lines[:i:i], lines[j:]...)
	case 1: // rename what a line declares
		lines[i] = strings.NewReplacer("theorem ", "theorem renamed_", "def ", "def renamed_", "lemma ", "lemma renamed_").Replace(lines[i])
	case 2: // a new declaration using names of the file
		lines = append(lines, fmt.Sprintf("\ntheorem added_%d : True := trivial\n", rng.Intn(1000)))
	case 3:
		return nil
	}
	return []byte(strings.Join(lines, ""))
}

// copyLean copies the .lean files and Lake markers of src (for Mathlib a
// random sample of 300 files of Mathlib/Algebra and Mathlib/Order) into a
// new directory.
func copyLean(t *testing.T, src string, sample bool, rng *rand.Rand) string {
	t.Helper()
	ws, err := Discover(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := ws.walk()
	if err != nil {
		t.Fatal(err)
	}
	files := ls.files
	if sample {
		var keep []sourceFile
		for _, f := range files {
			if strings.HasPrefix(f.rel, "Mathlib/Algebra/Group/") || strings.HasPrefix(f.rel, "Mathlib/Order/Basic") || strings.HasPrefix(f.rel, "Mathlib/Logic/") {
				keep = append(keep, f)
			}
		}
		rng.Shuffle(len(keep), func(i, j int) { keep[i], keep[j] = keep[j], keep[i] })
		files = keep[:min(len(keep), 150)]
	}
	dst := t.TempDir()
	if err := os.WriteFile(filepath.Join(dst, "lakefile.lean"), []byte("-- lake\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(ws.Dir, f.abs)
		b, err := os.ReadFile(f.abs)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// compareLibs describes the first differences between two libraries:
// files, declarations with their edges and twins, name lookups, used-by
// lists.
func compareLibs(inc, fresh *Library) string {
	var out []string
	if a, b := inc.Files(), fresh.Files(); !reflect.DeepEqual(a, b) {
		out = append(out, fmt.Sprintf("files: incremental %d, fresh %d", len(a), len(b)))
	}
	a, b := declSet(inc), declSet(fresh)
	if !reflect.DeepEqual(a, b) {
		out = append(out, "declarations:\n"+setDiff(a, b))
	}
	for _, d := range fresh.Decls() {
		x, ok := inc.Lookup(d.Name)
		y, _ := fresh.Lookup(d.Name)
		if !ok || x.File != y.File || x.Package != y.Package {
			out = append(out, fmt.Sprintf("Lookup(%s): incremental %v, fresh %s", d.Name, fileOf(x), fileOf(y)))
			break
		}
		if u, v := usedBy(inc, d.Name), usedBy(fresh, d.Name); !reflect.DeepEqual(u, v) {
			out = append(out, fmt.Sprintf("UsedBy(%s): incremental %q, fresh %q", d.Name, u, v))
			break
		}
	}
	return strings.Join(out, "\n")
}

func fileOf(d *Decl) string {
	if d == nil {
		return "none"
	}
	return d.Package + ":" + d.File
}

func usedBy(l *Library, name string) []string {
	var out []string
	for _, d := range l.UsedBy(name) {
		out = append(out, d.File+":"+d.Name)
	}
	sort.Strings(out)
	return out
}

// setDiff lists up to 10 lines only in a and only in b (both sorted).
func setDiff(a, b []string) string {
	inB := map[string]bool{}
	for _, x := range b {
		inB[x] = true
	}
	inA := map[string]bool{}
	for _, x := range a {
		inA[x] = true
	}
	var out []string
	for _, x := range a {
		if !inB[x] && len(out) < 10 {
			out = append(out, "  incremental only: "+x)
		}
	}
	for _, x := range b {
		if !inA[x] && len(out) < 20 {
			out = append(out, "  fresh only:       "+x)
		}
	}
	return strings.Join(out, "\n")
}
