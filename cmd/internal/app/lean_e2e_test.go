package app

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// durationRE matches the duration of a progress message ("in 1.2s").
var durationRE = regexp.MustCompile(`in [0-9.]+(ms|s|m)\b`)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestEndToEndCheckRealLean runs "Check this theorem" in the fake editor on
// the prelude workspace, with the real Lean 4.35.0 as lean.command (through
// DRIFT_LEAN) and no REPL: the diagnostics are Lean's own, at the right
// places in LSP coordinates (UTF-16 columns after a non-ASCII name), and the
// progress names the backend and shows the run of lean while it lasts.
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
		// The same stub again: Lean's result comes from the cache.
		{"theorem add_comm'", "0 finding(s); checked by Lean (lean)"},
	} {
		s.run(c.anchor, titleCheck)
		var got fakeeditor.Progress
		if err := s.Wait(s.ctx, func() bool {
			for _, p := range s.Progresses("DRIFT: " + titleCheck) {
				if p.Ended && !seen[p.Token] {
					seen[p.Token], got = true, p
					return true
				}
			}
			return false
		}); err != nil {
			t.Fatal(err)
		}
		if got.End != c.end {
			t.Errorf("%s: progress ended with %q, want %q", c.anchor, got.End, c.end)
		}
		fmt.Fprintf(&view, "check: %s → %s\n", c.anchor, got.End)
		// What the editor showed while Lean ran: the run of lean --json,
		// then its end (durations vary: replaced by D).
		for _, m := range got.Messages {
			fmt.Fprintf(&view, "  progress: %s\n", durationRE.ReplaceAllString(m, "in D"))
		}
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

// TestEndToEndFormalizeRealLean runs "Formalize with DRIFT" in the fake
// editor on the prelude workspace with the real Lean as lean.command: the
// check stage shows what Lean does while it runs.
func TestEndToEndFormalizeRealLean(t *testing.T) {
	lean := leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	s := startIn(t, llmtest.Workspace(), map[string]string{"DRIFT_LEAN": lean}, root, "Stubs.lean")
	s.run("Every number is even", titleFormalize)
	end := s.waitEnd("DRIFT: " + titleFormalize)
	var msgs []string
	for _, p := range s.Progresses("DRIFT: " + titleFormalize) {
		msgs = append(msgs, p.Messages...)
	}
	// The fake model's stub names Mm.Even, which the prelude workspace
	// lacks: inserted, with the verdict.
	if !strings.HasPrefix(end, "Inserted, but the inserted theorem did not pass its checks: ") {
		t.Fatalf("formalize ended with %q; messages %q", end, s.Messages())
	}
	// The candidate's check: lean runs, then ends; its events are parts of
	// the check stage's.
	want := []string{
		"Checking candidate 1/1…",
		"Checking candidate 1/1: Running lean --json (each run imports the header again: seconds to minutes with Mathlib)…",
		"Checking candidate 1/1: Lean (lean) finished in D",
	}
	i := slices.Index(msgs, want[0])
	if i < 0 || i+len(want) > len(msgs) {
		t.Fatalf("no %q in the progress: %q", want[0], msgs)
	}
	got := slices.Clone(msgs[i : i+len(want)])
	for j := range got {
		got[j] = durationRE.ReplaceAllString(got[j], "in D")
	}
	if !slices.Equal(got, want) {
		t.Errorf("check stage progress %q, want %q", got, want)
	}
}
