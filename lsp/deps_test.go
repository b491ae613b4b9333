package lsp_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports: the language server is only the protocol edge. Of drift-lsp
// it imports only the leaves the README's diagram names (leansrc, settings,
// proc, progress, textcut, and what settings stands on: cachedir, lake); it
// sees the rest (retrieval, the model client, the checks, ONNX Runtime, the
// MCP edge) through Backend, which cmd/internal/app implements.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/drift-lsp/drift-lsp/lsp").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/drift-lsp/drift-lsp/"
	allowed := map[string]bool{"lsp": true, "internal/leansrc": true, "internal/settings": true, "internal/proc": true,
		"internal/progress": true, "internal/textcut": true, "internal/cachedir": true, "internal/lake": true}
	for _, dep := range strings.Fields(string(out)) {
		if p, ok := strings.CutPrefix(dep, mod); ok && !allowed[p] {
			t.Errorf("lsp depends on %s", dep)
		}
		if strings.Contains(dep, "onnxruntime") || strings.HasPrefix(dep, "github.com/sashabaranov/") || strings.HasPrefix(dep, "github.com/modelcontextprotocol/") {
			t.Errorf("lsp depends on %s", dep)
		}
	}
}
