-- Headless Neovim session against the real `skillc lsp` for the
-- capabilities of issue 26 part 1: selection range, document highlight
-- (read and write kinds), range formatting applied to the buffer, linked
-- editing ranges of a target name, signature help in an unclosed call,
-- and the server-side command skillc.run.
--
--   SKILLC_LSP_BIN=/path/to/skillc SKILLC_LSP_WORKSPACE=/ws \
--   timeout 60 nvim --headless --clean -n -u NONE -c "luafile caps_session.lua"
--
-- The workspace holds test/sessions/caps.skill.md. Works on Neovim 0.7;
-- failures exit with :cquit.

local function request(buf, method, params)
  local res, err = vim.lsp.buf_request_sync(buf, method, params, 15000)
  assert(res, 'no answer to ' .. method .. ': ' .. tostring(err))
  for _, r in pairs(res) do
    assert(not r.err, method .. ' failed: ' .. vim.inspect(r.err))
    return r.result
  end
  error('empty answer to ' .. method)
end

local function col_of(buf, line, needle)
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
  local c = string.find(text, needle, 1, true)
  assert(c, 'line ' .. line .. ' lacks ' .. needle .. ': ' .. text)
  return c - 1
end

local function contains(outer, inner)
  local function le(a, b)
    return a.line < b.line or (a.line == b.line and a.character <= b.character)
  end
  return le(outer.start, inner.start) and le(inner['end'], outer['end'])
end

local function session()
  local bin = assert(os.getenv('SKILLC_LSP_BIN'), 'SKILLC_LSP_BIN is not set')
  local ws = assert(os.getenv('SKILLC_LSP_WORKSPACE'), 'SKILLC_LSP_WORKSPACE is not set')
  local id = assert(vim.lsp.start_client({ name = 'skillc', cmd = { bin, 'lsp' }, root_dir = ws }), 'start_client failed')
  vim.cmd('edit ' .. ws .. '/caps.skill.md')
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.lsp.buf_attach_client(buf, id), 'buf_attach_client failed')
  assert(vim.wait(15000, function()
    local c = vim.lsp.get_client_by_id(id)
    return c and c.initialized
  end, 20), 'the server did not initialize')
  local doc = { uri = vim.uri_from_bufnr(buf) }

  -- 1. selection range: ${NAME} grows to its statement, block and target
  local sr = request(buf, 'textDocument/selectionRange', { textDocument = doc,
    positions = { { line = 10, character = col_of(buf, 10, 'NAME}') + 1 } } })
  local depth, node, target = 0, sr[1], false
  while node do
    depth = depth + 1
    if node.parent then
      assert(contains(node.parent.range, node.range), 'a parent does not contain its child: ' .. vim.inspect(node))
    end
    if node.range.start.line == 9 and node.range.start.character == 0 then
      target = true
    end
    node = node.parent
  end
  assert(depth >= 4 and target, 'selection ranges (' .. depth .. ' levels) do not reach the target: ' .. vim.inspect(sr))
  io.stdout:write('PASS selection range: ' .. depth .. ' levels from ${NAME} to the target\n')

  -- 2. document highlight: GREETING written on lines 11 and 13, read on 12
  local hl = request(buf, 'textDocument/documentHighlight', { textDocument = doc,
    position = { line = 11, character = col_of(buf, 11, 'GREETING') + 1 } })
  local kinds = {}
  for _, h in ipairs(hl or {}) do
    kinds[h.range.start.line] = h.kind
  end
  assert(kinds[10] == 3 and kinds[11] == 2 and kinds[12] == 3, 'highlights (line: kind) ' .. vim.inspect(kinds))
  io.stdout:write('PASS document highlight: write, read, write\n')

  -- 3. signature help in a call that is not closed yet
  vim.api.nvim_buf_set_lines(buf, 12, 12, false, { '    emit(text="a", ' })
  local sig = request(buf, 'textDocument/signatureHelp', { textDocument = doc, position = { line = 12, character = 19 } })
  assert(sig and sig.signatures and sig.signatures[1] and string.find(sig.signatures[1].label, 'emit(', 1, true) == 1,
    'signature help in an unclosed call: ' .. vim.inspect(sig))
  io.stdout:write('PASS signature help in an unclosed call: ' .. sig.signatures[1].label .. '\n')
  vim.api.nvim_buf_set_lines(buf, 12, 13, false, {})

  -- 4. linked editing: the name of "first" where it is declared and needed
  local le = request(buf, 'textDocument/linkedEditingRange', { textDocument = doc, position = { line = 5, character = 1 } })
  local at = {}
  for _, r in ipairs(le and le.ranges or {}) do
    table.insert(at, r.start.line .. ':' .. r.start.character)
  end
  table.sort(at)
  assert(table.concat(at, ' ') == '5:0 9:8', 'linked editing ranges ' .. vim.inspect(le))
  io.stdout:write('PASS linked editing ranges: ' .. table.concat(at, ' ') .. '\n')

  -- 5. range formatting of the body of "first", applied to the buffer
  local edits = request(buf, 'textDocument/rangeFormatting', { textDocument = doc,
    range = { start = { line = 6, character = 0 }, ['end'] = { line = 8, character = 0 } },
    options = { tabSize = 4, insertSpaces = true } })
  vim.lsp.util.apply_text_edits(edits or {}, buf, 'utf-16')
  local body = vim.api.nvim_buf_get_lines(buf, 6, 8, false)
  assert(body[1] == '    emit(text="a")' and body[2] == '    emit(text="b")', 'after range formatting: ' .. vim.inspect(body))
  local second = vim.api.nvim_buf_get_lines(buf, 9, 10, false)[1]
  assert(second == 'second: first', 'range formatting touched line 10: ' .. second)
  io.stdout:write('PASS range formatting of lines 7-8 applied\n')

  -- 6. the server-side command skillc.run (the file on disk)
  local run = request(buf, 'workspace/executeCommand', { command = 'skillc.run', arguments = { doc.uri } })
  assert(run and run.exitCode == 0 and string.find(run.output or '', 'hello world', 1, true),
    'skillc.run: ' .. vim.inspect(run))
  io.stdout:write('PASS workspace/executeCommand skillc.run: exit 0\n')

  vim.lsp.stop_client(id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
end

local ok, err = pcall(session)
if not ok then
  io.stderr:write('FAIL: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
else
  io.stdout:write('ok: neovim capabilities session passed\n')
  vim.cmd('qall!')
end
