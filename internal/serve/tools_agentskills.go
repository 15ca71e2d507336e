package serve

import (
	"context"

	"github.com/skillscript/skillc/internal/skillrt"
)

// registerAgentSkills adds the Agent Skills tools (skills_load,
// skills_unload, skills_read and, when the runtime enables scripts,
// skills_run_script) when the host has a skills runtime. The MCP session
// is the skills session.
func (ts *toolSet) registerAgentSkills() {
	rt := ts.h.skills
	if rt == nil {
		return
	}
	addSessionTool(ts, skillrt.ToolLoad, "Activate Agent Skills (SKILL.md packages) by name for this session; returns their instructions and files.", rt.Load)
	addSessionTool(ts, skillrt.ToolUnload, "Deactivate Agent Skills of this session.", rt.Unload)
	addSessionTool(ts, skillrt.ToolRead, "Read a file of an active Agent Skill package.", rt.Read)
	for _, name := range rt.ToolNames() {
		if name == skillrt.ToolRunScript {
			addTool(ts, name, "Run a script of an active Agent Skill package.", func(ctx context.Context, c *call, in skillrt.RunScriptInput) (skillrt.RunScriptOutput, error) {
				out, err := rt.RunScript(ctx, c.session, in)
				return out, agentSkillErr(err)
			})
		}
	}
}

// addSessionTool registers a skills runtime method keyed by MCP session.
func addSessionTool[In, Out any](ts *toolSet, name, desc string, fn func(string, In) (Out, error)) {
	addTool(ts, name, desc, func(_ context.Context, c *call, in In) (Out, error) {
		out, err := fn(c.session, in)
		return out, agentSkillErr(err)
	})
}

// agentSkillErr names a skills runtime refusal for the caller (its
// message says what to do); nil stays nil.
func agentSkillErr(err error) error {
	if err == nil {
		return nil
	}
	return wrapErr(ErrAgentSkill, err)
}
