-- syntax_spec.lua: headless checks of the skillscript Neovim runtime files.
--
--   timeout 60 nvim --headless --clean -n -u NONE -c "luafile editors/nvim/test/syntax_spec.lua"
--
-- It puts editors/nvim on 'runtimepath', opens the fixtures, checks
-- filetype detection, the ftplugin options and the syntax group at every
-- position marked in test/fixtures/*.skill.md, then exits with :cquit when
-- anything failed. Marker lines follow the line they describe:
--
--   #     ^^^^ skillscriptGroup     the innermost syntax group is skillscriptGroup
--   #<--- =Comment                  columns 0-2 translate (link) to Comment
--   #  ^ !skillscriptString         the group is not skillscriptString
--
-- Marker lines are removed before the source is highlighted.

local results = { passed = 0, failed = 0 }

local function report(ok, name, detail)
  if ok then
    results.passed = results.passed + 1
  else
    results.failed = results.failed + 1
    io.stdout:write(('not ok - %s: %s\n'):format(name, detail or ''))
  end
end

local function script_dir()
  local source = debug.getinfo(1, 'S').source:sub(2)
  return vim.fn.fnamemodify(source, ':p:h')
end

local test_dir = script_dir()
local plugin_root = vim.fn.fnamemodify(test_dir, ':h')

-- parse_marker turns a marker line into {from, to, expect} entries
-- (0-based columns, end exclusive), or nil when the line is no marker.
local function parse_marker(line)
  local rest = line:sub(2)
  local dashes, expect = rest:match('^<(%-+)%s+(%S+)%s*$')
  if dashes then
    return { { from = 0, to = #dashes, expect = expect } }
  end
  if not rest:match('^%s*%^') then
    return nil
  end
  local carets, expect2 = rest:match('^([%s%^]+)%s(%S+)%s*$')
  if not carets then
    error('bad marker line: ' .. line)
  end
  local out = {}
  local col = 1
  while true do
    local s, e = carets:find('%^+', col)
    if not s then
      break
    end
    -- +1 for the '#' that was cut off, -1 for 0-based columns
    table.insert(out, { from = s, to = e + 1, expect = expect2 })
    col = e + 1
  end
  return out
end

-- load_fixture splits a fixture into source lines and checks.
local function load_fixture(path)
  local source, checks = {}, {}
  for _, line in ipairs(vim.fn.readfile(path)) do
    local marks = line:sub(1, 1) == '#' and parse_marker(line) or nil
    if marks then
      for _, m in ipairs(marks) do
        m.line = #source
        m.text = source[#source]
        table.insert(checks, m)
      end
    else
      table.insert(source, line)
    end
  end
  return source, checks
end

-- group_at returns the innermost and the translated group at a position.
local function group_at(lnum, col)
  local id = vim.fn.synID(lnum, col + 1, 1)
  return vim.fn.synIDattr(id, 'name'), vim.fn.synIDattr(vim.fn.synIDtrans(id), 'name')
end

local function check_position(file, c)
  for col = c.from, c.to - 1 do
    local name, linked = group_at(c.line, col)
    local ok
    if c.expect:sub(1, 1) == '!' then
      ok = name ~= c.expect:sub(2)
    elseif c.expect:sub(1, 1) == '=' then
      ok = linked == c.expect:sub(2)
    else
      ok = name == c.expect
    end
    if not ok then
      report(false, ('%s:%d:%d'):format(file, c.line, col + 1),
        ('want %s, got %s (%s) in %q'):format(c.expect, name, linked, c.text))
      return
    end
  end
  report(true)
end

local function check_syntax_fixture(path)
  local source, checks = load_fixture(path)
  vim.cmd('enew!')
  vim.api.nvim_buf_set_lines(0, 0, -1, false, source)
  vim.cmd('setlocal filetype=skillscript')
  report(vim.b.current_syntax == 'skillscript', 'syntax loaded', tostring(vim.b.current_syntax))
  report(#checks > 0, 'fixture has markers', path)
  local file = vim.fn.fnamemodify(path, ':t')
  for _, c in ipairs(checks) do
    check_position(file, c)
  end
end

local function check_detection()
  local fixture = test_dir .. '/fixtures/syntax.skill.md'
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  report(vim.bo.filetype == 'skillscript', 'filetype of *.skill.md', vim.bo.filetype)
  report(vim.bo.commentstring == '# %s', 'commentstring', vim.bo.commentstring)
  report(vim.bo.shiftwidth == 4 and vim.bo.expandtab, 'indent options',
    ('sw=%d et=%s'):format(vim.bo.shiftwidth, tostring(vim.bo.expandtab)))
  report(vim.b.current_syntax == 'skillscript', 'syntax of the opened file', tostring(vim.b.current_syntax))
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.tempname() .. '.md'))
  report(vim.bo.filetype ~= 'skillscript', 'plain .md stays markdown', vim.bo.filetype)
end

-- check_no_errors highlights well-formed skills (the repository's own
-- example corpus, and the shared one when it sits beside the repository)
-- and reports any position whose group links to Error.
local function check_no_errors()
  local repo = vim.fn.fnamemodify(plugin_root, ':h:h')
  local files = vim.fn.glob(repo .. '/testdata/corpus/examples/*.skill.md', false, true)
  report(#files > 0, 'own example corpus found', repo .. '/testdata/corpus/examples')
  local shared = vim.fn.fnamemodify(repo, ':h') .. '/shared/corpus/examples'
  vim.list_extend(files, vim.fn.glob(shared .. '/*.skill.md', false, true))
  for _, path in ipairs(files) do
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local bad
    for lnum = 1, vim.fn.line('$') do
      local line = vim.fn.getline(lnum)
      for col = 0, #line - 1 do
        local name, linked = group_at(lnum, col)
        if linked == 'Error' and not bad then
          bad = ('%d:%d %s in %q'):format(lnum, col + 1, name, line)
        end
      end
    end
    report(vim.bo.filetype == 'skillscript' and bad == nil, 'no errors in ' .. vim.fn.fnamemodify(path, ':t'), bad)
  end
end

local function check_module()
  local skillc = require('skillc')
  local opts = skillc.options({ cmd = '/opt/skillc' })
  report(opts.cmd[1] == '/opt/skillc' and opts.cmd[2] == 'lsp', 'string cmd becomes {cmd, "lsp"}',
    vim.inspect(opts.cmd))
  report(skillc.defaults.cmd[1] == 'skillc', 'defaults are not modified', vim.inspect(skillc.defaults.cmd))
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. '/proj/skills/deep', 'p')
  vim.fn.writefile({ '{}' }, dir .. '/proj/connectors.json')
  local file = dir .. '/proj/skills/deep/a.skill.md'
  report(skillc.root_dir(file) == dir .. '/proj', 'root_dir finds connectors.json', skillc.root_dir(file))
  local none = skillc.root_dir(dir .. '/proj/skills/deep/b.skill.md', { 'no-such-marker' })
  report(none == dir .. '/proj/skills/deep', 'root_dir falls back to the file directory', none)
end

local function run()
  vim.opt.runtimepath:prepend(plugin_root)
  -- Detection may already be loaded (Neovim enables it at startup), so the
  -- ftdetect scripts are sourced the way a plugin manager does it.
  vim.cmd('filetype plugin on')
  vim.cmd('syntax on')
  vim.cmd('augroup filetypedetect')
  vim.cmd('runtime! ftdetect/skillscript.vim ftdetect/skillscript.lua')
  vim.cmd('augroup END')
  check_detection()
  for _, path in ipairs(vim.fn.glob(test_dir .. '/fixtures/*.skill.md', false, true)) do
    check_syntax_fixture(path)
  end
  check_no_errors()
  check_module()
end

local ok, err = pcall(run)
if not ok then
  report(false, 'lua error', tostring(err))
end
io.stdout:write(('nvim: %d passed, %d failed\n'):format(results.passed, results.failed))
io.stdout:flush()
if results.failed > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qall!')
end
