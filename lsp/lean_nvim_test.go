package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

// nvimLeanScript runs "Check this theorem" on `every_even` in Stubs.lean
// of the prelude workspace and writes the buffer's diagnostics (0-based
// line and byte column, as Neovim keeps them) and the end message of the
// check's progress to DRIFT_OUT.
const nvimLeanScript = nvimCommon + `
run(function()
  local ends, titles = {}, {}
  local buf, client, client_id = start({embedding = {provider = 'none'}, cacheDir = os.getenv('DRIFT_CACHE')}, {
    ['$/progress'] = function(_, result)
      -- Only the check's progress: whether the index's ends before or
      -- after the handler is in place is a race.
      if not (result and result.value) then return end
      local tok = tostring(result.token)
      if result.value.kind == 'begin' then
        titles[tok] = result.value.title
      elseif result.value.kind == 'end' and titles[tok] == 'DRIFT: Check this theorem' then
        table.insert(ends, result.value.message or '')
      end
    end,
  })
  run_action(buf, client, find_row(buf, 'theorem every_even'), 8, 'Check this theorem')
  local function leanDiag()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.message:find('Unknown constant', 1, true) then return true end
    end
    return false
  end
  if not vim.wait(20000, function() return leanDiag() and #ends > 0 end, 20) then
    error('no Lean diagnostic: ' .. vim.inspect(vim.diagnostic.get(buf)) .. ' progress: ' .. vim.inspect(ends))
  end
  local out = {}
  local diags = vim.diagnostic.get(buf)
  table.sort(diags, function(a, b)
    if a.lnum ~= b.lnum then return a.lnum < b.lnum end
    if a.col ~= b.col then return a.col < b.col end
    return a.message < b.message
  end)
  for _, d in ipairs(diags) do
    table.insert(out, string.format('%d:%d-%d:%d severity %d: %s', d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.message))
  end
  for _, m in ipairs(ends) do table.insert(out, 'progress end: ' .. m) end
  vim.fn.writefile(out, os.getenv('DRIFT_OUT'))
  stop(client_id)
  vim.cmd('qall!')
end)
`

// TestNeovimRealLean runs "Check this theorem" in a real editor, headless
// Neovim, on the prelude workspace with the real Lean 4.35.0 (found as lean
// on PATH, LEAN_PATH from the workspace's build directory): the editor
// shows Lean's own error at the invented name, after a non-ASCII binder
// name, and the progress names the backend.
func TestNeovimRealLean(t *testing.T) {
	lean := leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	outFile := filepath.Join(t.TempDir(), "out.txt")
	runNeovim(t, root, nvimLeanScript, "DRIFT_FILE="+filepath.Join(root, "Stubs.lean"), "DRIFT_OUT="+outFile,
		"PATH="+filepath.Dir(lean)+string(os.PathListSeparator)+os.Getenv("PATH"), "ELAN_HOME="+filepath.Join(root, "no-elan"),
		"DRIFT_REPL=", "DRIFT_LEAN=")
	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(string(b), root, "$ROOT")
	leantest.Golden(t, filepath.Join("testdata", "nvim-real-lean.golden"), got, *update)
}
