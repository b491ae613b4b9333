package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nvimHealthScript runs :checkhealth drift with the plugin of editors/nvim
// and prints the health buffer.
const nvimHealthScript = `
local ok, err = xpcall(function()
  vim.opt.runtimepath:prepend(os.getenv('DRIFT_PLUGIN'))
  require('drift').setup{ cmd = { os.getenv('DRIFT_BIN'), 'serve' }, settings = { cacheDir = os.getenv('DRIFT_CACHE') } }
  vim.cmd('checkhealth drift')
  io.stdout:write(table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n') .. '\n')
end, debug.traceback)
if not ok then
  io.stderr:write('drift health test: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 3')
end
vim.cmd('qall!')
`

// TestNeovimCheckhealth: :checkhealth drift reports what drift-lsp doctor
// finds in the workspace with the plugin's settings, with the fix of each
// missing piece (in the test's empty HOME and cache nothing is installed).
func TestNeovimCheckhealth(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "workspace")
	if err := os.CopyFS(ws, os.DirFS(workspaceDir)); err != nil {
		t.Fatal(err)
	}
	plugin, err := filepath.Abs(filepath.Join("..", "editors", "nvim"))
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(t.TempDir(), "editor-cache")
	out := string(runNeovim(t, filepath.Join(ws, "DriftExample"), nvimHealthScript, "DRIFT_PLUGIN="+plugin, "DRIFT_CACHE="+cache))
	for _, want := range []string{
		"drift-lsp",
		"drift: workspace",
		"root: " + ws + " (a Lake workspace)",
		"package minimath: " + filepath.Join(ws, ".lake", "packages", "minimath"),
		"cache: " + cache, // the plugin's settings reach doctor
		"drift: model",
		"WARNING: local model: the local model is not installed",
		"drift-lsp setup model",
		"drift: lean",
		"drift: embeddings",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the health report lacks %q:\n%s", want, out)
		}
	}
}
