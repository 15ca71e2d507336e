package serve

// register adds every tool. Names are snake_case, as agents call them.
func (ts *toolSet) register() {
	addTool(ts, "execute_skill", "Run a stored skill by name (it must be Approved unless mechanical) or an inline source. Returns the run result and its trace_id.", ts.executeSkill)
	addTool(ts, "compile_skill", "Parse and check a skill (by name or source): errors, run order, inputs, outputs, triggers and effectful footprint.", ts.compileSkill)
	addTool(ts, "lint_skill", "Lint a skill (by name or source) exactly like skillc check; diagnostics carry line:column ranges and fixes.", ts.lintSkill)
	addTool(ts, "skill_list", "List stored skills with filters; pass if_none_match with a previous catalog_version to get {not_modified:true} when nothing changed.", ts.skillList)
	addTool(ts, "skill_read", "Read a stored skill's source and metadata.", ts.skillRead)
	addTool(ts, "skill_write", "Write (create or overwrite) a skill. The caller identity becomes its author; with an identity header only the skill's first author or the operator may overwrite it. Sources with lint errors are refused.", ts.skillWrite)
	addTool(ts, "skill_status", "Change a skill's lifecycle status (Draft, Approved, Disabled); with an identity header only the skill's first author or the operator may.", ts.skillStatus)
	addTool(ts, "skill_preflight", "Check whether a stored skill can run: status, required inputs, declared secrets, footprint, triggers and diagnostics.", ts.skillPreflight)
	addTool(ts, "data_read", "Query the configured data store (the $ data_read op).", ts.dataRead)
	addTool(ts, "list_triggers", "List cron and event triggers (declared and registered).", ts.listTriggers)
	addTool(ts, "register_trigger", "Register a cron or event trigger for an Approved skill (a Draft, Disabled or, in secured mode, unsigned one is refused); persisted across restarts. Registering the same skill, kind, schedule or event and timezone again returns the existing trigger.", ts.registerTrigger)
	addTool(ts, "unregister_trigger", "Remove a registered trigger by id.", ts.unregisterTrigger)
	addTool(ts, "set_trigger_enabled", "Enable or disable a trigger by id.", ts.setTriggerEnabled)
	addTool(ts, "fires", "Recorded runs (traces), newest first, filtered by skill or trace_id.", ts.fires)
	addTool(ts, "health_metrics", "Per-skill run health from the trace store (ok/failed/aborted counts, latency percentiles) and host status.", ts.healthMetrics)
	addTool(ts, "runtime_capabilities", "What this runtime has wired: stores, connectors, models, agents, policy switches and features.", ts.runtimeCapabilities)
	addTool(ts, "blocked_shell_attempts", "Shell ops refused by the binary allowlist or the unsafe-shell switch, from the trace store.", ts.blockedShellAttempts)
	addTool(ts, "help", "An overview of the tools and topics (tools, triggers, errors, identity).", ts.help)
	ts.registerAgentSkills()
	ts.registerGateway()
}
