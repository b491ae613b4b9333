package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/uri"
)

// TestEndToEndCommentsFollowLibrary: with the real index, a comment naming
// a declaration nobody wrote is flagged; once another open file declares
// it, the index applies the buffer, the backend rebuilds its checker of
// names in comments and the server republishes: the diagnostic clears.
func TestEndToEndCommentsFollowLibrary(t *testing.T) {
	s := startReal(t, nil, nil)
	const ref = "`DriftExample.Algebra.drift_live_ref`"
	if err := s.Edit(s.ctx, s.u, "end DriftExample.Demo", "/-- See "+ref+". -/\ntheorem drift_live_doc : True := trivial\n\nend DriftExample.Demo"); err != nil {
		t.Fatal(err)
	}
	flagged := func() bool {
		for _, d := range s.Diagnostics(s.u) {
			if m, _ := d["message"].(string); strings.Contains(m, ref) {
				return true
			}
		}
		return false
	}
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	if err := s.Wait(ctx, flagged); err != nil {
		t.Fatalf("the unknown name is not flagged: %v; diagnostics %v", err, s.Diagnostics(s.u))
	}
	path := filepath.Join(workspaceDir, "DriftExample", "Algebra.lean")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	au := string(uri.File(path))
	if err := s.Open(s.ctx, au, string(text)); err != nil {
		t.Fatal(err)
	}
	if err := s.Edit(s.ctx, au, "namespace DriftExample.Algebra\n", "namespace DriftExample.Algebra\n\ntheorem drift_live_ref : True := trivial\n"); err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(ctx, func() bool { return !flagged() }); err != nil {
		t.Fatalf("the diagnostic did not clear after the library changed: %v", err)
	}
}
