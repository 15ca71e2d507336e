package lang

import (
	"slices"

	"github.com/skillscript/skillc/ast"
)

// HeaderDoc documents one header.
type HeaderDoc struct {
	Kind    ast.HeaderKind
	Summary string
	Values  []string // enumerated values or value prefixes, if any
	Example string
	// Retired marks a header that is no longer written (a legacy spelling
	// or a removed header); editors do not offer it.
	Retired bool
}

// Headers returns the documentation of every known header, in canonical
// order.
func Headers() []HeaderDoc {
	return []HeaderDoc{
		{Kind: ast.HeaderSkill, Summary: "The skill's name: its identity in the skill store.", Example: "# Skill: morning-brief"},
		{Kind: ast.HeaderDescription, Summary: "When the skill should be invoked (not what it does).", Example: "# Description: Use when ..."},
		{Kind: ast.HeaderStatus, Summary: "Lifecycle state: `Draft`, `Approved` (with its approval token) or `Disabled`.", Values: []string{"Draft", "Approved", "Disabled"}, Example: "# Status: Draft"},
		{Kind: ast.HeaderType, Summary: "`procedural` (the default) or `data` (inlined at compile time with `inline()`).", Values: []string{"procedural", "data"}, Example: "# Type: data"},
		{Kind: ast.HeaderVars, Summary: "Input variables, comma-separated, each `NAME` or `NAME=default`.", Example: `# Vars: PROJECT="INFRA", LIMIT=5`},
		{Kind: ast.HeaderReturns, Summary: "Names exported to a calling skill (the output-side mirror of `# Vars:`).", Example: "# Returns: SUMMARY"},
		{Kind: ast.HeaderRequires, Summary: "Requirements: `user-var:key -> NAME`, `system-var:key -> NAME` (with optional fallback), `secret.NAME`, or a capability `type.flag`.", Values: []string{"user-var:", "system-var:", "secret."}, Example: "# Requires: secret.API_KEY"},
		{Kind: ast.HeaderTriggers, Summary: "What starts the skill: `cron: <expr>` or `event: <name>`.", Values: []string{"cron:", "event:"}, Example: "# Triggers: cron: 0 8 * * MON-FRI"},
		{Kind: ast.HeaderOutput, Summary: "Where the result goes: `text` (default), `none`, `agent: <name>`, `template: <name>` or `file: <path>`.", Values: []string{"text", "none", "agent:", "template:", "file:"}, Example: "# Output: agent: oncall"},
		{Kind: ast.HeaderEventType, Summary: "Routing label delivered with augmenting output (`agent:`/`template:`).", Example: "# Event-type: ticket-911"},
		{Kind: ast.HeaderTemplates, Summary: "Template-kind skills the receiving agent may fetch as follow-ups.", Example: "# Templates: triage-playbook"},
		{Kind: ast.HeaderTags, Summary: "Free-form classification labels; approval-neutral.", Example: "# Tags: email, deterministic"},
		{Kind: ast.HeaderClassification, Summary: "Gateway classification, `key=value` pairs: `role` (procedure, utility, sidecar), `invocation` (direct, attach, both), `effect_mode` (read_only, enrich, control_signal) and, for attach|both, `attach_targets` (task, run, output, transcript, artifact; comma-separated). Part of the approval signature.", Values: []string{"role=", "invocation=", "effect_mode=", "attach_targets="}, Example: "# Classification: role=sidecar invocation=attach effect_mode=read_only attach_targets=run,output"},
		{Kind: ast.HeaderAutonomous, Summary: "`true` authorises every mutation op of the skill without `approved=`.", Values: []string{"true", "false"}, Example: "# Autonomous: true"},
		{Kind: ast.HeaderTimeout, Summary: "Default per-op timeout in seconds.", Example: "# Timeout: 30"},
		{Kind: ast.HeaderDeadline, Summary: "Hard wall-clock bound of the whole run in seconds (uncatchable).", Example: "# Deadline: 300"},
		{Kind: ast.HeaderTests, Summary: "An indented YAML block of test cases (`given` / `expect`).", Example: "# Tests:"},
		{Kind: ast.HeaderDeliveryContext, Summary: "Legacy spelling of `# Event-type:`.", Retired: true},
		{Kind: ast.HeaderOnError, Summary: "Removed: handle errors with `else:` blocks and `(fallback: ...)`.", Retired: true},
	}
}

// Header returns the documentation of a header kind.
func Header(k ast.HeaderKind) (HeaderDoc, bool) {
	hs := Headers()
	i := slices.IndexFunc(hs, func(h HeaderDoc) bool { return h.Kind == k })
	if i < 0 {
		return HeaderDoc{}, false
	}
	return hs[i], true
}
