// Package acceptance holds black-box tests of the drift-lsp binary: they
// build it once, then drive it as editors and shells do (the language
// server over stdio, CLI commands) on a copy of testdata/workspace, or on
// the Mathlib tree named by DRIFT_MATHLIB.
package acceptance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binary is the drift-lsp executable built by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "drift-acceptance-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "drift-lsp")
	build := exec.Command("go", "build", "-o", binary, "github.com/drift-lsp/drift-lsp/cmd/drift-lsp")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building drift-lsp:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// workspace is one workspace the tests run on and a query with a name its
// answers must contain.
type workspace struct {
	name, dir, query, want string
}

// workspaces returns a private copy of testdata/workspace and, when
// DRIFT_MATHLIB is set, the Mathlib tree (read only: the tests write only
// to their cache directories).
func workspaces(t *testing.T) []workspace {
	ws := []workspace{{name: "testdata", dir: copyTree(t, filepath.Join("..", "..", "..", "testdata", "workspace")),
		query: "prime divisors", want: "DriftExample.Primes.prime_divisors"}}
	if m := os.Getenv("DRIFT_MATHLIB"); m != "" {
		ws = append(ws, workspace{name: "mathlib", dir: m, query: "exists_infinite_primes", want: "Nat.exists_infinite_primes"})
	}
	return ws
}

// copyTree copies a directory tree into a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// env is the environment of every child process: a private home and cache,
// no model, no toolchain sources.
func env(t *testing.T, cache string) []string {
	home := t.TempDir()
	return append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "ELAN_HOME="+filepath.Join(home, ".elan"),
		"DRIFT_CACHE_DIR="+cache, "DRIFT_EMBED_PROVIDER=none", "DRIFT_LLM_BASE_URL=", "DRIFT_LOG_LEVEL=info")
}
