-- Headless Neovim session against the skillscript language server.
--
--   SKILLC_LSP_BIN=/path/to/skillc SKILLC_LSP_ARGS=lsp SKILLC_LSP_WORKSPACE=/ws \
--   timeout 60 nvim --headless --clean -n -u NONE -c "luafile lsp_session.lua"
--
-- Works on Neovim 0.7 (vim.lsp.start_client, buf_attach_client,
-- vim.diagnostic.get). Everything runs under pcall and any failure exits
-- with :cquit, so a Lua error can never leave nvim running.

local function fail(msg)
  io.stderr:write('FAIL: ' .. tostring(msg) .. '\n')
  vim.cmd('cquit 1')
end

local function code_of(d)
  if d.code then
    return d.code
  end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code
end

-- find returns the 0-based line and byte column of the first needle.
local function find(buf, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = string.find(line, needle, 1, true)
    if col then
      return i - 1, col - 1
    end
  end
  error('needle not found: ' .. needle)
end

local function request(buf, method, params)
  local res, err = vim.lsp.buf_request_sync(buf, method, params, 10000)
  assert(res, 'no answer to ' .. method .. ': ' .. tostring(err))
  for _, r in pairs(res) do
    assert(not r.err, method .. ' failed: ' .. vim.inspect(r.err))
    return r.result
  end
  error('empty answer to ' .. method)
end

local function session()
  local bin = assert(os.getenv('SKILLC_LSP_BIN'), 'SKILLC_LSP_BIN is not set')
  local ws = assert(os.getenv('SKILLC_LSP_WORKSPACE'), 'SKILLC_LSP_WORKSPACE is not set')
  local cmd = { bin }
  for a in string.gmatch(os.getenv('SKILLC_LSP_ARGS') or '', '%S+') do
    table.insert(cmd, a)
  end
  local id = vim.lsp.start_client({ name = 'skillc', cmd = cmd, root_dir = ws,
    flags = { debounce_text_changes = 20 } })
  assert(id, 'start_client failed')

  -- 1. A skill with errors: diagnostics at the right positions.
  vim.cmd('edit ' .. ws .. '/broken.skill.md')
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.lsp.buf_attach_client(buf, id), 'buf_attach_client failed')
  assert(vim.wait(15000, function() return #vim.diagnostic.get(buf) >= 2 end, 20),
    'no diagnostics: ' .. vim.inspect(vim.diagnostic.get(buf)))
  local want = {}
  want['single-equals'] = { find(buf, '= "x"') }
  want['malformed-op-grammar'] = { find(buf, 'emit(text="bye"') }
  for code, pos in pairs(want) do
    local hit
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if code_of(d) == code then
        hit = d
      end
    end
    assert(hit, 'missing ' .. code .. ' in ' .. vim.inspect(vim.diagnostic.get(buf)))
    assert(hit.lnum == pos[1], code .. ' on line ' .. hit.lnum .. ', want ' .. pos[1])
    assert(hit.severity == vim.diagnostic.severity.ERROR, code .. ' severity ' .. tostring(hit.severity))
    if code == 'single-equals' then
      assert(hit.col == pos[2], code .. ' at column ' .. hit.col .. ', want ' .. pos[2])
    end
  end

  -- 2. Edit the buffer: the diagnostics clear.
  local l1 = find(buf, '= "x"')
  local line = vim.api.nvim_buf_get_lines(buf, l1, l1 + 1, false)[1]
  vim.api.nvim_buf_set_lines(buf, l1, l1 + 1, false, { (string.gsub(line, '= "x"', '== "x"')) })
  local l2 = find(buf, 'emit(text="bye"')
  vim.api.nvim_buf_set_lines(buf, l2, l2 + 1, false, { '    emit(text="bye")' })
  assert(vim.wait(15000, function() return #vim.diagnostic.get(buf) == 0 end, 20),
    'diagnostics did not clear: ' .. vim.inspect(vim.diagnostic.get(buf)))

  -- 3. Hover and completion on a healthy skill.
  vim.cmd('edit ' .. ws .. '/brief.skill.md')
  local brief = vim.api.nvim_get_current_buf()
  assert(vim.lsp.buf_attach_client(brief, id), 'buf_attach_client (brief) failed')
  local hl, hc = find(brief, '${PROJECT}')
  local hover = request(brief, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(brief) }, position = { line = hl, character = hc + 3 } })
  local text = hover and hover.contents and hover.contents.value or ''
  assert(string.find(text, 'PROJECT', 1, true) and string.find(text, '"INFRA"', 1, true), 'hover: ' .. vim.inspect(hover))

  local ll = find(brief, '    $ llm')
  vim.api.nvim_buf_set_lines(brief, ll, ll, false, { '    $ tracker.' })
  vim.wait(200)
  local comp = request(brief, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(brief) }, position = { line = ll, character = 14 } })
  local items = comp.items or comp
  local labels = {}
  for _, it in ipairs(items) do
    labels[it.label] = true
  end
  assert(labels['search'], 'completion lacks search: ' .. vim.inspect(vim.tbl_keys(labels)))

  vim.lsp.stop_client(id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
end

local ok, err = pcall(session)
if not ok then
  fail(err)
else
  io.stdout:write('ok: neovim session passed\n')
  vim.cmd('qall!')
end
