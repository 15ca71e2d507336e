package lsp

import (
	"fmt"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// This file holds the reference text the server shows in hovers,
// completions and signature help. It documents the language; it decides
// nothing (diagnostics come from the analyzer).

// opClass is the class of an op.
type opClass int

const (
	callOp     opClass = iota + 1 // verb(kwarg=...)
	contractOp                    // $ llm ..., $ data_read ...
)

// param is one keyword argument of an op.
type param struct {
	Name     string
	Doc      string
	Required bool
	Example  string // snippet value, e.g. `"${1}"`
}

// opSpec documents one op.
type opSpec struct {
	Name    string
	Class   opClass
	Summary string
	Binds   string // "optional", "required" or "none"
	Params  []param
}

// universalParams are honoured by every $ dispatch (and timeout/approved by shell).
func universalParams() []param {
	return []param{
		{Name: "timeout", Doc: "Per-op timeout in seconds (integer or `${VAR}`); overrides `# Timeout:`.", Example: "30"},
		{Name: "approved", Doc: "Author-intent marker for a mutation: any non-empty reason. Not forwarded to the tool.", Example: `"${1:reason}"`},
	}
}

// ops returns the documented ops in a stable order.
func ops() []opSpec {
	u := universalParams()
	return []opSpec{
		{Name: "emit", Class: callOp, Binds: "none", Summary: "Appends text to the skill's emission stream, delivered by `# Output:`.",
			Params: []param{{Name: "text", Required: true, Doc: "The text to append (`\"\"\"...\"\"\"` for several lines).", Example: `"${1}"`}}},
		{Name: "notify", Class: callOp, Binds: "optional", Summary: "Alerts an agent mid-run through the wired agent connector; binds an ACK.",
			Params: []param{
				{Name: "agent", Required: true, Doc: "Target agent id.", Example: `"${1:agent}"`},
				{Name: "message", Doc: "Alert body; defaults to the emissions so far.", Example: `"${2}"`},
				{Name: "event_type", Doc: "Routing label; overrides `# Event-type:`.", Example: `"${3}"`},
				{Name: "correlation_id", Doc: "Reply-correlation id.", Example: `"${4}"`},
				{Name: "connectors", Doc: "JSON array restricting which agent connectors receive the alert.", Example: `[${5}]`},
			}},
		{Name: "inline", Class: callOp, Binds: "none", Summary: "Inlines an Approved `# Type: data` skill at compile time.",
			Params: []param{{Name: "skill", Required: true, Doc: "Name of the data skill.", Example: `"${1:skill}"`}}},
		{Name: "execute_skill", Class: callOp, Binds: "optional", Summary: "Runs another skill in its own frame and binds its result.",
			Params: []param{
				{Name: "name", Required: true, Doc: "Name of the skill to run (`skill_name=` is an accepted alias).", Example: `"${1:skill}"`},
				{Name: "inputs", Doc: "Object of input variables for the child's `# Vars:`.", Example: `{${2}}`},
				{Name: "skill_name", Doc: "Back-compatible alias of `name`.", Example: `"${1:skill}"`},
			}},
		{Name: "shell", Class: callOp, Binds: "optional", Summary: "Spawns a binary (structural `command=`, explicit `argv=[...]`, or `unsafe=true` bash); stdout binds.",
			Params: append([]param{
				{Name: "command", Doc: "Command line, split into tokens without a shell.", Example: `"${1}"`},
				{Name: "argv", Doc: "Explicit argument list; each element is one token (safest form).", Example: `["${1}"]`},
				{Name: "unsafe", Doc: "Run through bash (pipes, redirects); gated by `runtime.enable_unsafe_shell`.", Example: "true"},
			}, u...)},
		{Name: "file_read", Class: callOp, Binds: "required", Summary: "Reads a file and binds its contents.",
			Params: []param{
				{Name: "path", Required: true, Doc: "Path of the file.", Example: `"${1}"`},
				{Name: "encoding", Doc: "`utf8` (default) or `base64`.", Example: `"${1|utf8,base64|}"`},
			}},
		{Name: "file_write", Class: callOp, Binds: "none", Summary: "Writes content to a file, creating parent directories (a mutation).",
			Params: []param{
				{Name: "path", Required: true, Doc: "Path of the file.", Example: `"${1}"`},
				{Name: "content", Required: true, Doc: "Text to write.", Example: `"${2}"`},
				u[1],
			}},
		{Name: "llm", Class: contractOp, Binds: "optional", Summary: "Runs a prompt on the wired local model.",
			Params: append([]param{
				{Name: "prompt", Required: true, Doc: "The prompt (non-empty).", Example: `"${1}"`},
				{Name: "maxTokens", Doc: "Positive integer token limit (camelCase).", Example: "${1:500}"},
				{Name: "model", Doc: "Model alias or upstream model tag.", Example: `"${1}"`},
			}, u...)},
		{Name: "data_read", Class: contractOp, Binds: "optional", Summary: "Queries the wired data store.",
			Params: append([]param{
				{Name: "mode", Doc: "Query mode, e.g. `fts`.", Example: "${1:fts}"},
				{Name: "query", Doc: "Query text.", Example: `"${1}"`},
				{Name: "limit", Doc: "Maximum number of results.", Example: "${1:5}"},
				{Name: "connector", Doc: "Data store connector to use.", Example: `"${1}"`},
				{Name: "domain_tags", Doc: "Tags to restrict the search to.", Example: `[${1}]`},
				{Name: "filters", Doc: "Structured filters.", Example: `{${1}}`},
				{Name: "min_confidence", Doc: "Lowest accepted confidence.", Example: "${1:0.5}"},
			}, u[0])},
		{Name: "data_write", Class: contractOp, Binds: "optional", Summary: "Writes a record to the wired data store (a mutation).",
			Params: append([]param{
				{Name: "content", Required: true, Doc: "Record content.", Example: `"${1}"`},
				{Name: "tags", Doc: "Tags of the record.", Example: `[${1}]`},
				{Name: "recipients", Doc: "Who the handoff is for.", Example: `[${1}]`},
			}, u...)},
		{Name: "skill_read", Class: contractOp, Binds: "optional", Summary: "Reads a skill from the wired skill store.",
			Params: []param{{Name: "name", Required: true, Doc: "Skill name.", Example: `"${1}"`}, u[0]}},
		{Name: "skill_write", Class: contractOp, Binds: "optional", Summary: "Writes a skill to the wired skill store (a mutation).",
			Params: append([]param{
				{Name: "name", Required: true, Doc: "Skill name.", Example: `"${1}"`},
				{Name: "source", Required: true, Doc: "Skill source text.", Example: `"${2}"`},
				{Name: "overwrite", Doc: "Replace an existing skill.", Example: "true"},
			}, u...)},
		{Name: "json_parse", Class: contractOp, Binds: "required", Summary: "Parses a JSON string (one positional value) into structured data.",
			Params: nil},
	}
}

// lookupOp returns the spec of an op name.
func lookupOp(name string) (opSpec, bool) {
	for _, o := range ops() {
		if o.Name == name {
			return o, true
		}
	}
	return opSpec{}, false
}

// param returns the named parameter of o.
func (o opSpec) param(name string) (param, bool) {
	for _, p := range o.Params {
		if p.Name == name {
			return p, true
		}
	}
	return param{}, false
}

// signature renders o as a one-line signature.
func (o opSpec) signature() string {
	var parts []string
	for _, p := range o.Params {
		s := p.Name + "=…"
		if !p.Required {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	bind := ""
	switch o.Binds {
	case "optional":
		bind = " [-> R]"
	case "required":
		bind = " -> R"
	}
	if o.Class == contractOp {
		if o.Name == "json_parse" {
			return "$ json_parse ${RAW}" + bind
		}
		return "$ " + o.Name + " " + strings.Join(parts, " ") + bind
	}
	return o.Name + "(" + strings.Join(parts, ", ") + ")" + bind
}

// markdown renders the documentation of o.
func (o opSpec) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "```skillscript\n%s\n```\n\n%s\n", o.signature(), o.Summary)
	if len(o.Params) > 0 {
		b.WriteString("\n")
		for _, p := range o.Params {
			req := ""
			if p.Required {
				req = " (required)"
			}
			fmt.Fprintf(&b, "- `%s`%s: %s\n", p.Name, req, p.Doc)
		}
	}
	return b.String()
}

// snippet returns the insert text of o with its required kwargs.
func (o opSpec) snippet() string {
	var args []string
	n := 1
	for _, p := range o.Params {
		if p.Required {
			args = append(args, p.Name+"="+renumber(p.Example, n))
			n++
		}
	}
	if o.Class == contractOp {
		if o.Name == "json_parse" {
			return "json_parse ${${1:RAW}} -> ${2:PARSED}"
		}
		return o.Name + " " + strings.Join(args, " ") + " -> ${" + fmt.Sprint(n) + ":R}"
	}
	s := o.Name + "(" + strings.Join(args, ", ") + ")"
	if o.Binds == "required" {
		s += " -> ${" + fmt.Sprint(n) + ":R}"
	}
	return s
}

// renumber rewrites the first snippet placeholder of ex to tab stop n.
func renumber(ex string, n int) string {
	for _, pre := range []string{"${1", "${2", "${3", "${4", "${5"} {
		if i := strings.Index(ex, pre); i >= 0 {
			return ex[:i] + "${" + fmt.Sprint(n) + ex[i+len(pre):]
		}
	}
	return ex
}

// headerSpec documents one header.
type headerSpec struct {
	Kind    ast.HeaderKind
	Summary string
	Values  []string // enumerated values, if any
	Example string
}

// headers returns the documented headers.
func headers() []headerSpec {
	return []headerSpec{
		{ast.HeaderSkill, "The skill's name: its identity in the skill store.", nil, "# Skill: morning-brief"},
		{ast.HeaderDescription, "When the skill should be invoked (not what it does).", nil, "# Description: Use when ..."},
		{ast.HeaderStatus, "Lifecycle state: `Draft`, `Approved` (with its approval token) or `Disabled`.", []string{"Draft", "Approved", "Disabled"}, "# Status: Draft"},
		{ast.HeaderType, "`procedural` (the default) or `data` (inlined at compile time with `inline()`).", []string{"procedural", "data"}, "# Type: data"},
		{ast.HeaderVars, "Input variables, comma-separated, each `NAME` or `NAME=default`.", nil, `# Vars: PROJECT="INFRA", LIMIT=5`},
		{ast.HeaderReturns, "Names exported to a calling skill (the output-side mirror of `# Vars:`).", nil, "# Returns: SUMMARY"},
		{ast.HeaderRequires, "Requirements: `user-var:key -> NAME`, `system-var:key -> NAME` (with optional fallback), `secret.NAME`, or a capability `type.flag`.", []string{"user-var:", "system-var:", "secret."}, "# Requires: secret.API_KEY"},
		{ast.HeaderTriggers, "What starts the skill: `cron: <expr>` or `event: <name>`.", []string{"cron:", "event:"}, "# Triggers: cron: 0 8 * * MON-FRI"},
		{ast.HeaderOutput, "Where the result goes: `text` (default), `none`, `agent: <name>`, `template: <name>` or `file: <path>`.", []string{"text", "none", "agent:", "template:", "file:"}, "# Output: agent: oncall"},
		{ast.HeaderEventType, "Routing label delivered with augmenting output (`agent:`/`template:`).", nil, "# Event-type: ticket-911"},
		{ast.HeaderTemplates, "Template-kind skills the receiving agent may fetch as follow-ups.", nil, "# Templates: triage-playbook"},
		{ast.HeaderTags, "Free-form classification labels; approval-neutral.", nil, "# Tags: email, deterministic"},
		{ast.HeaderAutonomous, "`true` authorises every mutation op of the skill without `approved=`.", []string{"true", "false"}, "# Autonomous: true"},
		{ast.HeaderTimeout, "Default per-op timeout in seconds.", nil, "# Timeout: 30"},
		{ast.HeaderDeadline, "Hard wall-clock bound of the whole run in seconds (uncatchable).", nil, "# Deadline: 300"},
		{ast.HeaderTests, "An indented YAML block of test cases (`given` / `expect`).", nil, "# Tests:"},
		{ast.HeaderDeliveryContext, "Legacy spelling of `# Event-type:`.", nil, ""},
		{ast.HeaderOnError, "Removed: handle errors with `else:` blocks and `(fallback: ...)`.", nil, ""},
	}
}

// lookupHeader returns the spec of a header kind.
func lookupHeader(k ast.HeaderKind) (headerSpec, bool) {
	for _, h := range headers() {
		if h.Kind == k {
			return h, true
		}
	}
	return headerSpec{}, false
}

// markdown renders the documentation of a header.
func (h headerSpec) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**# %s:** %s\n", h.Kind, h.Summary)
	if len(h.Values) > 0 {
		fmt.Fprintf(&b, "\nValues: `%s`\n", strings.Join(h.Values, "`, `"))
	}
	if h.Example != "" {
		fmt.Fprintf(&b, "\n```skillscript\n%s\n```\n", h.Example)
	}
	return b.String()
}

