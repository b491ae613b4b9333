package app

import (
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestEndToEndCheckRealLean runs "Check this theorem" in the fake editor on
// the prelude workspace, with the real Lean 4.35.0 as lean.command (through
// DRIFT_LEAN) and no REPL: the diagnostics are Lean's own, at the right
// places in LSP coordinates (UTF-16 columns after a non-ASCII name), and the
// progress names the backend.
func TestEndToEndCheckRealLean(t *testing.T) {
	lean := leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	s := startIn(t, llmtest.Workspace(), map[string]string{"DRIFT_LEAN": lean}, root, "Stubs.lean")
	var view strings.Builder
	seen := map[string]bool{} // progress tokens of earlier checks
	for _, c := range []struct{ anchor, end string }{
		{"theorem add_comm'", "0 finding(s); checked by Lean (lean)"},
		{"theorem every_even", "2 finding(s); checked by Lean (lean)"},
		{"theorem zero_eq_nat", "1 finding(s); checked by Lean (lean)"},
	} {
		s.run(c.anchor, titleCheck)
		var end string
		if err := s.Wait(s.ctx, func() bool {
			for _, p := range s.Progresses("DRIFT: " + titleCheck) {
				if p.Ended && !seen[p.Token] {
					seen[p.Token], end = true, p.End
					return true
				}
			}
			return false
		}); err != nil {
			t.Fatal(err)
		}
		if end != c.end {
			t.Errorf("%s: progress ended with %q, want %q", c.anchor, end, c.end)
		}
		fmt.Fprintf(&view, "check: %s → %s\n", c.anchor, end)
	}
	diags := s.Diagnostics(s.u)
	var lines []string
	for _, d := range diags {
		r := d["range"].(map[string]any)
		st, en := r["start"].(map[string]any), r["end"].(map[string]any)
		lines = append(lines, fmt.Sprintf("%v:%v-%v:%v severity %v %v [%v]: %v", st["line"], st["character"], en["line"], en["character"],
			d["severity"], d["source"], d["code"], d["message"]))
	}
	sort.Strings(lines)
	view.WriteString(strings.Join(lines, "\n") + "\n")
	leantest.Golden(t, filepath.Join("testdata", "check-real-lean.golden"), view.String(), *update)
	// Lean's column for `Nat.Evn` counts αβ as two code points, the
	// editor's as two UTF-16 units, the bytes as four: 32, not 34.
	if !strings.Contains(view.String(), "7:32-7:39 severity 1") {
		t.Errorf("no diagnostic at 7:32-7:39 (UTF-16) for Nat.Evn:\n%s", view.String())
	}
}
