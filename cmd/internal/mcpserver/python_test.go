package mcpserver_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/cachedir"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// mcpPython returns a Python that imports the MCP SDK: the venv
// scripts/setup-mcp-py.sh makes under the cache directory, else python3 on
// PATH; "" when there is none.
func mcpPython() string {
	venv := filepath.Join(cachedir.Dir(os.Getenv), "mcp-py", "venv")
	cands := []string{filepath.Join(venv, "bin", "python"), "python3"}
	if runtime.GOOS == "windows" {
		cands[0] = filepath.Join(venv, "Scripts", "python.exe")
	}
	for _, p := range cands {
		if exec.Command(p, "-c", "import mcp.client.stdio, mcp").Run() == nil {
			return p
		}
	}
	return ""
}

// TestPythonClient drives `drift-lsp mcp` on the demo workspace with the
// official Python SDK (testdata/client.py): every tool, formalize with the
// fake model, bad input. It fails instead of skipping without the SDK when
// DRIFT_REQUIRE_MCP_PY=1 (make test).
func TestPythonClient(t *testing.T) {
	py := mcpPython()
	if py == "" {
		if os.Getenv("DRIFT_REQUIRE_MCP_PY") == "1" {
			t.Fatal("no Python with the mcp package (run scripts/setup-mcp-py.sh, or make setup) and DRIFT_REQUIRE_MCP_PY=1")
		}
		t.Skip("no Python with the mcp package: run scripts/setup-mcp-py.sh")
	}
	if testing.Short() {
		t.Skip("builds drift-lsp")
	}
	bin := filepath.Join(t.TempDir(), "drift-lsp")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/drift-lsp/drift-lsp/cmd/drift-lsp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	model := llmtest.New(t, llmtest.Workspace())
	t.Cleanup(model.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, filepath.Join("testdata", "client.py"), bin, mustAbs(t, workspaceDir))
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+home, "DRIFT_CACHE_DIR="+filepath.Join(home, "cache"),
		"DRIFT_EMBED_PROVIDER=none", "DRIFT_LLM_LOCAL=off", "DRIFT_LLM_CACHE=off", "DRIFT_REPL=", "DRIFT_LEAN=",
		"DRIFT_LLM_BASE_URL="+model.URL, "DRIFT_LLM_MODEL=fake-model", "DRIFT_LLM_API_KEY_ENV=DRIFT_TEST_NO_KEY")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("the Python client failed: %v", err)
	}
}