// ambientDocs documents the ambient references.
func ambientDoc(name string) string {
	switch name {
	case "NOW":
		return "The current time."
	case "USER":
		return "The invoking user (`${USER.login}`, ...)."
	case "SESSION_CONTEXT":
		return "The calling session's context."
	case "TRIGGER_TYPE":
		return "What started the run (`cron`, `event`, `manual`, ...)."
	case "TRIGGER_PAYLOAD":
		return "The payload of the trigger."
	case "EVENT":
		return "The trigger event (`${EVENT.fired_at_unix}`, ...)."
	case "ERROR_CONTEXT":
		return "Inside `else:`: the error that routed here."
	}
	return ""
}

// keywords are the statement keywords offered at the start of a body line.
func keywords() []struct{ Label, Snippet, Doc string } {
	return []struct{ Label, Snippet, Doc string }{
		{"$set", "\\$set ${1:NAME} = ${2:value}", "Binds a variable (with `${}` interpolation at bind time)."},
		{"$append", "\\$append ${1:NAME} ${2:value}", "Appends to a list or string accumulator initialised in an enclosing scope."},
		{"foreach", "foreach ${1:ITEM} in \\${${2:LIST}}:\n\t$0", "Iterates over a list; bindings inside are loop-local."},
		{"if", "if ${1:condition}:\n\t$0", "Conditional block (`==`, `!=`, `<`, `in`, `and`, `or`, `not`)."},
		{"needs", "needs: ${1:target}", "Declares targets that run before this one."},
		{"else", "else:\n\t$0", "Error handler of the target, or the else branch of an if."},
	}
}
