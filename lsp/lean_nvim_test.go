package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

// nvimLeanScript drives headless Neovim (0.7.2 API) on the prelude
// workspace: it opens Stubs.lean, starts drift-lsp, runs "Check this
// theorem" on `every_even` and writes the buffer's diagnostics (0-based
// line and byte column, as Neovim keeps them) and the progress end messages
// to DRIFT_OUT.
const nvimLeanScript = `
local function fail(msg)
  io.stderr:write('drift nvim lean test: ' .. tostring(msg) .. '\n')
  vim.cmd('cquit 3')
end
local ok, err = xpcall(function()
  vim.api.nvim_create_autocmd({'BufRead', 'BufNewFile'}, {pattern = '*.lean', command = 'setfiletype lean'})
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('DRIFT_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local ready, ends = false, {}
  local client_id = vim.lsp.start_client({
    name = 'drift-lsp',
    cmd = {os.getenv('DRIFT_BIN'), 'serve'},
    root_dir = os.getenv('DRIFT_ROOT'),
    init_options = {embedding = {provider = 'none'}, cacheDir = os.getenv('DRIFT_CACHE')},
    flags = {debounce_text_changes = 0},
    get_language_id = function() return 'lean4' end,
    on_init = function() ready = true end,
    handlers = {
      ['$/progress'] = function(_, result)
        if result and result.value and result.value.kind == 'end' then
          table.insert(ends, result.value.message or '')
        end
      end,
    },
  })
  if not client_id then return fail('start_client failed') end
  vim.lsp.buf_attach_client(buf, client_id)
  if not vim.wait(20000, function() return ready end, 20) then return fail('server did not initialize') end
  local client = vim.lsp.get_client_by_id(client_id)
  local row
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find('theorem every_even', 1, true) then row = i - 1 end
  end
  if not row then return fail('theorem not found') end
  local params = {
    textDocument = {uri = vim.uri_from_bufnr(buf)},
    range = {start = {line = row, character = 8}, ['end'] = {line = row, character = 8}},
    context = {diagnostics = {}},
  }
  local resp = client.request_sync('textDocument/codeAction', params, 5000, buf)
  if not resp or resp.err then return fail('codeAction: ' .. vim.inspect(resp)) end
  local action
  for _, a in ipairs(resp.result or {}) do
    if a.title == 'Check this theorem' then action = a end
  end
  if not action then return fail('no check action: ' .. vim.inspect(resp.result)) end
  local done, cmd_err = false, nil
  client.request('workspace/executeCommand', action.command, function(e) done = true; cmd_err = e end, buf)
  if not vim.wait(60000, function() return done end, 20) then return fail('check did not finish') end
  if cmd_err then return fail('executeCommand: ' .. vim.inspect(cmd_err)) end
  local function leanDiag()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.message:find('Unknown constant', 1, true) then return true end
    end
    return false
  end
  if not vim.wait(20000, function() return leanDiag() and #ends > 0 end, 20) then
    return fail('no Lean diagnostic: ' .. vim.inspect(vim.diagnostic.get(buf)) .. ' progress: ' .. vim.inspect(ends))
  end
  local out = {}
  local diags = vim.diagnostic.get(buf)
  table.sort(diags, function(a, b) if a.lnum ~= b.lnum then return a.lnum < b.lnum end
    if a.col ~= b.col then return a.col < b.col end
    return a.message < b.message end)
  for _, d in ipairs(diags) do
    table.insert(out, string.format('%d:%d-%d:%d severity %d: %s', d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.message))
  end
  for _, m in ipairs(ends) do table.insert(out, 'progress end: ' .. m) end
  vim.fn.writefile(out, os.getenv('DRIFT_OUT'))
  vim.lsp.stop_client(client_id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
  vim.cmd('qall!')
end, debug.traceback)
if not ok then fail(err) end
`

// TestNeovimRealLean runs "Check this theorem" in a real editor, headless
// Neovim, on the prelude workspace with the real Lean 4.35.0 (found as lean
// on PATH, LEAN_PATH from the workspace's build directory): the editor
// shows Lean's own error at the invented name, after a non-ASCII binder
// name, and the progress names the backend.
func TestNeovimRealLean(t *testing.T) {
	lean := leantest.Binary(t)
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not on PATH (apt-get install -y neovim)")
	}
	if testing.Short() {
		t.Skip("builds drift-lsp; skipped in -short mode")
	}
	root := leantest.PreludeWorkspace(t)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "drift-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/drift-lsp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := filepath.Join(tmp, "test.lua")
	if err := os.WriteFile(script, []byte(nvimLeanScript), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(tmp, "out.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = root
	env := []string{"DRIFT_FILE=" + filepath.Join(root, "Stubs.lean"), "DRIFT_BIN=" + bin, "DRIFT_ROOT=" + root,
		"DRIFT_CACHE=" + filepath.Join(tmp, "cache"), "DRIFT_OUT=" + outFile,
		"PATH=" + filepath.Dir(lean) + string(os.PathListSeparator) + os.Getenv("PATH"), "ELAN_HOME=" + filepath.Join(tmp, "no-elan"),
		"HOME=" + tmp, "XDG_CONFIG_HOME=" + filepath.Join(tmp, "config"), "XDG_DATA_HOME=" + filepath.Join(tmp, "data"),
		"XDG_STATE_HOME=" + filepath.Join(tmp, "state"), "XDG_CACHE_HOME=" + filepath.Join(tmp, "xcache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(tmp, "run")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DRIFT_") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_") && !strings.HasPrefix(kv, "ELAN_HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(string(b), root, "$ROOT")
	got = strings.ReplaceAll(got, filepath.Dir(filepath.Dir(lean)), "$LEAN_HOME")
	leantest.Golden(t, filepath.Join("testdata", "nvim-real-lean.golden"), got, *update)
}
