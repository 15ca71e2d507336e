package serve

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillscript/skillc/internal/host/skillrt"
)

// ToolInstructions names the tool (and the prompt) returning the
// session's composed Agent Skills instructions.
const ToolInstructions = "skills_instructions"

// InstructionsInput takes no arguments: the MCP session is the skills
// session.
type InstructionsInput struct{}

// InstructionsOutput is skillrt.Runtime.Compose for the caller's session:
// the base rule, <available_skills> and <active_skills>, or "" when no
// skill is available or active.
type InstructionsOutput struct {
	Instructions string `json:"instructions" jsonschema:"the skill part of the system prompt for this session: <available_skills> and <active_skills>; empty when there are none"`
}

// registerAgentSkills adds the Agent Skills tools (skills_load,
// skills_unload, skills_read, skills_instructions and, when the runtime
// enables scripts, skills_run_script) and the skills_instructions prompt
// when the host has a skills runtime. The MCP session is the skills
// session. The skill-name parameters carry an enum of the registry's
// visible names; syncSkills registers the tools again when it changes.
func (ts *toolSet) registerAgentSkills() {
	rt := ts.h.skills
	if rt == nil {
		return
	}
	ts.skillsGen = rt.Registry().Generation()
	ts.addAgentSkillTools(rt.Names())
	addTool(ts, ToolInstructions, "The Agent Skills instructions for this session (catalog of available skills and the bodies of active ones), as the host would put them in the system prompt.",
		func(_ context.Context, c *call, _ InstructionsInput) (InstructionsOutput, error) {
			return InstructionsOutput{Instructions: rt.Compose(c.session)}, nil
		})
	ts.srv.AddPrompt(&mcp.Prompt{Name: ToolInstructions, Description: "The Agent Skills instructions of this session (<available_skills>, <active_skills>) as a system-prompt text."},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			text := rt.Compose(sessionKey(req.Session))
			return &mcp.GetPromptResult{Description: "Agent Skills instructions", Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
		})
}

// addAgentSkillTools (re-)registers the tools whose parameters name
// skills, with names as the enum (no enum when there are none).
func (ts *toolSet) addAgentSkillTools(names []string) {
	rt := ts.h.skills
	addSessionTool(ts, skillrt.ToolLoad, "Activate Agent Skills (SKILL.md packages) by name for this session; returns their instructions and files.", enumItems("names", names), rt.Load)
	addSessionTool(ts, skillrt.ToolUnload, "Deactivate Agent Skills of this session.", enumItems("names", names), rt.Unload)
	addSessionTool(ts, skillrt.ToolRead, "Read a file of an active Agent Skill package.", enumProp("skill", names), rt.Read)
	for _, name := range rt.ToolNames() {
		if name == skillrt.ToolRunScript {
			addToolSchema(ts, name, "Run a script of an active Agent Skill package.", enumProp("skill", names), func(ctx context.Context, c *call, in skillrt.RunScriptInput) (skillrt.RunScriptOutput, error) {
				out, err := rt.RunScript(ctx, c.session, in)
				return out, agentSkillErr(err)
			})
		}
	}
}

// enumProp constrains the string property prop to names.
func enumProp(prop string, names []string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		if p := s.Properties[prop]; p != nil && len(names) > 0 {
			p.Enum = enumValues(names)
		}
	}
}

// enumItems constrains the items of the string-array property prop to
// names.
func enumItems(prop string, names []string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		if p := s.Properties[prop]; p != nil && p.Items != nil && len(names) > 0 {
			p.Items.Enum = enumValues(names)
		}
	}
}

func enumValues(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// syncSkills re-registers the Agent Skills tools (new name enum) and the
// skill:// resources when the registry's generation moved since the last
// time; the go-sdk then sends tools and resources list_changed
// notifications. It runs at the start of every request, so a client sees
// the change on its next call.
func (ts *toolSet) syncSkills() {
	rt := ts.h.skills
	if rt == nil {
		return
	}
	ts.skillsMu.Lock()
	defer ts.skillsMu.Unlock()
	gen := rt.Registry().Generation()
	if gen == ts.skillsGen {
		return
	}
	ts.skillsGen = gen
	ts.addAgentSkillTools(rt.Names())
	ts.syncSkillResources()
}

// addSessionTool registers a skills runtime method keyed by MCP session.
func addSessionTool[In, Out any](ts *toolSet, name, desc string, adjust func(*jsonschema.Schema), fn func(string, In) (Out, error)) {
	addToolSchema(ts, name, desc, adjust, func(_ context.Context, c *call, in In) (Out, error) {
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
