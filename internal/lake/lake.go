// Package lake holds the layout rules of Lake workspaces and elan
// toolchains, which the library (the toolchain's sources) and the checker
// (lake, lean and the REPL) share.
package lake

import (
	"os"
	"path/filepath"
	"strings"
)

// IsRoot reports whether dir is the root of a Lean project: it has a
// lakefile or a lean-toolchain file.
func IsRoot(dir string) bool {
	for _, f := range []string{"lakefile.lean", "lakefile.toml", "lean-toolchain"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// HasLakefile reports whether dir is a Lake workspace `lake env` can run in.
func HasLakefile(dir string) bool {
	return isFile(filepath.Join(dir, "lakefile.lean")) || isFile(filepath.Join(dir, "lakefile.toml"))
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// ElanHome returns elan's directory: ELAN_HOME, else ~/.elan; getenv gives
// ELAN_HOME and HOME.
func ElanHome(getenv func(string) string) string {
	if h := getenv("ELAN_HOME"); h != "" {
		return h
	}
	return filepath.Join(getenv("HOME"), ".elan")
}

// ToolchainDir returns the directory elan installs the toolchain named in a
// lean-toolchain file into, for example "leanprover/lean4:v4.17.0" →
// elanHome/toolchains/leanprover--lean4---v4.17.0.
func ToolchainDir(elanHome, toolchain string) string {
	name := strings.TrimSpace(toolchain)
	name = strings.ReplaceAll(name, "/", "--")
	name = strings.ReplaceAll(name, ":", "---")
	return filepath.Join(elanHome, "toolchains", name)
}
