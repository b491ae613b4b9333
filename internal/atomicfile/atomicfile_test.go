package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.bin")
	for _, content := range []string{"first", "second, longer"} {
		if err := Write(path, 0o640, []byte(content[:3]), []byte(content[3:])); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	if runtime.GOOS != "windows" {
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", st.Mode().Perm())
		}
	}
	if tmps, _ := filepath.Glob(TempPattern(path)); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// TestWriteFuncFails checks that a failing fill leaves the old file and no
// temporary file behind.
func TestWriteFuncFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.bin")
	if err := Write(path, 0o600, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFunc(path, 0o600, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("path holds %q after a failed write, want old", got)
	}
	if tmps, _ := filepath.Glob(TempPattern(path)); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// TestRemovesStaleTemps checks that temporary files left by a killed
// writer are removed by the next write, and a fresh one (another process
// writing now) is kept. (It was internal/library's
// TestWriteAtomicRemovesStaleTemps.)
func TestRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "library-x.lib")
	stale, fresh := filepath.Join(dir, ".tmp-library-x.lib-1"), filepath.Join(dir, ".tmp-library-x.lib-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-AbandonedAfter - time.Minute)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, 0o600, []byte("a"), []byte("b")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "ab" {
		t.Errorf("written %q, %v", b, err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary file kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temporary file removed: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if len(left) != 1 {
		t.Errorf("temporary files left: %q", left)
	}
}
