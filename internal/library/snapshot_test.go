package library

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dump renders everything a library serves: declarations (decls schema),
// problems, and lookups and used-by lists of every name.
func dump(l *Library) string {
	var b bytes.Buffer
	WriteDecls(&b, l.Decls())
	for _, p := range l.Problems() {
		b.WriteString(p.File + ": " + p.Msg + "\n")
	}
	for _, d := range l.Decls() {
		x, _ := l.Lookup(d.Name)
		b.WriteString(d.Name + " → " + x.File + " used by " + strings.Join(usedBy(l, d.Name), ",") + "\n")
	}
	return b.String()
}

// TestSnapshot checks the library snapshot: a warm start serves exactly
// what the cold build served; a corrupt, truncated or foreign-version
// snapshot is rebuilt (the corrupt ones with a log line), never served; an
// edited file makes it stale; a touched but unchanged file does not.
func TestSnapshot(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	dir := copyLean(t, filepath.Join("..", "..", "testdata", "workspace"), false, nil)
	cache := t.TempDir()
	ws, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	open := func() (*Library, []string) {
		t.Helper()
		var logged []string
		lib, err := Load(context.Background(), ws, Options{CacheDir: cache, Logf: func(f string, a ...any) { logged = append(logged, f) }})
		if err != nil {
			t.Fatal(err)
		}
		return lib, logged
	}
	cold, _ := open()
	want := dump(cold)
	snap := SnapshotPath(cache, ws)
	good, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	warm, logged := open()
	if got := dump(warm); got != want || len(logged) != 0 {
		t.Fatalf("warm start differs from the cold build (logs %q):\n%s", logged, firstLineDiff(got, want))
	}
	if !servedFromSnapshot(t, ws, cache) {
		t.Fatal("warm start did not use the snapshot")
	}

	damage := map[string]func([]byte) []byte{
		"flipped byte": func(b []byte) []byte { c := bytes.Clone(b); c[len(c)/2] ^= 0x55; return c },
		"truncated":    func(b []byte) []byte { return b[:len(b)*2/3] },
		"empty":        func([]byte) []byte { return nil },
		"foreign version": func(b []byte) []byte {
			c := bytes.Clone(b)
			c[len(snapMagic)]++ // the version varint
			return c
		},
	}
	for name, f := range damage {
		if err := os.WriteFile(snap, f(good), 0o644); err != nil {
			t.Fatal(err)
		}
		if servedFromSnapshot(t, ws, cache) {
			t.Errorf("%s: snapshot served", name)
		}
		lib, logged := open()
		if got := dump(lib); got != want {
			t.Errorf("%s: rebuilt library differs:\n%s", name, firstLineDiff(got, want))
		}
		if wantLog := name != "foreign version"; (len(logged) > 0) != wantLog {
			t.Errorf("%s: logs %q", name, logged)
		}
		if !servedFromSnapshot(t, ws, cache) {
			t.Errorf("%s: the snapshot was not rewritten", name)
		}
	}

	// A touched file with the same content keeps the snapshot valid.
	a := filepath.Join(dir, "DriftExample", "Algebra.lean")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(a, later, later); err != nil {
		t.Fatal(err)
	}
	if !servedFromSnapshot(t, ws, cache) {
		t.Error("touching a file made the snapshot stale")
	}
	open() // serves it and records the new time
	ls, _ := ws.walk()
	if lib, err := readSnapshot(SnapshotPath(cache, ws), ws, ls); err != nil || lib.touched {
		t.Errorf("after a start, the touched file still needs hashing (%v)", err)
	}
	// An edited file makes it stale, and the rebuild sees the edit.
	if err := os.WriteFile(a, []byte("theorem edited_in_place : True := trivial\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if servedFromSnapshot(t, ws, cache) {
		t.Error("an edited file did not make the snapshot stale")
	}
	lib, _ := open()
	if _, ok := lib.Lookup("edited_in_place"); !ok {
		t.Error("rebuild after an edit misses the new declaration")
	}
	// A new file too.
	if err := os.WriteFile(filepath.Join(dir, "New.lean"), []byte("def n : Nat := 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if servedFromSnapshot(t, ws, cache) {
		t.Error("a new file did not make the snapshot stale")
	}
}

// servedFromSnapshot reports whether the snapshot in cache matches the
// workspace's files now.
func servedFromSnapshot(t *testing.T, ws *Workspace, cache string) bool {
	t.Helper()
	ls, err := ws.walk()
	if err != nil {
		t.Fatal(err)
	}
	_, err = readSnapshot(SnapshotPath(cache, ws), ws, ls)
	return err == nil
}

func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return "got  " + g[i] + "\nwant " + w[i]
		}
	}
	return "lengths differ"
}

