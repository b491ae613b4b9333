package leanrepl

import (
	"os"

	"github.com/drift-lsp/drift-lsp/internal/lake"
)

// processEnv is what FindLean takes from the test process's environment
// (the tests set ELAN_HOME, PATH and LEAN_PATH with t.Setenv).
func processEnv() Env {
	return Env{ElanHome: lake.ElanHome(os.Getenv), LeanPath: os.Getenv("LEAN_PATH")}
}
