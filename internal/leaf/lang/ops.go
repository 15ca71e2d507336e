package lang

// timeoutParam is the universal timeout= kwarg.
func timeoutParam() Param {
	return Param{Name: "timeout", Universal: true, Example: "30",
		Doc: "Per-op timeout in seconds (integer or `${VAR}`); overrides `# Timeout:`."}
}

// approvedParam is the universal approved= kwarg.
func approvedParam() Param {
	return Param{Name: "approved", Universal: true, Example: `"${1:reason}"`,
		Doc: "Author-intent marker for a mutation: any non-empty reason. Not forwarded to the tool."}
}

// Universal returns the op-level kwargs every "$" dispatch and shell()
// honour: the runtime consumes them and never forwards them to a tool.
func Universal() []Param { return []Param{timeoutParam(), approvedParam()} }

// IsUniversal reports whether key is a universal op-level kwarg.
func IsUniversal(key string) bool { return key == "timeout" || key == "approved" }

// ops returns the catalogued ops in reference order.
func ops() []OpSpec {
	return append(intrinsicOps(), typedContractOps()...)
}

// intrinsicOps returns the runtime-intrinsic function-call ops.
func intrinsicOps() []OpSpec {
	return []OpSpec{
		{Name: "emit", Class: Intrinsic, Binding: BindNone,
			Summary: "Appends text to the skill's emission stream, delivered by `# Output:`.",
			Params:  []Param{{Name: "text", Required: true, Doc: "The text to append (`\"\"\"...\"\"\"` for several lines).", Example: `"${1}"`}}},
		{Name: "notify", Class: Intrinsic, Binding: BindOptional, External: true,
			Summary: "Alerts an agent mid-run through the wired agent connector; binds an ACK.",
			Params: []Param{
				{Name: "agent", Required: true, Doc: "Target agent id.", Example: `"${1:agent}"`},
				{Name: "message", Doc: "Alert body; defaults to the emissions so far.", Example: `"${2}"`},
				{Name: "event_type", Doc: "Routing label; overrides `# Event-type:`.", Example: `"${3}"`},
				{Name: "correlation_id", Doc: "Reply-correlation id.", Example: `"${4}"`},
				{Name: "connectors", Doc: "JSON array restricting which agent connectors receive the alert.", Example: `[${5}]`},
			}},
		{Name: "inline", Class: Intrinsic, Binding: BindNone, SkillArg: "skill",
			Summary: "Inlines an Approved `# Type: data` skill at compile time.",
			Params:  []Param{{Name: "skill", Required: true, Doc: "Name of the data skill.", Example: `"${1:skill}"`}}},
		{Name: "execute_skill", Class: Intrinsic, Binding: BindOptional, External: true, SkillArg: "name", Dispatched: true,
			Summary: "Runs another skill in its own frame and binds its result.",
			Params: []Param{
				{Name: "name", Required: true, Doc: "Name of the skill to run (`skill_name=` is an accepted alias).", Example: `"${1:skill}"`},
				{Name: "inputs", Doc: "Object of input variables for the child's `# Vars:`.", Example: `{${2}}`},
				{Name: "skill_name", AliasOf: "name", Doc: "Back-compatible alias of `name`.", Example: `"${1:skill}"`},
			}},
		{Name: "shell", Class: Intrinsic, Binding: BindOptional, External: true, Mutates: Sometimes,
			Summary: "Spawns a binary (structural `command=`, explicit `argv=[...]`, or `unsafe=true` bash); stdout binds.",
			Params: []Param{
				{Name: "command", Doc: "Command line, split into tokens without a shell.", Example: `"${1}"`},
				{Name: "argv", Doc: "Explicit argument list; each element is one token (safest form).", Example: `["${1}"]`},
				{Name: "unsafe", Doc: "Run through bash (pipes, redirects); gated by `runtime.enable_unsafe_shell`.", Example: "true"},
				timeoutParam(), approvedParam(),
			}},
		{Name: "file_read", Class: Intrinsic, Binding: BindRequired,
			Summary: "Reads a file and binds its contents.",
			Params: []Param{
				{Name: "path", Required: true, Doc: "Path of the file.", Example: `"${1}"`},
				{Name: "encoding", Doc: "`utf8` (default) or `base64`.", Example: `"${1|utf8,base64|}"`, Values: []string{"utf8", "base64"}},
			}},
		{Name: "file_write", Class: Intrinsic, Binding: BindNone, Mutates: Always,
			Summary: "Writes content to a file, creating parent directories (a mutation).",
			Params: []Param{
				{Name: "path", Required: true, Doc: "Path of the file.", Example: `"${1}"`},
				{Name: "content", Required: true, Doc: "Text to write.", Example: `"${2}"`},
				approvedParam(),
			}},
	}
}

