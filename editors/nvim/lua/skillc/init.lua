-- skillc: Neovim client setup for the skillscript language server
-- (`skillc lsp`, stdio). Works on Neovim 0.7 (vim.lsp.start_client and
-- vim.lsp.buf_attach_client from a FileType autocommand) and uses
-- vim.lsp.config / vim.lsp.enable where the running Neovim has them.
--
--   require('skillc').setup({ cmd = { 'skillc', 'lsp' } })
--
-- require('skillc').start(bufnr, opts) starts (or reuses) a client for one
-- buffer and returns its id; tests and other plugins can call it directly.

local M = {}

-- M.defaults are the options setup() and start() fill in for missing keys.
M.defaults = {
  name = 'skillc',
  cmd = { 'skillc', 'lsp' },
  filetypes = { 'skillscript' },
  root_markers = { 'connectors.json', 'skillscript.config.json', '.git' },
  settings = {},
  init_options = nil,
  capabilities = nil,
  on_attach = nil,
  -- native: use vim.lsp.config/vim.lsp.enable when available.
  native = true,
}

-- clients maps "name\0root" to a client id for the 0.7 code path, where
-- Neovim has no vim.lsp.start to reuse clients for us.
local clients = {}

-- options merges user options over the defaults without changing either.
function M.options(opts)
  local merged = vim.deepcopy(M.defaults)
  for key, value in pairs(opts or {}) do
    merged[key] = value
  end
  if type(merged.cmd) == 'string' then
    merged.cmd = { merged.cmd, 'lsp' }
  end
  return merged
end

-- exists reports whether a file or directory exists.
local function exists(path)
  return (vim.loop or vim.uv).fs_stat(path) ~= nil
end

-- M.root_dir returns the nearest directory at or above `path` (a file or a
-- directory) that holds one of `markers`; without a match it returns the
-- directory of `path` itself.
function M.root_dir(path, markers)
  markers = markers or M.defaults.root_markers
  local start = path
  if start == nil or start == '' then
    start = vim.fn.getcwd()
  end
  start = vim.fn.fnamemodify(start, ':p')
  local dir = start
  if vim.fn.isdirectory(dir) == 0 then
    dir = vim.fn.fnamemodify(dir, ':h')
  end
  dir = dir:gsub('/+$', '')
  if dir == '' then
    dir = '/'
  end
  local first = dir
  while true do
    for _, marker in ipairs(markers) do
      if exists(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return first
    end
    dir = parent
  end
end

-- client_config builds the table passed to vim.lsp.start_client/start.
local function client_config(opts, root)
  return {
    name = opts.name,
    cmd = opts.cmd,
    root_dir = root,
    workspace_folders = {
      { uri = vim.uri_from_fname(root), name = root },
    },
    settings = opts.settings,
    init_options = opts.init_options,
    capabilities = opts.capabilities or vim.lsp.protocol.make_client_capabilities(),
    on_attach = opts.on_attach,
  }
end

-- alive reports whether a client id still belongs to a running client.
local function alive(id)
  local client = id and vim.lsp.get_client_by_id(id)
  return client ~= nil and not (client.is_stopped and client.is_stopped())
end

-- M.start starts a client for buffer `bufnr` (0 for the current one), or
-- reuses the one already running for the buffer's root directory, attaches
-- it and returns the client id (nil if the server could not be started).
function M.start(bufnr, opts)
  opts = M.options(opts)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local root = M.root_dir(vim.api.nvim_buf_get_name(bufnr), opts.root_markers)
  local config = client_config(opts, root)
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local key = opts.name .. '\0' .. root
  local id = clients[key]
  if not alive(id) then
    id = vim.lsp.start_client(config)
    clients[key] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

-- native_config is the vim.lsp.config table for Neovim 0.11 and later.
local function native_config(opts)
  return {
    cmd = opts.cmd,
    filetypes = opts.filetypes,
    root_markers = opts.root_markers,
    settings = opts.settings,
    init_options = opts.init_options,
    capabilities = opts.capabilities,
    on_attach = opts.on_attach,
  }
end

-- has_native reports whether vim.lsp.config/vim.lsp.enable can be used.
local function has_native()
  return type(vim.lsp.enable) == 'function' and vim.lsp.config ~= nil
end

-- M.setup registers the server for skillscript buffers. It returns the
-- strategy used: 'native' (vim.lsp.enable) or 'autocmd'.
function M.setup(opts)
  opts = M.options(opts)
  if opts.native and has_native() then
    vim.lsp.config(opts.name, native_config(opts))
    vim.lsp.enable(opts.name)
    return 'native'
  end
  local group = vim.api.nvim_create_augroup('skillc_lsp_' .. opts.name, { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = opts.filetypes,
    callback = function(args)
      M.start(args.buf, opts)
    end,
    desc = 'start the skillc language server',
  })
  -- Buffers that were opened before setup() ran.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(opts.filetypes, vim.bo[buf].filetype) then
      M.start(buf, opts)
    end
  end
  return 'autocmd'
end

return M
