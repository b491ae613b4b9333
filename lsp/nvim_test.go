package lsp

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/proctest"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// nvimCommon starts every Neovim test script (0.7.2 API). run(body) runs
// body and leaves with `cquit 3` on any Lua error (an error would otherwise
// hang headless Neovim); start(init_options, handlers) opens DRIFT_FILE,
// starts drift-lsp (DRIFT_BIN) on DRIFT_ROOT with vim.lsp.start_client and
// buf_attach_client, and returns the buffer, the client and its id;
// find_row returns the 0-based row of the first line containing text;
// run_action runs the code action titled title at (row, col) and waits for
// its command; stop stops the client.
const nvimCommon = `
local function run(body)
  local ok, err = xpcall(body, debug.traceback)
  if not ok then
    io.stderr:write('drift nvim test: ' .. tostring(err) .. '\n')
    vim.cmd('cquit 3')
  end
end
local function start(init_options, handlers)
  vim.api.nvim_create_autocmd({'BufRead', 'BufNewFile'}, {pattern = '*.lean', command = 'setfiletype lean'})
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('DRIFT_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local ready = false
  local client_id = vim.lsp.start_client({
    name = 'drift-lsp',
    cmd = {os.getenv('DRIFT_BIN'), 'serve'},
    root_dir = os.getenv('DRIFT_ROOT'),
    init_options = init_options,
    handlers = handlers,
    flags = {debounce_text_changes = 0},
    get_language_id = function() return 'lean4' end,
    on_init = function() ready = true end,
  })
  if not client_id then error('start_client failed') end
  vim.lsp.buf_attach_client(buf, client_id)
  if not vim.wait(20000, function() return ready end, 20) then error('server did not initialize') end
  return buf, vim.lsp.get_client_by_id(client_id), client_id
end
local function find_row(buf, text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find(text, 1, true) then return i - 1 end
  end
  error('not found: ' .. text)
end
local function run_action(buf, client, row, col, title)
  local params = {
    textDocument = {uri = vim.uri_from_bufnr(buf)},
    range = {start = {line = row, character = col}, ['end'] = {line = row, character = col}},
    context = {diagnostics = {}},
  }
  local resp = client.request_sync('textDocument/codeAction', params, 5000, buf)
  if not resp or resp.err then error('codeAction: ' .. vim.inspect(resp)) end
  local action
  for _, a in ipairs(resp.result or {}) do
    if a.title == title then action = a end
  end
  if not action then error('no action ' .. title .. ': ' .. vim.inspect(resp.result)) end
  local done, cmd_err = false, nil
  client.request('workspace/executeCommand', action.command, function(e) done = true; cmd_err = e end, buf)
  if not vim.wait(60000, function() return done end, 20) then error(title .. ' did not finish') end
  if cmd_err then error('executeCommand: ' .. vim.inspect(cmd_err)) end
end
local function stop(client_id)
  vim.lsp.stop_client(client_id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end
`

// nvimScript runs "Formalize with DRIFT" on a docstring, lets Neovim's own
// workspace/applyEdit handler apply the edit, hovers a name in a comment
// (added, then removed again) and writes the file.
const nvimScript = nvimCommon + `
run(function()
  local buf, client, client_id = start({
    llm = {baseUrl = os.getenv('DRIFT_MODEL_URL'), model = 'fake-model', apiKeyEnv = 'DRIFT_TEST_NO_KEY'},
    embedding = {provider = 'none'},
    cacheDir = os.getenv('DRIFT_CACHE'),
  })
  local row = find_row(buf, 'greater than 2 is odd')
  run_action(buf, client, row, 6, 'Formalize with DRIFT')
  local inserted = vim.wait(5000, function()
    local l = vim.api.nvim_buf_get_lines(buf, row + 1, row + 2, false)[1] or ''
    return l:find('^theorem ') ~= nil
  end, 20)
  if not inserted then error('no theorem after the docstring') end
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
  if not got then error('no hover on a name in a comment') end
  if not hover:find('Mm.Odd', 1, true) then error('hover: ' .. hover) end
  io.stdout:write('drift hover: ' .. hover:gsub('\n', ' ') .. '\n')
  vim.api.nvim_buf_set_lines(buf, last, last + 1, false, {})
  vim.cmd('write')
  stop(client_id)
  vim.cmd('qall!')
end)
`

