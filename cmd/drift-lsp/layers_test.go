package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayers holds the folders to the README's layers, by import: internal/
// is the ground and imports nothing of the module above it; lsp, retrieval,
// leanrepl and llm import only the ground (and their own subpackages);
// drift imports those but no edge; only cmd/ imports cmd/internal/.
func TestLayers(t *testing.T) {
	const mod = "github.com/drift-lsp/drift-lsp/"
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	// top is the first path element of a package of the module
	// ("cmd/internal" for cmd/internal/...).
	top := func(p string) string {
		rel := strings.TrimPrefix(p, mod)
		if strings.HasPrefix(rel, "cmd/internal/") {
			return "cmd/internal"
		}
		return strings.SplitN(rel, "/", 2)[0]
	}
	allowed := map[string][]string{
		"internal":     {"internal"},
		"lsp":          {"internal", "lsp"},
		"retrieval":    {"internal", "retrieval"},
		"leanrepl":     {"internal", "leanrepl"},
		"llm":          {"internal", "llm"},
		"drift":        {"internal", "retrieval", "leanrepl", "llm", "drift"},
		"cmd/internal": {"internal", "lsp", "retrieval", "leanrepl", "llm", "drift", "cmd/internal"},
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		from := top(f[0])
		ok, ruled := allowed[from]
		if !ruled {
			continue // cmd/drift-lsp, cmd/drift-bench: the top imports anything
		}
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			to := top(imp)
			found := false
			for _, a := range ok {
				found = found || a == to
			}
			if !found {
				t.Errorf("%s imports %s: %s/ may import only %v", strings.TrimPrefix(f[0], mod), strings.TrimPrefix(imp, mod), from, ok)
			}
		}
	}
}
