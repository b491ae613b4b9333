package lsp

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// nvimScript drives headless Neovim (0.7.2 API): it opens the file, starts
// drift-lsp with vim.lsp.start_client and buf_attach_client, asks for the
// code actions on a docstring, runs "Formalize with DRIFT", lets Neovim's
// own workspace/applyEdit handler apply the edit, hovers a name in a
// comment, and writes the file. Any
// Lua error leaves with `cquit 3` (an error would otherwise hang headless
// Neovim).
const nvimScript = `
local function fail(msg)
  io.stderr:write('drift nvim test: ' .. tostring(msg) .. '\n')
  vim.cmd('cquit 3')
end
local ok, err = xpcall(function()
  vim.api.nvim_create_autocmd({'BufRead', 'BufNewFile'}, {pattern = '*.lean', command = 'setfiletype lean'})
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('DRIFT_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local ready = false
  local client_id = vim.lsp.start_client({
    name = 'drift-lsp',
    cmd = {os.getenv('DRIFT_BIN'), 'serve'},
    root_dir = os.getenv('DRIFT_ROOT'),
    init_options = {
      llm = {baseUrl = os.getenv('DRIFT_MODEL_URL'), model = 'fake-model', apiKeyEnv = 'DRIFT_TEST_NO_KEY'},
      embedding = {provider = 'none'},
      cacheDir = os.getenv('DRIFT_CACHE'),
    },
    flags = {debounce_text_changes = 0},
    get_language_id = function() return 'lean4' end,
    on_init = function() ready = true end,
  })
  if not client_id then return fail('start_client failed') end
  vim.lsp.buf_attach_client(buf, client_id)
  if not vim.wait(20000, function() return ready end, 20) then return fail('server did not initialize') end
  local client = vim.lsp.get_client_by_id(client_id)
  local row
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find('greater than 2 is odd', 1, true) then row = i - 1 end
  end
  if not row then return fail('docstring not found') end
  local params = {
    textDocument = {uri = vim.uri_from_bufnr(buf)},
    range = {start = {line = row, character = 6}, ['end'] = {line = row, character = 6}},
    context = {diagnostics = {}},
  }
  local resp = client.request_sync('textDocument/codeAction', params, 5000, buf)
  if not resp or resp.err then return fail('codeAction: ' .. vim.inspect(resp)) end
  local action
  for _, a in ipairs(resp.result or {}) do
    if a.title == 'Formalize with DRIFT' then action = a end
  end
  if not action then return fail('no Formalize action: ' .. vim.inspect(resp.result)) end
  local done, cmd_err = false, nil
  client.request('workspace/executeCommand', action.command, function(e) done = true; cmd_err = e end, buf)
  if not vim.wait(60000, function() return done end, 20) then return fail('formalize did not finish') end
  if cmd_err then return fail('executeCommand: ' .. vim.inspect(cmd_err)) end
  local inserted = vim.wait(5000, function()
    local l = vim.api.nvim_buf_get_lines(buf, row + 1, row + 2, false)[1] or ''
    return l:find('^theorem ') ~= nil
  end, 20)
  if not inserted then return fail('no theorem after the docstring') end
  -- Hover on a name in a comment, through Neovim's standard LSP client (the
  -- checker of names in comments is built in the background: poll).
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, {'-- See ' .. string.char(96) .. 'Mm.Odd' .. string.char(96) .. ' for the definition.'})
  local last = vim.api.nvim_buf_line_count(buf) - 1
  local hover
  local got = vim.wait(60000, function()
    local r = client.request_sync('textDocument/hover', {textDocument = {uri = vim.uri_from_bufnr(buf)},
      position = {line = last, character = 10}}, 2000, buf)
    if r and r.result and r.result.contents then hover = r.result.contents.value end
    return hover ~= nil
  end, 200)
  if not got then return fail('no hover on a name in a comment') end
  if not hover:find('Mm.Odd', 1, true) then return fail('hover: ' .. hover) end
  io.stdout:write('drift hover: ' .. hover:gsub('\n', ' ') .. '\n')
  vim.api.nvim_buf_set_lines(buf, last, last + 1, false, {})
  vim.cmd('write')
  vim.lsp.stop_client(client_id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
  vim.cmd('qall!')
end, debug.traceback)
if not ok then fail(err) end
`

// TestNeovim runs the formalize action in a real editor: headless Neovim.
// workspaceDir is the bundled example Lake workspace.
var workspaceDir, _ = filepath.Abs(filepath.Join("..", "testdata", "workspace"))

func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not on PATH (apt-get install -y neovim)")
	}
	if testing.Short() {
		t.Skip("builds drift-lsp; skipped in -short mode")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "drift-lsp")
	build := exec.Command("go", "build", "-o", bin, "../cmd/drift-lsp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ws := filepath.Join(tmp, "workspace")
	copyTree(t, workspaceDir, ws)
	file := filepath.Join(ws, "DriftExample", "Demo.lean")
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	script := filepath.Join(tmp, "test.lua")
	if err := os.WriteFile(script, []byte(nvimScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(),
		"DRIFT_FILE="+file, "DRIFT_BIN="+bin, "DRIFT_ROOT="+ws, "DRIFT_MODEL_URL="+srv.URL,
		"DRIFT_CACHE="+filepath.Join(tmp, "cache"), "DRIFT_LLM_CACHE=off",
		"HOME="+tmp, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_DATA_HOME="+filepath.Join(tmp, "data"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"), "XDG_CACHE_HOME="+filepath.Join(tmp, "xcache"),
		"XDG_RUNTIME_DIR="+filepath.Join(tmp, "run"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	got := readFile(t, file)
	if !strings.Contains(got, "/-- Every prime number greater than 2 is odd. -/\ntheorem ") || !strings.Contains(got, "Mm.Odd p := by sorry") {
		t.Fatalf("file after nvim:\n%s\nnvim output:\n%s", got, out)
	}
	if len(srv.Requests()) == 0 {
		t.Errorf("the model was never called")
	}
}

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
