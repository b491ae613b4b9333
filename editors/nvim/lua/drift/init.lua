-- drift.nvim: starts the drift-lsp language server for Lean 4 buffers, next to
-- lean.nvim (or alone), and adds commands for its actions and library search.
--
--   require('drift').setup{
--     cmd = { 'drift-lsp', 'serve' },            -- default: drift-lsp on PATH
--     settings = { llm = { baseUrl = '…', model = '…' }, pipeline = { m = 3 } },
--   }
--
-- Works with Neovim 0.7 (vim.lsp.start_client + buf_attach_client) and uses
-- vim.lsp.start where it exists (Neovim >= 0.8).
local M = {}

-- How to get the server: it is built from a checkout of the repository (no
-- release is published to the Go module proxy, so `go install …@latest` fails).
local INSTALL = 'in a checkout of drift-lsp, `make build` (then put bin/drift-lsp on PATH) or `go install ./cmd/drift-lsp` (into $(go env GOPATH)/bin)'

local defaults = {
  -- Command that starts the server; nil: drift-lsp on PATH.
  cmd = nil,
  -- The `drift` settings section (same names as the server's and VS Code's
  -- drift.* settings, nested: { llm = { baseUrl = … }, log = { level = … } }).
  -- Only what is set here is sent, so the server's environment fallbacks
  -- (DRIFT_LLM_BASE_URL, …) hold for the rest.
  settings = {},
  -- Extra environment for the server, e.g. { OPENAI_API_KEY = os.getenv('MY_KEY') }.
  cmd_env = nil,
  filetypes = { 'lean', 'lean4' },
  root_markers = { 'lakefile.lean', 'lakefile.toml', 'lean-toolchain', '.git' },
  -- Set filetype `lean` for *.lean when nothing else (lean.nvim) did.
  detect_filetype = true,
  -- Passed to the client (debounce_text_changes, …).
  flags = {},
  capabilities = nil,
  on_attach = nil,
  -- Create the :Drift* user commands.
  commands = true,
}

M.config = vim.deepcopy(defaults)

-- Client ids by root directory (Neovim 0.7 path).
local clients_by_root = {}

local function notify(msg, level)
  vim.schedule(function()
    vim.notify('DRIFT: ' .. msg, level or vim.log.levels.INFO)
  end)
end

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local home = vim.loop.os_homedir()
  while dir and dir ~= '' do
    for _, marker in ipairs(M.config.root_markers) do
      if vim.loop.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir or dir == home then
      break
    end
    dir = parent
  end
  return name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
end

local function server_cmd()
  if M.config.cmd then
    return M.config.cmd
  end
  if vim.fn.executable('drift-lsp') == 1 then
    return { 'drift-lsp', 'serve' }
  end
  return nil
end

--- The argv of `drift-lsp doctor --json` with the settings the server gets
--- (nil without a server), for :checkhealth drift and the model offer.
function M.doctor_argv()
  local cmd = server_cmd()
  if not cmd then
    return nil
  end
  local argv = { cmd[1], 'doctor', '--json' }
  local settings = M.config.settings
  if settings and next(settings) ~= nil then
    vim.list_extend(argv, { '--settings', vim.fn.json_encode(settings) })
  end
  return argv
end

--- Installs the local model (`drift-lsp setup model`) in a terminal split,
--- then restarts the server of the Lean buffers.
function M.setup_model()
  local cmd = server_cmd()
  if not cmd then
    notify('drift-lsp is not on PATH (or set `cmd` in setup). Install it with: ' .. INSTALL, vim.log.levels.ERROR)
    return
  end
  vim.cmd('botright 12split')
  vim.cmd('enew')
  vim.fn.termopen({ cmd[1], 'setup', 'model' }, {
    on_exit = function(_, code)
      if code ~= 0 then
        notify('installing the local model failed (exit ' .. code .. '); see the terminal', vim.log.levels.ERROR)
        return
      end
      notify('the local model is installed; restarting drift-lsp')
      vim.schedule(function()
        for _, b in ipairs(vim.api.nvim_list_bufs()) do
          local c = M.get_client(b)
          if c then
            c.stop()
          end
        end
        vim.defer_fn(function()
          for _, b in ipairs(vim.api.nvim_list_bufs()) do
            if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
              M.attach(b)
            end
          end
        end, 500)
      end)
    end,
  })
end

local offered = false

