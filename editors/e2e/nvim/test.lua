-- Headless Neovim (0.7.2) test of the DRIFT plugin, run by editors/e2e/nvim/run.sh:
--   nvim --headless --clean -c 'luafile editors/e2e/nvim/test.lua'
-- Environment: DRIFT_NVIM_PLUGIN (editors/nvim), DRIFT_LSP_BIN, DRIFT_DEMO
-- (a copy of Demo.lean inside a copy of the workspace), DRIFT_CACHE_DIR;
-- DRIFT_LLM_BASE_URL points the server at the fake model server.
-- Exits 0 on success; on any Lua error prints it and leaves with `cquit 3`
-- (a Lua error would otherwise hang headless Neovim).
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):gsub('[^/]*$', '') .. 'lib.lua')
lib.setup('nvim-e2e')
local log, fail, find_line = lib.log, lib.fail, lib.find_line

local function wait(what, ms, cond)
  if not vim.wait(ms, cond, 50) then
    fail('timed out after ' .. ms / 1000 .. 's waiting for ' .. what)
  end
end

local function buf_text()
  return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
end

local function read_file(path)
  local f = assert(io.open(path, 'r'))
  local s = f:read('*a')
  f:close()
  return s
end

-- Searches until the server answers with hits (the index is then ready);
-- returns the quickfix items.
local function search_until_hits(drift, query, ms)
  local items, last_err
  local deadline = vim.loop.now() + ms
  while vim.loop.now() < deadline do
    local got = false
    drift.search(query, { on_result = function(it, err)
      items, last_err, got = it, err, true
    end })
    wait('an answer to workspace/symbol', 30000, function()
      return got
    end)
    if #items > 0 then
      return items
    end
    vim.wait(500)
  end
  fail('search "' .. query .. '": no hits within ' .. ms / 1000 .. 's' .. (last_err and (': ' .. (last_err.message or vim.inspect(last_err))) or ''))
end

local function main()
  local plugin = assert(os.getenv('DRIFT_NVIM_PLUGIN'), 'DRIFT_NVIM_PLUGIN not set')
  local bin = assert(os.getenv('DRIFT_LSP_BIN'), 'DRIFT_LSP_BIN not set')
  local demo = assert(os.getenv('DRIFT_DEMO'), 'DRIFT_DEMO not set')
  vim.opt.runtimepath:prepend(plugin)
  vim.opt.swapfile = false

  local drift = require('drift')
  drift.setup({
    cmd = { bin, 'serve' },
    settings = { cacheDir = os.getenv('DRIFT_CACHE_DIR'), log = { level = 'debug' } },
    flags = { debounce_text_changes = 0 },
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(demo))
  local original = buf_text()
  if vim.bo.filetype ~= 'lean' then
    fail('filetype is "' .. vim.bo.filetype .. '", want lean')
  end
  wait('drift-lsp to attach', 20000, function()
    local c = drift.get_client()
    return c ~= nil and c.initialized ~= false
  end)
  log('drift-lsp attached (' .. vim.fn.fnamemodify(bin, ':t') .. '), language id lean4')
  local ready = search_until_hits(drift, 'Prime', 60000)
  log(('index ready: %d hits for "Prime"'):format(#ready))

  -- Formalize the first docstring through the plugin.
  local doc = find_line('Every prime number greater than 2 is odd')
  vim.api.nvim_win_set_cursor(0, { doc, 4 })
  local done, err = false, nil
  drift.formalize({ on_done = function(e)
    done, err = true, e
  end })
  wait('Formalize with DRIFT to finish', 120000, function()
    return done
  end)
  if err then
    fail('formalize: ' .. vim.inspect(err))
  end
  local stub_text = lib.stub_after('Every prime number greater than 2 is odd')
  if not stub_text:match(':=%s*by%s+sorry') and not stub_text:match(':=%s*sorry') then
    fail('formalize: stub has no `:= by sorry`: ' .. stub_text)
  end
  vim.cmd('silent write')
  local on_disk = read_file(demo)
  if not on_disk:find(stub_text, 1, true) then
    fail('formalize: the stub is not in the file on disk')
  end
  if #on_disk <= #original then
    fail('formalize: the file did not grow')
  end
  log('formalize OK:\n' .. stub_text)

  -- Find premises and examples on the block comment.
  vim.api.nvim_win_set_cursor(0, { find_line('The greatest common divisor of two distinct prime numbers is 1'), 0 })
  done, err = false, nil
  drift.find_premises({ on_done = function(e)
    done, err = true, e
  end })
  wait('Find premises and examples to finish', 120000, function()
    return done
  end)
  if err then
    fail('find premises: ' .. vim.inspect(err))
  end
  local block = buf_text():match('/%- DRIFT premises and examples\n(.-)%-/')
  if not block then
    fail('find premises: no premises block in the buffer')
  end
  local first = block:match('Premises:%s*\n%s*([^\n]+)')
  if not first or first:find('none found', 1, true) then
    fail('find premises: the block lists no premise:\n' .. block)
  end
  vim.cmd('silent write')
  if not read_file(demo):find('/- DRIFT premises and examples', 1, true) then
    fail('find premises: no premises block on disk')
  end
  log('find premises OK; first premise: ' .. first)

  -- Search the library; open the first hit.
  local items = search_until_hits(drift, 'prime number', 30000)
  log(('search OK: %d hits, first %s (%s:%d)'):format(#items, items[1].text, vim.fn.fnamemodify(items[1].filename, ':t'), items[1].lnum))
  log('status line: ' .. drift.status())
  drift.open_item(items[1])
  local short = items[1].text:gsub('^%[%w+%]%s*', ''):match('([^.]+)$')
  if not vim.fn.getline('.'):find(short, 1, true) then
    fail('search: opened ' .. vim.fn.expand('%:t') .. ':' .. vim.fn.line('.') .. ' which does not show ' .. short)
  end
  log('opened ' .. vim.fn.expand('%:t') .. ':' .. vim.fn.line('.') .. ': ' .. vim.fn.getline('.'))
end

lib.run(main)
