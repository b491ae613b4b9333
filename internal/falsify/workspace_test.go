package falsify

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

var (
	wsOnce sync.Once
	wsLib  *library.Library
	wsErr  error
)

// workspaceLibrary loads the real testdata/workspace library once.
func workspaceLibrary(t testing.TB) *library.Library {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "workspace")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("testdata/workspace not present")
	}
	wsOnce.Do(func() { wsLib, wsErr = loadDir(dir) })
	if wsErr != nil {
		t.Fatal(wsErr)
	}
	return wsLib
}

// loadDir loads the library of the workspace at dir.
func loadDir(dir string) (*library.Library, error) {
	ws, err := library.Discover(dir, nil)
	if err != nil {
		return nil, err
	}
	return library.Load(context.Background(), ws, library.Options{})
}

// opensResolver resolves a stub's names the way the name check does in its
// simplest form: the name as written, then under each opened namespace,
// keeping the names the library declares.
func opensResolver(lib *library.Library, opens ...string) func(string) []string {
	return func(name string) []string {
		var out []string
		for _, full := range append([]string{name}, prefixed(opens, name)...) {
			if _, ok := lib.Lookup(full); ok {
				out = append(out, full)
			}
		}
		return out
	}
}

func TestWorkspaceDemo(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	lib := workspaceLibrary(t)
	flib := FromLibrary(lib, opensResolver(lib, "Minimath", "Mm"))
	tests := []struct {
		header  string
		verdict Verdict
		cex     string
	}{
		{"(n : ℕ) (hp : Mm.Prime n) : Mm.Odd n", Refuted, "n = 2"},
		{"(n : ℕ) (hp : Mm.Prime n) (h : 2 < n) : Mm.Odd n", NotRefuted, ""},
		{"(n : ℕ) (hp : Prime n) (h : 2 < n) : Odd n", NotRefuted, ""},
		{"(n : ℕ) (h : Odd n) : Mm.Prime n", Refuted, "n = 1"},
		{"(n : ℕ) : Even n ∨ Odd n", NotRefuted, ""},
		{"(a b : ℕ) (h : a ∣ₘ b) : a ≤ b", Refuted, "a = 1, b = 0"},
		{"(a b : ℕ) (hb : 0 < b) (h : a ∣ₘ b) : a ≤ b", NotRefuted, ""},
		{"(a b : ℕ) : Coprime a b", Unknown, ""}, // Mm.gcd is recursive: not unfolded
		{"(a : ℕ) : a ⊗ₘ 1 = a", Unknown, ""},    // Mm.lcm uses Mm.gcd
		{"(a b : ℕ) : a ∣ₘ a * b", NotRefuted, ""},
		{"(a b : ℕ) (h : b ∣ₘ a) : a ∣ₘ b", Refuted, "a = 0, b = 1"},
		{"(n : ℕ) (h : 1 < n) : ∃ p, Mm.Prime p ∧ p ∣ₘ n", NotRefuted, ""},
		{"(a b n : ℕ) (h : ModEq n a b) : a = b", Refuted, "a = 0, b = 1, n = 1"},
		// An integer passed to a definition over ℕ is a type error in Lean
		// (no coercion ℤ → ℕ), never a refutation.
		{"(n : ℤ) (hp : Mm.Prime n) : Mm.Odd n", Unknown, ""},
	}
	for _, tc := range tests {
		r := Falsify(context.Background(), stmt(t, tc.header, flib), flib, Options{Budget: 1e9, MaxAssignments: 2000})
		if r.Verdict != tc.verdict || r.Counterexample != tc.cex {
			t.Errorf("%s\n got %v %q (%d assignments, %s)\nwant %v %q", tc.header, r.Verdict, r.Counterexample, r.Assignments, r.Reason, tc.verdict, tc.cex)
		}
	}
}

// TestWorkspaceConcurrent runs stubs in parallel over one adapter (run it
// with -race).
func TestWorkspaceConcurrent(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	lib := workspaceLibrary(t)
	flib := FromLibrary(lib, opensResolver(lib, "Minimath", "Mm"))
	st := stmt(t, "(n : ℕ) (hp : Mm.Prime n) : Mm.Odd n", flib)
	results := make(chan Result, 8)
	for range 8 {
		go func() { results <- Falsify(context.Background(), st, flib, Options{Budget: 1e9, MaxAssignments: 200}) }()
	}
	for range 8 {
		if r := <-results; r.Verdict != Refuted || r.Counterexample != "n = 2" {
			t.Errorf("got %v %q", r.Verdict, r.Counterexample)
		}
	}
}

// TestNotationTokenNNReal reads a library's notation of one token (Mathlib's
// `notation "ℝ≥0" => NNReal`) as the type it stands for: the bundled model's
// AM–GM stub that drops the root is refuted; without the notation ℝ≥0 is
// ℝ ≥ 0, outside the fragment.
func TestNotationTokenNNReal(t *testing.T) {
	t.Setenv("ELAN_HOME", t.TempDir())
	dir := t.TempDir()
	for name, text := range map[string]string{"lakefile.lean": "", "NN.lean": `
def NNReal := { r : Nat // 0 ≤ r }
namespace NNReal
scoped notation "ℝ≥0" => NNReal
end NNReal
local notation "ℚ≥0" => NNReal
`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := loadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	flib := FromLibrary(lib, opensResolver(lib))
	tests := []struct {
		header  string
		lib     Library
		verdict Verdict
		cex     string
		reason  string
	}{
		{"(a b : ℝ≥0) (h : 0 < a) : a * b ≤ (a + b) / 2", flib, Refuted, "a = 1, b = 2", ""},
		{"(a b : ℝ≥0) : a - b ≤ a", flib, NotRefuted, "", ""},
		{"(a b : ℝ≥0) : NNReal.sqrt (a * b) ≤ (a + b) / 2", flib, NotRefuted, "", ""},
		{"(x : ℝ≥0) : ∀ y : ℝ≥0, x ≤ x + y", flib, NotRefuted, "", ""},
		{"(a b : ℝ≥0) (h : 0 < a) : a * b ≤ (a + b) / 2", nil, Unknown, "", "outside the fragment: ℝ"},
		// a local notation is no token outside its file
		{"(a b : ℚ≥0) : a * b ≤ (a + b) / 2", flib, Unknown, "", "outside the fragment: ℚ"},
	}
	for _, tc := range tests {
		r := Falsify(context.Background(), stmt(t, tc.header, tc.lib), tc.lib, Options{Budget: 1e9, MaxAssignments: 2000})
		if r.Verdict != tc.verdict || r.Counterexample != tc.cex || r.Reason != tc.reason {
			t.Errorf("%s\n got %v %q %q\nwant %v %q %q", tc.header, r.Verdict, r.Counterexample, r.Reason, tc.verdict, tc.cex, tc.reason)
		}
	}
}