-- Asks once per session, when doctor says the local model is missing (no
-- endpoint configured, nothing installed), whether to install it.
local function offer_model()
  local argv = M.doctor_argv()
  if offered or not argv then
    return
  end
  offered = true
  local out = {}
  vim.fn.jobstart(argv, {
    stdout_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
    on_exit = function()
      local ok, report = pcall(vim.fn.json_decode, table.concat(out, '\n'))
      if not ok or type(report) ~= 'table' then
        return
      end
      for _, it in ipairs(report.items or {}) do
        if it.section == 'model' and it.name == 'local model' and it.state == 'missing' then
          vim.schedule(function()
            vim.ui.select({ 'Install', 'Not now' }, {
              prompt = 'DRIFT: no language model is configured. Install the local model (1.1 GB)?',
            }, function(choice)
              if choice == 'Install' then
                M.setup_model()
              end
            end)
          end)
          return
        end
      end
    end,
  })
end

-- Client methods are called with `:` from Neovim 0.11 on, with `.` before.
local method_calls = vim.fn.has('nvim-0.11') == 1

local function request(c, method, params, handler, bufnr)
  if method_calls then
    return c:request(method, params, handler, bufnr)
  end
  return c.request(method, params, handler, bufnr)
end

local function is_stopped(c)
  if method_calls then
    return c:is_stopped()
  end
  return c.is_stopped()
end

--- The running drift client attached to bufnr (default: current buffer), or nil.
function M.get_client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr, name = 'drift' })
    or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(clients) do
    if c.name == 'drift' and not is_stopped(c) then
      return c
    end
  end
  return nil
end

local function client_config(root, cmd)
  local settings = M.config.settings or {}
  return {
    name = 'drift',
    cmd = cmd,
    cmd_env = M.config.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } },
    init_options = settings,
    -- Answers workspace/configuration for section "drift".
    settings = { drift = settings },
    flags = M.config.flags,
    capabilities = M.config.capabilities,
    on_attach = M.config.on_attach,
    get_language_id = function()
      return 'lean4'
    end,
  }
end

