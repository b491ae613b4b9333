package mcpserver_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoLSPImports: the MCP edge does not depend on the language server or
// its wire types (go.lsp.dev), nor on what its Backend (app.MCP) stands for.
func TestNoLSPImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "go.lsp.dev/") || dep == "github.com/drift-lsp/drift-lsp/lsp" || dep == "github.com/drift-lsp/drift-lsp/cmd/internal/app" {
			t.Errorf("cmd/internal/mcpserver depends on %s", dep)
		}
		// Backend is in this package's own types: the index, the pipeline,
		// the model client and the comment checker stay behind it.
		for _, p := range []string{"retrieval", "drift", "llm", "cmd/internal/docref"} {
			if dep == "github.com/drift-lsp/drift-lsp/"+p || strings.HasPrefix(dep, "github.com/drift-lsp/drift-lsp/"+p+"/") {
				t.Errorf("cmd/internal/mcpserver depends on %s", dep)
			}
		}
	}
}
