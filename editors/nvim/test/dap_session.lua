-- Headless Neovim DAP session: the adapter and the first launch
-- configuration of lua/skillc/dap.lua (what nvim-dap would use), driven by
-- a small DAP client written here on vim.loop, since nvim-dap itself
-- cannot be installed on every test machine. It sets a breakpoint, stops
-- there, reads the stack, the variables and an evaluated expression,
-- steps, and runs to the end.
--
--   SKILLC_DAP_SKILL=/ws/debug.skill.md \
--   timeout 60 nvim --headless --clean -n -u NONE -c "luafile dap_session.lua"
--
-- `skillc` must be on PATH. Works on Neovim 0.7; failures exit with :cquit.

local here = debug.getinfo(1, 'S').source:sub(2):match('(.*)/test/')
package.path = here .. '/lua/?.lua;' .. here .. '/lua/?/init.lua;' .. package.path
local skdap = require('skillc.dap')

local function session()
  local skill = assert(os.getenv('SKILLC_DAP_SKILL'), 'SKILLC_DAP_SKILL is not set')
  local adapter = skdap.adapter()
  local conf = vim.deepcopy(skdap.configurations()[1])
  vim.cmd('edit ' .. skill)
  for k, v in pairs(conf) do
    if type(v) == 'function' then
      conf[k] = v()
    end
  end
  assert(conf.program == skill, 'program resolved to ' .. tostring(conf.program))

  local uv = vim.loop
  local stdin, stdout = uv.new_pipe(false), uv.new_pipe(false)
  local handle = uv.spawn(adapter.command, { args = adapter.args, stdio = { stdin, stdout, nil } }, function() end)
  assert(handle, 'cannot start ' .. adapter.command)
  local buf, msgs, seq = '', {}, 0
  stdout:read_start(function(err, data)
    assert(not err, err)
    if not data then
      return
    end
    buf = buf .. data
    while true do
      local len = buf:match('^Content%-Length: (%d+)\r\n\r\n')
      if not len then
        break
      end
      local head = #('Content-Length: ' .. len .. '\r\n\r\n')
      if #buf < head + tonumber(len) then
        break
      end
      table.insert(msgs, buf:sub(head + 1, head + tonumber(len)))
      buf = buf:sub(head + tonumber(len) + 1)
    end
  end)
  local seen = {}
  local function drain()
    while #msgs > 0 do
      table.insert(seen, vim.json.decode(table.remove(msgs, 1)))
    end
  end
  local function take(pred, what)
    local found
    assert(vim.wait(20000, function()
      drain()
      for i, m in ipairs(seen) do
        if pred(m) then
          found = table.remove(seen, i)
          return true
        end
      end
      return false
    end, 10), 'no ' .. what .. ' from skillc dap; got ' .. vim.inspect(seen))
    return found
  end
  local function request(command, arguments)
    seq = seq + 1
    local body = vim.json.encode({ seq = seq, type = 'request', command = command, arguments = arguments or vim.empty_dict() })
    stdin:write('Content-Length: ' .. #body .. '\r\n\r\n' .. body)
    local want = seq
    local r = take(function(m) return m.type == 'response' and m.request_seq == want end, command .. ' response')
    assert(r.success, command .. ' failed: ' .. tostring(r.message))
    return r.body
  end
  local function event(name)
    return take(function(m) return m.type == 'event' and m.event == name end, name .. ' event')
  end

  request('initialize', { adapterID = 'skillscript', linesStartAt1 = true, columnsStartAt1 = true })
  event('initialized')
  conf.stopOnEntry = false
  request('launch', conf)
  local bps = request('setBreakpoints', { source = { path = skill }, breakpoints = { { line = 5 } } })
  -- line 5 is the blank line before "greet:" in the fixture: bound to the target header
  assert(bps.breakpoints[1].verified and bps.breakpoints[1].line == 6, 'breakpoint: ' .. vim.inspect(bps))
  request('configurationDone')
  local stop = event('stopped')
  assert(stop.body.reason == 'breakpoint', vim.inspect(stop))
  local st = request('stackTrace', { threadId = 1 })
  local top = st.stackFrames[1]
  assert(top.name == 'debugme › greet' and top.line == 6, 'top frame ' .. vim.inspect(top))
  request('next', { threadId = 1 })
  event('stopped')
  request('next', { threadId = 1 })
  event('stopped')
  st = request('stackTrace', { threadId = 1 })
  top = st.stackFrames[1]
  assert(top.line == 8, 'after two steps: ' .. vim.inspect(top))
  local vars = {}
  for _, sc in ipairs(request('scopes', { frameId = top.id }).scopes) do
    for _, v in ipairs(request('variables', { variablesReference = sc.variablesReference }).variables) do
      vars[v.name] = v.value
    end
  end
  assert(vars.MESSAGE == '"hello nvim"' and vars.WHO == '"nvim"', 'variables ' .. vim.inspect(vars))
  local ev = request('evaluate', { expression = '${MESSAGE}, said ${WHO}', frameId = top.id })
  assert(ev.result == 'hello nvim, said nvim', 'evaluate ' .. vim.inspect(ev))
  request('continue', { threadId = 1 })
  local exited = event('exited')
  assert(exited.body.exitCode == 0, vim.inspect(exited))
  event('terminated')
  request('disconnect')
  stdin:close()
  return true
end

local ok, err = pcall(session)
if ok then
  io.stdout:write('ok: neovim dap session passed\n')
  vim.cmd('qall!')
else
  io.stdout:write('FAIL: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