// FuzzReadSnapshot feeds readSnapshot damaged snapshots whose checksum
// was recomputed (the damage a checksum cannot catch): it must return an
// error or a library, never panic.
func FuzzReadSnapshot(f *testing.F) {
	// A fixed directory, so that inputs saved under testdata/fuzz replay
	// (the snapshot holds the workspace's paths); files are written only
	// when missing or different, as fuzz workers share it.
	dir := filepath.Join(os.TempDir(), "drift-fuzz-snapshot")
	for name, text := range map[string]string{"lakefile.lean": "-- lake\n", "A.lean": resolutionSrc,
		"B.lean": "/-- doc -/\n@[to_additive]\ntheorem mul_b : Foo.bar = 1 := Foo.baz\nnotation \"ν\" => Foo.bar\n"} {
		p := filepath.Join(dir, name)
		if b, err := os.ReadFile(p); err == nil && string(b) == text {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	cache := f.TempDir()
	ws, err := Discover(dir, nil)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := Load(context.Background(), ws, Options{CacheDir: cache}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(SnapshotPath(cache, ws))
	if err != nil {
		f.Fatal(err)
	}
	ls, err := ws.walk()
	if err != nil {
		f.Fatal(err)
	}
	head := len(snapMagic) + len(binary.AppendUvarint(nil, snapFormat())) // magic and version
	f.Add(good[head+12:])
	f.Fuzz(func(t *testing.T, body []byte) {
		b := append([]byte(nil), good[:head]...)
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(body, castagnoli))
		b = binary.LittleEndian.AppendUint64(b, uint64(len(body)))
		path := filepath.Join(t.TempDir(), "s.lib")
		if err := os.WriteFile(path, append(b, body...), 0o644); err != nil {
			t.Fatal(err)
		}
		if lib, err := readSnapshot(path, ws, ls); err == nil {
			_ = dump(lib)
		}
		if bytes.Equal(body, good[head+12:]) { // the seed itself must be served
			if _, err := readSnapshot(path, ws, ls); err != nil {
				t.Fatalf("the intact snapshot is refused: %v", err)
			}
		}
	})
}

// TestSnapshotPerRootSet checks that two processes on one workspace
// directory with different extra roots keep separate snapshots, so that a
// warm start of each serves its own declarations.
func TestSnapshotPerRootSet(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	dir := copyLean(t, filepath.Join("..", "..", "testdata", "workspace"), false, nil)
	extra := t.TempDir()
	if err := os.WriteFile(filepath.Join(extra, "Extra.lean"), []byte("def extraOnly : Nat := 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	plain, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	withExtra, err := Discover(dir, []string{extra})
	if err != nil {
		t.Fatal(err)
	}
	if SnapshotPath(cache, plain) == SnapshotPath(cache, withExtra) {
		t.Fatal("one snapshot file for two root sets")
	}
	load := func(ws *Workspace) *Library {
		t.Helper()
		lib, err := Load(context.Background(), ws, Options{CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		return lib
	}
	for range 2 { // cold, then warm from each one's snapshot
		if _, ok := load(plain).Lookup("extraOnly"); ok {
			t.Error("the plain workspace serves the extra root's declarations")
		}
		if _, ok := load(withExtra).Lookup("extraOnly"); !ok {
			t.Error("the workspace with the extra root lost its declarations")
		}
	}
}
