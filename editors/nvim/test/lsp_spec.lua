-- lsp_spec.lua: checks require('skillc').setup()/start() against a stand-in
-- language server (test/fake_lsp_server.js, run with node) that speaks LSP
-- over stdio. Run headless like syntax_spec.lua:
--
--   timeout 60 nvim --headless --clean -n -u NONE -c "luafile editors/nvim/test/lsp_spec.lua"
--
-- The real `skillc lsp` end-to-end test replaces the fake server later by
-- passing its own cmd to setup().

local results = { passed = 0, failed = 0 }

local function report(ok, name, detail)
  if ok then
    results.passed = results.passed + 1
  else
    results.failed = results.failed + 1
    io.stdout:write(('not ok - %s: %s\n'):format(name, detail or ''))
  end
end

local test_dir = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local plugin_root = vim.fn.fnamemodify(test_dir, ':h')

-- diagnostics waits until the buffer has diagnostics and returns them.
local function diagnostics(buf)
  vim.wait(10000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  return vim.diagnostic.get(buf)
end

local function run()
  vim.opt.runtimepath:prepend(plugin_root)
  vim.cmd('filetype plugin on')
  vim.cmd('augroup filetypedetect')
  vim.cmd('runtime! ftdetect/skillscript.vim ftdetect/skillscript.lua')
  vim.cmd('augroup END')

  local project = vim.fn.tempname()
  vim.fn.mkdir(project .. '/skills', 'p')
  vim.fn.writefile({ '{}' }, project .. '/connectors.json')
  vim.fn.writefile({ '# Skill: a', 'run:', '    emit(text="a")', 'default: run' }, project .. '/skills/a.skill.md')
  vim.fn.writefile({ '# Skill: b' }, project .. '/skills/b.skill.md')

  local skillc = require('skillc')
  -- The autocmd path is the one Neovim 0.7 to 0.10 take; force it so the
  -- test covers it on newer releases too.
  local how = skillc.setup({ cmd = { 'node', test_dir .. '/fake_lsp_server.js' }, native = false })
  report(how == 'autocmd', 'setup strategy', how)

  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/skills/a.skill.md'))
  local a = vim.api.nvim_get_current_buf()
  local diags = diagnostics(a)
  report(#diags == 1, 'diagnostic published for a', vim.inspect(diags))
  if diags[1] then
    local want = 'opened skillscript in ' .. vim.uri_from_fname(project)
    report(diags[1].message == want, 'server saw the language id and root', diags[1].message)
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/skills/b.skill.md'))
  local b = vim.api.nvim_get_current_buf()
  report(#diagnostics(b) == 1, 'diagnostic published for b')

  local ids = {}
  for _, client in pairs(vim.lsp.buf_get_clients(a)) do
    ids[#ids + 1] = client.id
  end
  local same = #ids == 1
  for _, client in pairs(vim.lsp.buf_get_clients(b)) do
    same = same and client.id == ids[1]
  end
  report(same, 'one client serves both buffers of a root', vim.inspect(ids))

  local id = skillc.start(b, { cmd = { 'node', test_dir .. '/fake_lsp_server.js' } })
  report(id == ids[1], 'start() returns the running client', tostring(id))

  vim.lsp.stop_client(vim.lsp.get_active_clients())
  vim.wait(5000, function()
    return #vim.lsp.get_active_clients() == 0
  end, 50)
end

if vim.fn.executable('node') == 0 then
  io.stdout:write('nvim lsp: node not found, skipped\n')
  vim.cmd('qall!')
end

local ok, err = pcall(run)
if not ok then
  report(false, 'lua error', tostring(err))
end
io.stdout:write(('nvim lsp: %d passed, %d failed\n'):format(results.passed, results.failed))
io.stdout:flush()
if results.failed > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qall!')
end
