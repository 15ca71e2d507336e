-- skillc.dap: nvim-dap configuration for the skillscript debugger
-- (`skillc dap`, the Debug Adapter Protocol over stdio).
--
--   require('skillc.dap').setup()            -- needs mfussenegger/nvim-dap
--   require('skillc.dap').setup({ command = '/path/to/skillc' })
--
-- setup() registers the adapter `skillscript` and three configurations
-- for the `skillscript` filetype: debug the current skill (with its
-- <name>.mock.yaml when there is one, else mechanically), the same with a
-- mock file asked for, and the replay of a recorded trace (a trace id from
-- `skillc fires`). M.adapter() and M.configurations() return the tables
-- without nvim-dap, for other clients and for the tests.

local M = {}

-- M.adapter returns the nvim-dap adapter: `<command> dap` over stdio.
function M.adapter(opts)
  opts = opts or {}
  return { type = 'executable', command = opts.command or 'skillc', args = { 'dap' }, options = { cwd = opts.cwd } }
end

-- M.configurations returns the launch configurations. Values that are
-- functions are evaluated by nvim-dap when the session starts.
function M.configurations()
  local file = function() return vim.fn.expand('%:p') end
  return {
    { type = 'skillscript', request = 'launch', name = 'Debug skill', program = file, stopOnEntry = true },
    {
      type = 'skillscript', request = 'launch', name = 'Debug skill with a mock file', program = file,
      mocks = function() return vim.fn.input('Mock file: ', vim.fn.expand('%:p:r:r') .. '.mock.yaml', 'file') end,
    },
    {
      type = 'skillscript', request = 'launch', name = 'Replay a trace', program = file,
      trace = function() return vim.fn.input('Trace id (skillc fires): ') end,
    },
  }
end

-- M.setup registers the adapter and the configurations with nvim-dap.
function M.setup(opts)
  local ok, dap = pcall(require, 'dap')
  if not ok then
    vim.notify('skillc.dap: nvim-dap (mfussenegger/nvim-dap) is not installed', vim.log.levels.WARN)
    return false
  end
  dap.adapters.skillscript = M.adapter(opts)
  dap.configurations.skillscript = M.configurations()
  return true
end

return M
