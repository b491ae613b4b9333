// Package leantest gives tests the real Lean 4.35.0 executable that
// `drift-lsp setup lean-test` installs, and the prelude-only workspace
// testdata/prelude built with it. It is for tests only.
package leantest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/proc"

	"github.com/drift-lsp/drift-lsp/internal/setup"
)

// Version is the Lean version `drift-lsp setup lean-test` installs.
const Version = setup.LeanVersion

// PreludeHeader is the header of a file in the prelude workspace: no
// `Init`, only the workspace's DriftPrelude module.
const PreludeHeader = "prelude\nimport DriftPrelude"

// Home returns the directory `drift-lsp setup lean-test` installs Lean into
// (setup.LeanHome).
func Home() string { return setup.LeanHome(os.Getenv) }

// Binary returns the real lean executable. When it is absent the test is
// skipped with a message saying that the real-Lean tests did not run, or
// fails when DRIFT_REQUIRE_LEAN is set (as `make test` and CI do).
func Binary(t testing.TB) string {
	t.Helper()
	p := filepath.Join(Home(), "bin", "lean")
	if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		return p
	}
	msg := "REAL LEAN ABSENT: " + p + " is not installed (run `make setup-lean`); this test against the real Lean " + Version + " binary did NOT run"
	if os.Getenv("DRIFT_REQUIRE_LEAN") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Source returns the path of testdata/prelude in the repository.
func Source() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "prelude")
}

// PreludeWorkspace copies testdata/prelude to a temporary directory and
// builds its DriftPrelude module with the real lean into
// .lake/build/lib/lean, where Lake would put it. It returns the root.
func PreludeWorkspace(t testing.TB) string {
	t.Helper()
	lean := Binary(t)
	root := t.TempDir()
	src := Source()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(root, ".lake", "build", "lib", "lean")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lean, "-o", filepath.Join(out, "DriftPrelude.olean"), "DriftPrelude.lean")
	cmd.Dir = root
	if b, err := proc.CombinedOutput(context.Background(), cmd); err != nil {
		t.Fatalf("building DriftPrelude with the real lean: %v\n%s", err, b)
	}
	return root
}

// Golden compares got with the golden file at path, or rewrites the file
// when update is set (the tests' -update flag).
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("differs from the golden file %s\n--- got\n%s--- want\n%s", path, got, want)
	}
}
