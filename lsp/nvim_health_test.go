package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pluginScript wraps body, Lua run with the plugin of editors/nvim
// (DRIFT_PLUGIN) on the runtimepath, so that an error fails Neovim.
func pluginScript(body string) string {
	return `
local ok, err = xpcall(function()
  vim.opt.runtimepath:prepend(os.getenv('DRIFT_PLUGIN'))
` + body + `
end, debug.traceback)
if not ok then
  io.stderr:write('drift plugin test: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 3')
end
vim.cmd('qall!')
`
}

// runPlugin runs body (pluginScript) in headless Neovim in a copy of the
// example workspace, returning the output and the copy.
func runPlugin(t *testing.T, body string, env ...string) (string, string) {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "workspace")
	if err := os.CopyFS(ws, os.DirFS(workspaceDir)); err != nil {
		t.Fatal(err)
	}
	plugin, err := filepath.Abs(filepath.Join("..", "editors", "nvim"))
	if err != nil {
		t.Fatal(err)
	}
	env = append([]string{"DRIFT_PLUGIN=" + plugin, "DRIFT_FILE=" + filepath.Join(ws, "DriftExample", "Demo.lean")}, env...)
	return string(runNeovim(t, filepath.Join(ws, "DriftExample"), pluginScript(body), env...)), ws
}

// TestNeovimCheckhealth: :checkhealth drift reports what drift-lsp doctor
// finds in the workspace with the plugin's settings, with the fix of each
// missing piece (in the test's empty HOME and cache nothing is installed).
func TestNeovimCheckhealth(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "editor-cache")
	out, ws := runPlugin(t, `
  require('drift').setup{ cmd = { os.getenv('DRIFT_BIN'), 'serve' }, settings = { cacheDir = os.getenv('DRIFT_CACHE') } }
  vim.cmd('checkhealth drift')
  io.stdout:write(table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n') .. '\n')`, "DRIFT_CACHE="+cache)
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

// TestNeovimOffersModel: with no endpoint and no local model, opening a Lean
// file offers to install the model (through vim.ui.select, recorded here).
func TestNeovimOffersModel(t *testing.T) {
	out, _ := runPlugin(t, `
  local asked
  vim.ui.select = function(items, opts, on_choice)
    asked = opts.prompt .. ' [' .. table.concat(items, '/') .. ']'
    on_choice('Not now')
  end
  require('drift').setup{ cmd = { os.getenv('DRIFT_BIN'), 'serve' } }
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('DRIFT_FILE')))
  if not vim.wait(30000, function() return asked ~= nil end, 50) then error('no offer to install the model') end
  io.stdout:write('asked: ' .. asked .. '\n')`, "DRIFT_LLM_BASE_URL=", "DRIFT_LOCAL_LLM_DIR=")
	if want := "asked: DRIFT: no language model is configured. Install the local model (1.1 GB)? [Install/Not now]"; !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}
