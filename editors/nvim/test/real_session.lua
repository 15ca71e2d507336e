-- Headless Neovim session with the assertions of the real VS Code test
-- (editors/realvscode): diagnostics at exact positions, a quick fix
-- applied, go-to-definition across files, and tool completion from a live
-- MCP server wired in connectors.json (no prior cache).
--
--   SKILLC_LSP_BIN=/path/to/skillc SKILLC_LSP_WORKSPACE=/ws \
--   timeout 90 nvim --headless --clean -n -u NONE -c "luafile real_session.lua"
--
-- The workspace is editors/realvscode/workspace plus a connectors.json.
-- Works on Neovim 0.7; failures exit with :cquit.

local function code_of(d)
  if d.code then
    return d.code
  end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code
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

local function labels_at(buf, line, character)
  local comp = request(buf, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } })
  local out = {}
  for _, it in ipairs((comp and (comp.items or comp)) or {}) do
    out[it.label] = it
  end
  return out
end

local function session()
  local bin = assert(os.getenv('SKILLC_LSP_BIN'), 'SKILLC_LSP_BIN is not set')
  local ws = assert(os.getenv('SKILLC_LSP_WORKSPACE'), 'SKILLC_LSP_WORKSPACE is not set')
  local id = assert(vim.lsp.start_client({ name = 'skillc', cmd = { bin, 'lsp' }, root_dir = ws,
    flags = { debounce_text_changes = 20 } }), 'start_client failed')
  vim.cmd('edit ' .. ws .. '/broken.skill.md')
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.lsp.buf_attach_client(buf, id), 'buf_attach_client failed')

  -- 1. diagnostics at exact positions (0-based here; 7:18 and 8:16 in the editor)
  assert(vim.wait(15000, function() return #vim.diagnostic.get(buf) >= 2 end, 20),
    'no diagnostics: ' .. vim.inspect(vim.diagnostic.get(buf)))
  local want = { ['undeclared-var'] = { 6, 17 }, ['single-equals'] = { 7, 15 } }
  for code, pos in pairs(want) do
    local hit
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if code_of(d) == code then
        hit = d
      end
    end
    assert(hit, 'missing ' .. code .. ' in ' .. vim.inspect(vim.diagnostic.get(buf)))
    assert(hit.lnum == pos[1] and hit.col == pos[2],
      code .. ' at ' .. hit.lnum .. ':' .. hit.col .. ', want ' .. pos[1] .. ':' .. pos[2])
  end
  io.stdout:write('PASS diagnostics at 7:18 (undeclared-var) and 8:16 (single-equals)\n')

  -- 2. the quick fix for "=" applied
  local diags = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if code_of(d) == 'single-equals' then
      table.insert(diags, d.user_data and d.user_data.lsp or d)
    end
  end
  local actions = request(buf, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 7, character = 15 }, ['end'] = { line = 7, character = 16 } },
    context = { diagnostics = diags } })
  local fix
  for _, a in ipairs(actions or {}) do
    if a.edit and string.find(a.title, '==', 1, true) then
      fix = a
    end
  end
  assert(fix, 'no "==" quick fix: ' .. vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
  local line8 = vim.api.nvim_buf_get_lines(buf, 7, 8, false)[1]
  assert(string.find(line8, '${NAME} == "x"', 1, true), 'line 8 after the fix: ' .. line8)
  io.stdout:write('PASS quick fix applied: ' .. line8 .. '\n')

  -- 3. go to definition across files
  local def = request(buf, 'textDocument/definition', {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 9, character = 24 } })
  local loc = def and (def.uri and def or def[1])
  assert(loc and string.find(loc.uri or loc.targetUri, 'ok.skill.md', 1, true), 'definition: ' .. vim.inspect(def))
  io.stdout:write('PASS definition of "okskill" in ok.skill.md\n')

  -- 4. tool completion from the live MCP server (warmed in the background)
  vim.api.nvim_buf_set_lines(buf, 11, 11, false, { '    $ srv.' })
  local tools
  assert(vim.wait(40000, function()
    tools = labels_at(buf, 11, 10)
    return tools['echo'] ~= nil
  end, 250), 'completion after "$ srv." lacks echo: ' .. vim.inspect(vim.tbl_keys(tools or {})))
  vim.api.nvim_buf_set_lines(buf, 11, 12, false, { '    $ srv.echo ' })
  vim.wait(200)
  local args = labels_at(buf, 11, 15)
  assert(args['text'], 'completion after "$ srv.echo " lacks text: ' .. vim.inspect(vim.tbl_keys(args)))
  io.stdout:write('PASS tool completion from the live MCP server (echo, text)\n')

  -- 5. types from the search tool's outputSchema (docs/types.md)
  vim.api.nvim_buf_set_lines(buf, 11, 12, false, {
    '    $ srv.search query="x" -> T',
    '    emit(text="${T.totl} ${T.items.0.title}")',
    '    emit(text="${T.}")' })
  local urf
  assert(vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if code_of(d) == 'unknown-result-field' then
        urf = d
      end
    end
    return urf ~= nil
  end, 50), 'no unknown-result-field: ' .. vim.inspect(vim.diagnostic.get(buf)))
  assert(urf.lnum == 12 and urf.col == 18 and string.find(urf.message, 'did you mean total', 1, true),
    'unknown-result-field at ' .. urf.lnum .. ':' .. urf.col .. ': ' .. urf.message)
  local fields = labels_at(buf, 13, 19)
  assert(fields['total'] and fields['items'] and fields['total'].detail == 'integer (required)',
    'completion after ${T. = ' .. vim.inspect(fields))
  local hover = request(buf, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 12, character = 39 } })
  local htext = hover and hover.contents and (hover.contents.value or hover.contents) or ''
  assert(type(htext) == 'string' and string.find(htext, 'T.items.0.title', 1, true) and string.find(htext, 'string', 1, true),
    'hover on .title: ' .. vim.inspect(hover))
  local hints = request(buf, 'textDocument/inlayHint', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = 15, character = 0 } } })
  local hinted
  for _, h in ipairs(hints or {}) do
    if h.position.line == 11 and h.label == ': object {items, total}' then
      hinted = h
    end
  end
  assert(hinted, 'no type hint after -> T: ' .. vim.inspect(hints))
  io.stdout:write('PASS types from the outputSchema: unknown-result-field at 13:19, completion, hover, inlay hint\n')

  vim.lsp.stop_client(id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
end

local ok, err = pcall(session)
if not ok then
  io.stderr:write('FAIL: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
else
  io.stdout:write('ok: neovim real session passed\n')
  vim.cmd('qall!')
end
