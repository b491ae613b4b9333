package lake

import (
	"os"
	"path/filepath"
	"testing"
)

func TestToolchainDir(t *testing.T) {
	for _, c := range []struct{ home, tc, want string }{
		{"/e", "leanprover/lean4:v4.17.0", "/e/toolchains/leanprover--lean4---v4.17.0"},
		{"/e", "leanprover/lean4:v4.35.0\n", "/e/toolchains/leanprover--lean4---v4.35.0"},
		{"/e", "stable", "/e/toolchains/stable"},
	} {
		if got := ToolchainDir(c.home, c.tc); got != c.want {
			t.Errorf("ToolchainDir(%q, %q) = %q, want %q", c.home, c.tc, got, c.want)
		}
	}
}

func TestElanHome(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	if got := ElanHome(func(k string) string { return env[k] }); got != "/home/u/.elan" {
		t.Errorf("ElanHome = %q", got)
	}
	env["ELAN_HOME"] = "/opt/elan"
	if got := ElanHome(func(k string) string { return env[k] }); got != "/opt/elan" {
		t.Errorf("ElanHome with ELAN_HOME = %q", got)
	}
}

func TestRoots(t *testing.T) {
	for _, c := range []struct {
		file          string
		root, lakeEnv bool
	}{
		{"", false, false},
		{"lean-toolchain", true, false},
		{"lakefile.lean", true, true},
		{"lakefile.toml", true, true},
	} {
		dir := t.TempDir()
		if c.file != "" {
			if err := os.WriteFile(filepath.Join(dir, c.file), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if IsRoot(dir) != c.root || HasLakefile(dir) != c.lakeEnv {
			t.Errorf("%q: IsRoot %v HasLakefile %v, want %v %v", c.file, IsRoot(dir), HasLakefile(dir), c.root, c.lakeEnv)
		}
	}
}
