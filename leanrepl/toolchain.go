package leanrepl

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/lake"
)

// Toolchain is how to run `lean` for a workspace, as FindLean found it.
type Toolchain struct {
	// Command runs lean with the arguments that follow it, for example
	// ["lake", "env", "lean"] or ["/home/u/.elan/toolchains/…/bin/lean"].
	Command []string
	// Dir is the working directory (the workspace root).
	Dir string
	// Env holds extra environment variables ("K=V"): LEAN_PATH when the
	// workspace's build directories are used without `lake env`.
	Env []string
	// Source says how the command was found, for reports ("setting
	// lean.command", "lake env in the Lake workspace …", …).
	Source string
}

// String describes the toolchain in one line: its command and where it
// came from.
func (t *Toolchain) String() string {
	s := strings.Join(t.Command, " ")
	if len(t.Env) > 0 {
		s = strings.Join(t.Env, " ") + " " + s
	}
	return s + " (" + t.Source + ")"
}

// Env is what FindLean takes from drift-lsp's environment, resolved by the
// caller (internal/settings' Paths): elan's directory and the LEAN_PATH a
// lean child's own extends.
type Env struct {
	ElanHome string
	LeanPath string
}

// FindLean finds how to run `lean --json` for the workspace at root, with
// elan's directory and LEAN_PATH from env (programs are looked up on the
// process's PATH). The order: the configured command (the lean.command setting, used as
// given); in a Lake workspace, `lake env lean` with the lake of the
// toolchain its lean-toolchain names (in elan's toolchain directory) or
// else lake on PATH; the lean of that toolchain; lean on PATH. Without lake,
// LEAN_PATH is set to the workspace's build directories (root/.lake/build/
// lib/lean and those of its packages), as `lake env` would. The error wraps
// ErrNotFound and says what was looked for.
func FindLean(root string, command []string, env Env) (*Toolchain, error) {
	abs := root
	if root != "" {
		if a, err := filepath.Abs(root); err == nil {
			abs = a
		}
	}
	if len(command) > 0 {
		if _, err := exec.LookPath(command[0]); err != nil {
			return nil, fmt.Errorf("%w: the configured lean command %q: %v", ErrLeanNotFound, strings.Join(command, " "), err)
		}
		return &Toolchain{Command: command, Dir: abs, Env: leanPathEnv(abs, env.LeanPath), Source: "setting lean.command"}, nil
	}
	var tried []string
	var tcDir, tcName string
	if abs != "" {
		if b, err := os.ReadFile(filepath.Join(abs, "lean-toolchain")); err == nil {
			tcName = strings.TrimSpace(string(b))
			tcDir = lake.ToolchainDir(env.ElanHome, tcName)
			if !isExecutable(filepath.Join(tcDir, "bin", "lean")) {
				tried = append(tried, fmt.Sprintf("lean-toolchain names %s, not installed in %s", tcName, tcDir))
				tcDir = ""
			}
		}
	}
	if abs != "" && lake.HasLakefile(abs) {
		lake := ""
		switch {
		case tcDir != "" && isExecutable(filepath.Join(tcDir, "bin", "lake")):
			lake = filepath.Join(tcDir, "bin", "lake")
		default:
			if p, err := exec.LookPath("lake"); err == nil {
				lake = p
			}
		}
		if lake != "" {
			return &Toolchain{Command: []string{lake, "env", "lean"}, Dir: abs, Source: "lake env in the Lake workspace " + abs}, nil
		}
		tried = append(tried, "no lake for the Lake workspace "+abs)
	}
	leanPath := leanPathEnv(abs, env.LeanPath)
	if tcDir != "" {
		return &Toolchain{Command: []string{filepath.Join(tcDir, "bin", "lean")}, Dir: abs, Env: leanPath, Source: "toolchain " + tcName + " of " + filepath.Join(abs, "lean-toolchain")}, nil
	}
	if p, err := exec.LookPath("lean"); err == nil {
		return &Toolchain{Command: []string{p}, Dir: abs, Env: leanPath, Source: "lean on PATH"}, nil
	}
	tried = append(tried, "no lean on PATH")
	return nil, fmt.Errorf("%w: %s (install elan, or set lean.command)", ErrLeanNotFound, strings.Join(tried, "; "))
}

// ErrLeanNotFound means no way to run `lean` was found.
var ErrLeanNotFound = errors.New("no Lean toolchain found")

// leanPathEnv returns LEAN_PATH for the build directories of the workspace
// at root and of its packages, when it has any, followed by old; nil
// otherwise.
func leanPathEnv(root, old string) []string {
	if root == "" {
		return nil
	}
	var dirs []string
	cands := []string{filepath.Join(root, ".lake", "build", "lib", "lean")}
	pkgs, _ := filepath.Glob(filepath.Join(root, ".lake", "packages", "*", ".lake", "build", "lib", "lean"))
	cands = append(cands, pkgs...)
	for _, d := range cands {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	if old != "" {
		dirs = append(dirs, old)
	}
	return []string{"LEAN_PATH=" + strings.Join(dirs, string(os.PathListSeparator))}
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}
