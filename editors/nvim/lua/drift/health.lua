-- :checkhealth drift — what drift-lsp finds around the current directory,
-- as `drift-lsp doctor --json` reports it: the workspace, the index, the
-- model, Lean and the embeddings, each missing piece with the command that
-- fixes it. Neovim 0.7 to 0.11 (vim.health, else the older report_* names).
local M = {}

local function api()
  local h = vim.health or require('health')
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

function M.check()
  local h = api()
  h.start('drift-lsp')
  local argv = require('drift').doctor_argv()
  if not argv then
    h.error('drift-lsp not found on PATH and no cmd in require("drift").setup{}', {
      'in a checkout of drift-lsp: make build, then put bin/drift-lsp on PATH',
    })
    return
  end
  local out = vim.fn.system(argv)
  -- Exit status 1 only means that something is missing.
  local code = vim.v.shell_error
  local ok, report = pcall(vim.fn.json_decode, out)
  if (code ~= 0 and code ~= 1) or not ok or type(report) ~= 'table' then
    h.error(argv[1] .. ' doctor --json failed (exit ' .. code .. '): ' .. out)
    return
  end
  h.info(string.format('drift-lsp %s (%s) in %s', report.version, report.platform, report.dir))
  local section
  for _, it in ipairs(report.items or {}) do
    if it.section ~= section then
      section = it.section
      h.start('drift: ' .. section)
    end
    local line = it.name .. ': ' .. it.detail
    if it.state == 'ok' then
      h.ok(line)
    elseif it.state == 'missing' then
      h.warn(line, it.fix and { it.fix } or nil)
    else
      h.info(line)
    end
  end
end

return M
