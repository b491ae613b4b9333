package leanrepl

import (
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/settings"
)

// TestMemoryDefaultIsTheSetting: a Pool with a zero MemoryLimit and the
// setting repl.memoryMB left alone limit a REPL alike (they were 16 GiB and
// 8192 MB).
func TestMemoryDefaultIsTheSetting(t *testing.T) {
	if got, want := int64(DefaultMemoryLimit), int64(settings.Default().REPL.MemoryMB)<<20; got != want {
		t.Fatalf("DefaultMemoryLimit = %d bytes; the setting's default is %d bytes", got, want)
	}
}
