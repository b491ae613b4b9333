package mapfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, content string }{
		{"empty", ""},
		{"small", "snapshot"},
		{"page", string(make([]byte, 5000))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.content {
				t.Errorf("got %d bytes, want %d", len(b), len(tc.content))
			}
			Close(b)
		})
	}
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}
