-- Headless Neovim (0.7.2) end-to-end test with the REAL local model, run by
-- editors/e2e/nvim/local-model.sh: the plugin starts drift-lsp with no model
-- endpoint configured, so the server starts the bundled local model itself
-- (llama.cpp's server, xllamacpp) when "Formalize with DRIFT" first needs
-- it. Passes when the action ends either with a `theorem … := by sorry`
-- inserted after the docstring or with a clear failure message, and the
-- model's start-up was reported as progress; an inserted stub that did not
-- pass its checks must say so (the job's result and a warning). Timeouts are generous: on a
-- loaded 2-core machine the model writes 1–3 tokens a second.
local lib = dofile(debug.getinfo(1, 'S').source:sub(2):gsub('[^/]*$', '') .. 'lib.lua')
lib.setup('nvim-local')
local log, fail, find_line = lib.log, lib.fail, lib.find_line

local function main()
  local plugin = assert(os.getenv('DRIFT_NVIM_PLUGIN'), 'DRIFT_NVIM_PLUGIN not set')
  local bin = assert(os.getenv('DRIFT_LSP_BIN'), 'DRIFT_LSP_BIN not set')
  local demo = assert(os.getenv('DRIFT_DEMO'), 'DRIFT_DEMO not set')
  local minutes = tonumber(os.getenv('DRIFT_LOCAL_E2E_MINUTES') or '25')
  vim.opt.runtimepath:prepend(plugin)
  vim.opt.swapfile = false
  local drift = require('drift')
  drift.setup({
    cmd = { bin, 'serve' },
    settings = { cacheDir = os.getenv('DRIFT_CACHE_DIR'), log = { level = 'debug' }, pipeline = { samples = 1 } },
    flags = { debounce_text_changes = 0 },
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(demo))
  if not vim.wait(30000, function()
    local c = drift.get_client()
    return c ~= nil and c.initialized ~= false
  end, 50) then
    fail('drift-lsp did not attach')
  end
  log('drift-lsp attached; no model endpoint configured')

  local shown = {}
  local show = vim.lsp.handlers['window/showMessage']
  vim.lsp.handlers['window/showMessage'] = function(e, res, ctx, cfg)
    shown[#shown + 1] = res and res.message or ''
    return show(e, res, ctx, cfg)
  end
  -- said reports whether a window/showMessage contained text.
  local function said(text)
    for _, m in ipairs(shown) do
      if m:find(text, 1, true) then
        return true
      end
    end
    return false
  end

  -- Every progress message, as the server sent it: the status line shows
  -- only the latest, and the model's start-up messages can be followed by
  -- the next within one poll (the first look at the premises shows while
  -- the model starts).
  local progressed = {}
  local onprogress = vim.lsp.handlers['$/progress']
  vim.lsp.handlers['$/progress'] = function(e, res, ctx, cfg)
    local v = res and res.value
    if v and v.message then
      progressed[#progressed + 1] = v.message
    end
    return onprogress(e, res, ctx, cfg)
  end

  local doc = find_line('Every prime number greater than 2 is odd')
  vim.api.nvim_win_set_cursor(0, { doc, 4 })
  local done, err = false, nil
  local seen, statuses = {}, {}
  local start = vim.loop.now()
  drift.formalize({ on_done = function(e)
    done, err = true, e
  end })
  if not vim.wait(minutes * 60000, function()
    local s = drift.status()
    if s ~= '' and not seen[s] then
      seen[s] = true
      statuses[#statuses + 1] = s
      log(('%5.0fs status: %s'):format((vim.loop.now() - start) / 1000, s))
    end
    return done
  end, 100) then
    fail('Formalize with DRIFT did not finish within ' .. minutes .. ' minutes')
  end
  local started = false
  for _, s in ipairs(progressed) do
    if s:find('local model', 1, true) then
      started = true
    end
  end
  if not started then
    fail('no progress reported the local model starting; progress messages: ' .. vim.inspect(progressed))
  end
  local secs = (vim.loop.now() - start) / 1000
  if err then
    local msg = type(err) == 'table' and err.message or tostring(err)
    if not msg or #msg < 10 then
      fail('formalize failed without a clear message: ' .. vim.inspect(err))
    end
    log(('formalize ended with the failure message after %.0fs: %s'):format(secs, msg))
    return
  end
  -- The job's end message (kept by Neovim's $/progress handler).
  local ended = ''
  for _, p in pairs(drift.get_client().messages.progress or {}) do
    if p.done and p.title == 'DRIFT: Formalize with DRIFT' then
      ended = p.message or ''
    end
  end
  if ended:find('^Failed: ') then
    if not said('Formalize with DRIFT failed: ') then
      fail('the job failed (' .. ended .. ') without an error message; messages: ' .. vim.inspect(shown))
    end
    log(('formalize ended with the failure message after %.0fs: %s'):format(secs, ended))
    return
  end
  local text = lib.stub_after('Every prime number greater than 2 is odd')
  if not text:match(':=%s*by%s+sorry') then
    fail('the inserted stub has no `:= by sorry`: ' .. text)
  end
  log(('formalize inserted after %.0fs: %s\n%s'):format(secs, ended, text))
  if not ended:find('^Inserted') then
    fail('the job ended with ' .. vim.inspect(ended) .. ', not with the inserted stub')
  end
  -- (the end message may be cut at 200 bytes: its verdict's start suffices)
  local verdict = ended:match('did not pass its checks: ([^—]*)')
  verdict = verdict and vim.trim(verdict):gsub('…$', '')
  if verdict then
    if not said('did not pass its checks: ' .. verdict) then
      fail('the stub failed its checks (' .. verdict .. ') but no warning said so; messages: ' .. vim.inspect(shown))
    end
    log('verdict shown: ' .. verdict)
  end
end

lib.run(main)
