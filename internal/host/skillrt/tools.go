package skillrt

// The tool names a host registers for the methods of Runtime. They use
// underscores: dotted names ("skills.load") fail the tool-name patterns of
// several model APIs and MCP clients.
const (
	ToolLoad      = "skills_load"
	ToolUnload    = "skills_unload"
	ToolRead      = "skills_read"
	ToolRunScript = "skills_run_script"
)

// ToolNames returns the tool names, skills_run_script only when scripts
// are enabled (a host registers only tools that can work).
func (rt *Runtime) ToolNames() []string {
	out := []string{ToolLoad, ToolUnload, ToolRead}
	if rt.opts.Scripts.Enabled {
		out = append(out, ToolRunScript)
	}
	return out
}

// Names returns the names a host may offer as the enum of skills_load's
// names parameter: the visible skills of the registry, sorted.
func (rt *Runtime) Names() []string { return rt.reg.Names() }
