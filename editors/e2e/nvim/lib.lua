-- Helpers shared by the headless Neovim end-to-end tests (test.lua and
-- local-model.lua), loaded with dofile next to them.
local M = {}

-- setup makes log lines carry tag and sends Neovim's own messages (e.g. the
-- applyEdit handler's "Workspace edit …") to stdout through log.
function M.setup(tag)
  M.tag = tag
  _G.print = function(...)
    local parts = {}
    for i = 1, select('#', ...) do
      parts[#parts + 1] = tostring(select(i, ...))
    end
    M.log('nvim: ' .. table.concat(parts, ' '))
  end
end

-- log writes one line to stdout at once.
function M.log(msg)
  io.stdout:write('[' .. M.tag .. '] ' .. msg .. '\n')
  io.stdout:flush()
end

-- fail ends the test with msg (no traceback position).
function M.fail(msg)
  error(msg, 0)
end

-- run calls main, then quits Neovim: status 0 after PASS, 3 after FAIL with
-- the error and its traceback.
function M.run(main)
  local ok, e = xpcall(main, debug.traceback)
  if ok then
    M.log('PASS')
    vim.cmd('qall!')
  else
    M.log('FAIL: ' .. tostring(e))
    vim.cmd('cquit 3')
  end
end

-- find_line returns the first buffer line (1-based) containing needle.
function M.find_line(needle)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    if l:find(needle, 1, true) then
      return i
    end
  end
  M.fail('"' .. needle .. '" not found in the buffer')
end

-- stub_after returns the text of the declaration that follows the line
-- containing needle (up to the next blank line), failing when the next
-- non-blank line is not a theorem.
function M.stub_after(needle)
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local i = M.find_line(needle)
  local nxt
  for j = i + 1, #lines do
    if lines[j]:match('%S') then
      nxt = j
      break
    end
  end
  if not nxt or not lines[nxt]:match('^%s*theorem%s+%S+') then
    M.fail('no theorem follows "' .. needle .. '"; got ' .. vim.inspect(nxt and lines[nxt]))
  end
  local stub = {}
  for j = nxt, #lines do
    if not lines[j]:match('%S') then
      break
    end
    table.insert(stub, lines[j])
  end
  return table.concat(stub, '\n')
end

return M
