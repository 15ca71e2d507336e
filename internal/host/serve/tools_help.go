package serve

import (
	"context"
	"sort"
)

// HelpInput picks a help topic.
type HelpInput struct {
	Topic string `json:"topic,omitempty" jsonschema:"tools, triggers, errors or identity; an overview when empty"`
}

// HelpOutput is a help text.
type HelpOutput struct {
	Topic  string   `json:"topic"`
	Text   string   `json:"text"`
	Topics []string `json:"topics"`
	Tools  []string `json:"tools"`
}

// helpTopics returns the help texts by topic.
func helpTopics() map[string]string {
	return map[string]string{
		"overview": `skillc serve hosts skillscript skills. Author with skill_write (lint errors refuse the write), inspect with lint_skill, compile_skill and skill_preflight, approve with skill_status (unsecured mode), run with execute_skill (Approved skills; mechanical runs walk any skill without effects). Every run is recorded: fires lists them, health_metrics summarizes them.`,
		"tools":    `execute_skill {name|source, inputs, mechanical}; compile_skill and lint_skill {name|source}; skill_list {status, author, audience, trigger_kind, domain_tags, name_prefix, if_none_match}; skill_read/skill_preflight {name}; skill_write {name, source}; skill_status {name, status}; data_read {query, mode, limit, domain_tags, filters}; list_triggers, register_trigger, unregister_trigger, set_trigger_enabled; fires; health_metrics; runtime_capabilities; blocked_shell_attempts; skills_load, skills_unload, skills_read, skills_instructions (and skills_run_script when the operator enables scripts) for Agent Skills (SKILL.md) packages, also published over the MCP Skills extension (skills/list, skills/get, skill:// resources); skills_discover {intent, domain, role_filter, limit}, skills_list {domain, role, status, kind, offset, limit}, skills_attach {skill_id, target_type, target_ref, inputs} and skills_run {skill_id, inputs} are the skill gateway over both kinds (docs/gateway.md).`,
		"triggers": `A skill declares "# Triggers: cron: 0 9 * * *" (five fields, read in the host's timezone) or "# Triggers: event: name"; register_trigger takes a cron schedule with an IANA timezone, or an event. Only Approved skills fire. Declared triggers follow skill_write and skill_status; register_trigger adds persisted ones; it refuses a skill that cannot fire (Draft, Disabled, unsigned in secured mode) and returns the existing trigger for a repeated skill, schedule and timezone. POST /event {"event_name": name, "params": {...}} queues a run when event ingress is enabled. A host that was down fires the latest missed cron slot once; older slots are skipped.`,
		"errors":   `Bad arguments are JSON-RPC -32602 errors naming the field. Tool failures are isError results whose text is {"error": Name, "message": ..., "details": ...}; names include SkillNotFound, SkillNotApproved, SkillDisabled, LintError, ApprovalRequired, ShuttingDown, TriggerNotFound, TracingDisabled. A skill that runs and fails is not a tool error: execute_skill returns status "failed" with the errors.`,
		"identity": `When SKILLSCRIPT_MCP_CALLER_IDENTITY_HEADER names a header (e.g. X-Agent-Id), its value is the caller: skill_write stamps it as the author, runs record it as caller_agent_id and deliveries carry it in origin.caller_agent_id through execute_skill composition. Runs use the skill author's identity for connectors. The header beats a body's options.caller (gateway runs). A skill belongs to the identity that first wrote it: only that owner or the operator (SKILLSCRIPT_OPERATOR_IDENTITY, the CLI, the dashboard) may overwrite it or change its status (NotSkillOwner otherwise).`,
	}
}

func (ts *toolSet) help(_ context.Context, _ *call, in HelpInput) (HelpOutput, error) {
	topic := in.Topic
	if topic == "" {
		topic = "overview"
	}
	text, ok := helpTopics()[topic]
	if !ok {
		return HelpOutput{}, invalidParams("field topic: unknown topic %q (known: %v)", in.Topic, topicNames())
	}
	ts.mu.RLock()
	tools := append([]string(nil), ts.names...)
	ts.mu.RUnlock()
	return HelpOutput{Topic: topic, Text: text, Topics: topicNames(), Tools: tools}, nil
}

func topicNames() []string {
	topics := helpTopics()
	out := make([]string, 0, len(topics))
	for k := range topics {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