// workspaceDir is the bundled example Lake workspace.
var workspaceDir, _ = filepath.Abs(filepath.Join("..", "testdata", "workspace"))

// runNeovim builds drift-lsp and runs script in headless Neovim in dir,
// with DRIFT_BIN, DRIFT_ROOT (dir), DRIFT_CACHE, a private HOME and XDG
// directories, then env, added to the environment (later entries win). It
// returns Neovim's output and fails the test when Neovim fails.
func runNeovim(t *testing.T, dir, script string, env ...string) []byte {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not on PATH (apt-get install -y neovim)")
	}
	if testing.Short() {
		t.Skip("builds drift-lsp; skipped in -short mode")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "drift-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/drift-lsp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	file := filepath.Join(tmp, "test.lua")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	pre, pids := filepath.Join(tmp, "pids.lua"), filepath.Join(tmp, "pids")
	if err := os.WriteFile(pre, []byte(recordServerPids), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+pre, "-c", "luafile "+file)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(),
		"DRIFT_BIN="+bin, "DRIFT_ROOT="+dir, "DRIFT_CACHE="+filepath.Join(tmp, "cache"),
		"HOME="+tmp, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_DATA_HOME="+filepath.Join(tmp, "data"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"), "XDG_CACHE_HOME="+filepath.Join(tmp, "xcache"),
		"XDG_RUNTIME_DIR="+filepath.Join(tmp, "run"), "DRIFT_PIDS="+pids), env...)
	out, err := cmd.CombinedOutput()
	waitServers(t, pids)
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	return out
}

// recordServerPids wraps Neovim's ways of starting a language server so
// that each started server's pid is appended to the file DRIFT_PIDS.
const recordServerPids = `
local function record(id)
  local c = id and vim.lsp.get_client_by_id(id)
  if c and c.rpc and c.rpc.pid then
    local f = io.open(os.getenv('DRIFT_PIDS'), 'a')
    f:write(c.rpc.pid .. '\n')
    f:close()
  end
  return id
end
local start_client = vim.lsp.start_client
vim.lsp.start_client = function(...) return record(start_client(...)) end
if vim.lsp.start then
  local start = vim.lsp.start
  vim.lsp.start = function(...) return record(start(...)) end
end
`

// waitServers waits for every language server Neovim started (the pids in
// file) to end: a server that outlives its editor would still write to the
// test's directories, and it must not outlive it anyway.
func waitServers(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid file %s: %v", file, err)
		}
		ended, err := proctest.WaitExit(pid, 30*time.Second)
		if err != nil {
			t.Fatalf("waiting for drift-lsp (pid %d): %v", pid, err)
		}
		if !ended {
			t.Errorf("drift-lsp (pid %d) still runs 30 s after Neovim ended", pid)
		}
	}
}

// TestNeovim runs the formalize action in a real editor: headless Neovim.
func TestNeovim(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "workspace")
	if err := os.CopyFS(ws, os.DirFS(workspaceDir)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ws, "DriftExample", "Demo.lean")
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	out := runNeovim(t, ws, nvimScript, "DRIFT_FILE="+file, "DRIFT_MODEL_URL="+srv.URL, "DRIFT_LLM_CACHE=off")
	got := readFile(t, file)
	if !strings.Contains(got, "/-- Every prime number greater than 2 is odd. -/\ntheorem ") || !strings.Contains(got, "Mm.Odd p := by sorry") {
		t.Fatalf("file after nvim:\n%s\nnvim output:\n%s", got, out)
	}
	if len(srv.Requests()) == 0 {
		t.Errorf("the model was never called")
	}
}