// typedContractOps returns the typed-contract "$ op"s.
func typedContractOps() []OpSpec {
	return []OpSpec{
		{Name: "llm", Class: TypedContract, Binding: BindOptional, External: true,
			Summary: "Runs a prompt on the wired local model.",
			Params: []Param{
				{Name: "prompt", Required: true, Doc: "The prompt (non-empty).", Example: `"${1}"`},
				{Name: "maxTokens", Doc: "Positive integer token limit (camelCase).", Example: "${1:500}"},
				{Name: "model", Doc: "Model alias or upstream model tag.", Example: `"${1}"`},
				timeoutParam(), approvedParam(),
			}},
		{Name: "data_read", Class: TypedContract, Binding: BindOptional, External: true,
			Summary: "Queries the wired data store.",
			Params: []Param{
				{Name: "mode", Doc: "Query mode, e.g. `fts`.", Example: "${1:fts}"},
				{Name: "query", Doc: "Query text.", Example: `"${1}"`},
				{Name: "limit", Doc: "Maximum number of results.", Example: "${1:5}"},
				{Name: "connector", Doc: "Data store connector to use.", Example: `"${1}"`},
				{Name: "domain_tags", Doc: "Tags to restrict the search to.", Example: `[${1}]`},
				{Name: "filters", Doc: "Structured filters.", Example: `{${1}}`},
				{Name: "min_confidence", Doc: "Lowest accepted confidence.", Example: "${1:0.5}"},
				timeoutParam(), approvedParam(),
			}},
		{Name: "data_write", Class: TypedContract, Binding: BindOptional, External: true, Mutates: Always,
			Summary: "Writes a record to the wired data store (a mutation).",
			Params: []Param{
				{Name: "content", Required: true, Doc: "Record content.", Example: `"${1}"`},
				{Name: "tags", Doc: "Tags of the record.", Example: `[${1}]`},
				{Name: "recipients", Doc: "Who the handoff is for.", Example: `[${1}]`},
				timeoutParam(), approvedParam(),
			}},
		{Name: "skill_read", Class: TypedContract, Binding: BindOptional, External: true,
			Summary: "Reads a skill from the wired skill store.",
			Params: []Param{
				{Name: "name", Required: true, Doc: "Skill name.", Example: `"${1}"`},
				timeoutParam(), approvedParam(),
			}},
		{Name: "skill_write", Class: TypedContract, Binding: BindOptional, External: true, Mutates: Always,
			Summary: "Writes a skill to the wired skill store (a mutation).",
			Params: []Param{
				{Name: "name", Required: true, Doc: "Skill name.", Example: `"${1}"`},
				{Name: "source", Required: true, Doc: "Skill source text.", Example: `"${2}"`},
				{Name: "overwrite", Doc: "Replace an existing skill.", Example: "true"},
				timeoutParam(), approvedParam(),
			}},
		{Name: "json_parse", Class: TypedContract, Binding: BindOptional, Positional: "RAW",
			Summary: "Parses a JSON string (one positional value) into structured data."},
	}
}