--- Starts (or reuses) the drift client for bufnr and attaches it.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if M.get_client(bufnr) then
    return
  end
  local cmd = server_cmd()
  if not cmd then
    notify('drift-lsp is not on PATH (or set `cmd` in setup). Install it with: ' .. INSTALL, vim.log.levels.ERROR)
    return
  end
  if vim.fn.executable(cmd[1]) ~= 1 then
    notify(cmd[1] .. ' is not executable. Install the server with: ' .. INSTALL, vim.log.levels.ERROR)
    return
  end
  local root = find_root(bufnr)
  local config = client_config(root, cmd)
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = bufnr })
    offer_model()
    return
  end
  local id = clients_by_root[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil or is_stopped(vim.lsp.get_client_by_id(id)) then
    id = vim.lsp.start_client(config)
    if not id then
      notify('could not start ' .. table.concat(cmd, ' '), vim.log.levels.ERROR)
      return
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  offer_model()
end

local function need_client()
  local c = M.get_client()
  if not c then
    notify('no drift-lsp client for this buffer (is it a Lean file? see :DriftLog)', vim.log.levels.WARN)
  end
  return c
end

local function range_params(c, opts)
  local params
  if opts.range then
    params = vim.lsp.util.make_given_range_params(opts.range[1], opts.range[2], nil, c.offset_encoding)
  else
    params = vim.lsp.util.make_range_params(0, c.offset_encoding)
  end
  params.context = { diagnostics = {}, triggerKind = 1 }
  return params
end

local function starts_with(s, prefix)
  return s:sub(1, #prefix):lower() == prefix:lower()
end

--- Runs the server's code action whose title starts with `prefix` for the
--- comment, docstring or selection at the cursor. opts.range = {{row, col},
--- {row, col}} (1-based rows) for a selection; opts.on_done(err, result) is
--- called when the job has finished (the server's edit arrives before it).
function M.code_action(prefix, opts)
  opts = opts or {}
  local done = opts.on_done or function() end
  local c = need_client()
  if not c then
    return done('no client')
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local params = range_params(c, opts)
  request(c, 'textDocument/codeAction', params, function(err, actions)
    if err then
      notify('code actions failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return done(err)
    end
    local action
    for _, a in ipairs(actions or {}) do
      if starts_with(a.title or '', prefix) then
        action = a
        break
      end
    end
    if not action then
      notify('nothing to do here for "' .. prefix .. '": put the cursor on a docstring or comment, or select text')
      return done('no action')
    end
    local function run(a)
      if a.edit then
        vim.lsp.util.apply_workspace_edit(a.edit, c.offset_encoding)
      end
      local command = type(a.command) == 'table' and a.command or (type(a.command) == 'string' and a or nil)
      if not command then
        return done(nil)
      end
      request(c, 'workspace/executeCommand', { command = command.command, arguments = command.arguments }, function(e, res)
        if e then
          notify(a.title .. ': ' .. (e.message or vim.inspect(e)), vim.log.levels.ERROR)
        end
        done(e, res)
      end, bufnr)
    end
    local provider = c.server_capabilities and c.server_capabilities.codeActionProvider
      or (c.resolved_capabilities and c.resolved_capabilities.code_action)
    if not action.edit and not action.command and type(provider) == 'table' and provider.resolveProvider then
      request(c, 'codeAction/resolve', action, function(e, resolved)
        if e then
          notify('resolving "' .. action.title .. '" failed: ' .. (e.message or ''), vim.log.levels.ERROR)
          return done(e)
        end
        run(resolved)
      end, bufnr)
    else
      run(action)
    end
  end, bufnr)
end

--- "Formalize with DRIFT" for the comment or selection at the cursor.
function M.formalize(opts)
  M.code_action('Formalize', opts)
end

--- "Find premises and examples" for the comment or selection at the cursor.
function M.find_premises(opts)
  M.code_action('Find premises', opts)
end

--- "Check this theorem" for the theorem at the cursor.
function M.check(opts)
  M.code_action('Check', opts)
end

--- Searches the library (workspace/symbol). Results fill the quickfix list;
--- with opts.on_result(items) they are handed over instead of shown, else
--- vim.ui.select picks one to open.
function M.search(query, opts)
  opts = opts or {}
  local c = need_client()
  if not c then
    return
  end
  local bufnr = vim.api.nvim_get_current_buf()
  request(c, 'workspace/symbol', { query = query }, function(err, result)
    if err then
      if not opts.on_result then
        notify("search failed: " .. (err.message or vim.inspect(err)), vim.log.levels.WARN)
      end
      if opts.on_result then
        opts.on_result({}, err)
      end
      return
    end
    local items = vim.lsp.util.symbols_to_items(result or {}, bufnr, c.offset_encoding)
    vim.fn.setqflist({}, ' ', { title = 'DRIFT: ' .. query, items = items })
    if opts.on_result then
      return opts.on_result(items)
    end
    if #items == 0 then
      return notify('nothing found for "' .. query .. '"')
    end
    vim.ui.select(items, {
      prompt = 'DRIFT: ' .. query,
      format_item = function(it)
        return it.text .. '  ' .. vim.fn.fnamemodify(it.filename, ':~:.') .. ':' .. it.lnum
      end,
    }, function(choice)
      if choice then
        M.open_item(choice)
      end
    end)
  end, bufnr)
end

--- Opens a quickfix-style item {filename, lnum, col}.
function M.open_item(item)
  vim.cmd('edit ' .. vim.fn.fnameescape(item.filename))
  vim.api.nvim_win_set_cursor(0, { item.lnum, math.max((item.col or 1) - 1, 0) })
end

--- Asks the server to rebuild its index.
function M.reindex()
  local c = need_client()
  if c then
    request(c, 'workspace/executeCommand', { command = 'drift.reindex', arguments = {} }, function(err)
      if err then
        notify('reindex: ' .. (err.message or ''), vim.log.levels.WARN)
      end
    end)
  end
end

--- The label of the blueprint node (a definition, lemma, theorem, proposition or corollary
--- environment with a \label) around the cursor of the current buffer, or nil.
function M.blueprint_label()
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local envs = { definition = true, lemma = true, theorem = true, proposition = true, corollary = true }
  local function env_of(line, what)
    for name in line:gmatch('\\' .. what .. '{(%a+)%*?}') do
      if envs[name] then
        return name
      end
    end
  end
  local start
  for i = row, 1, -1 do
    if i < row and env_of(lines[i], 'end') then
      return nil
    end
    if env_of(lines[i], 'begin') then
      start = i
      break
    end
  end
  if not start then
    return nil
  end
  for i = start, #lines do
    local label = lines[i]:match('\\label{([^}]*)}')
    if label then
      return vim.trim(label)
    end
    if env_of(lines[i], 'end') then
      return nil
    end
  end
end

--- Formalizes the workspace's blueprint (`drift-lsp blueprint`): every node without Lean, or the
--- node labelled `label`; in a .tex buffer with `node = true`, the node under the cursor.
function M.blueprint(opts)
  opts = opts or {}
  local label = opts.label
  if (label == nil or label == '') and opts.node then
    label = M.blueprint_label()
    if not label then
      notify('the cursor is not in a blueprint node with a \\label', vim.log.levels.WARN)
      return
    end
  end
  -- The current buffer's client, else any running drift client (a .tex buffer has none).
  local c = M.get_client()
  if not c then
    local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'drift' }) or vim.lsp.get_active_clients()
    for _, cl in pairs(all) do
      if cl.name == 'drift' and not is_stopped(cl) then
        c = cl
        break
      end
    end
  end
  if not c then
    notify('no drift-lsp client is running; open a Lean file of the project first', vim.log.levels.WARN)
    return
  end
  local args = {}
  if label and label ~= '' then
    args = { { label = label } }
  end
  request(c, 'workspace/executeCommand', { command = 'drift.blueprint', arguments = args }, function(err)
    if err then
      notify('blueprint: ' .. (err.message or ''), vim.log.levels.WARN)
    end
  end)
end

--- Opens the log: the server's log file when configured, else Neovim's LSP log.
function M.show_log()
  local file = M.config.settings and M.config.settings.log and M.config.settings.log.file
  vim.cmd('edit ' .. vim.fn.fnameescape(file or vim.lsp.get_log_path()))
end

--- Index state and running jobs from the server's progress, for a statusline.
function M.status()
  local c = M.get_client()
  if not c then
    return ''
  end
  local parts = {}
  for _, p in pairs((c.messages and c.messages.progress) or {}) do
    if not p.done then
      local s = p.title or ''
      if p.message then
        s = s .. ': ' .. p.message
      end
      table.insert(parts, s)
    end
  end
  return #parts == 0 and 'DRIFT' or ('DRIFT ' .. table.concat(parts, ' | '))
end

local function create_commands()
  local cmd = vim.api.nvim_create_user_command
  local function ranged(fn)
    return function(a)
      if a.range and a.range > 0 then
        fn({ range = { { a.line1, 0 }, { a.line2, #vim.fn.getline(a.line2) } } })
      else
        fn({})
      end
    end
  end
  cmd('DriftFormalize', ranged(M.formalize), { range = true, desc = 'DRIFT: Formalize statement' })
  cmd('DriftFindPremises', ranged(M.find_premises), { range = true, desc = 'DRIFT: Find premises' })
  cmd('DriftCheck', ranged(M.check), { range = true, desc = 'DRIFT: Check this theorem' })
  cmd('DriftSearch', function(a)
    M.search(a.args)
  end, { nargs = '+', desc = 'DRIFT: Search library' })
  cmd('DriftReindex', M.reindex, { desc = 'DRIFT: Reindex workspace' })
  cmd('DriftBlueprint', function(a)
    if a.args ~= '' then
      M.blueprint({ label = a.args })
    else
      M.blueprint({ node = vim.bo.filetype == 'tex' or vim.bo.filetype == 'plaintex' or vim.fn.expand('%:e') == 'tex' })
    end
  end, { nargs = '?', desc = 'DRIFT: Formalize the blueprint (in a .tex file: the node under the cursor)' })
  cmd('DriftLog', M.show_log, { desc = 'DRIFT: Show log' })
  cmd('DriftSetupModel', M.setup_model, { desc = 'DRIFT: Install the local model' })
  cmd('DriftStatus', function()
    print(M.status())
  end, { desc = 'DRIFT: index and job status' })
end

--- Configures the plugin and starts drift-lsp for Lean buffers.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if opts and opts.settings then
    M.config.settings = opts.settings
  end
  local group = vim.api.nvim_create_augroup('drift_lsp', { clear = true })
  if M.config.detect_filetype then
    vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
      group = group,
      pattern = '*.lean',
      callback = function()
        if vim.bo.filetype == '' then
          vim.bo.filetype = 'lean'
        end
      end,
    })
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(a)
      M.attach(a.buf)
    end,
  })
  if M.config.commands then
    create_commands()
  end
  -- Buffers already open when setup runs.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.attach(b)
    end
  end
end

return M
