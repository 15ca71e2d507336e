package config

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// kind is the type of a setting's value.
type kind int

const (
	kindPath     kind = iota // a file system path (string)
	kindString               // a plain string
	kindList                 // a comma-separated list or JSON array of strings
	kindPathList             // a kindList of paths
	kindBool                 // a boolean
	kindInt                  // a non-negative integer
)

// setting describes one configurable value: the environment variables that
// override it (first wins), the members of skillscript.config.json that set
// it (JSON pointers, first wins) and how to store it in a Config.
type setting struct {
	name  string
	env   []string
	keys  []string
	kind  kind
	apply func(c *Config, v any)
}

// settingsTable returns every setting Load resolves. The table is built
// once per process (every Load walks it three times); callers only read it.
var settingsTable = sync.OnceValue(buildSettingsTable)

// buildSettingsTable builds the table of settingsTable.
func buildSettingsTable() []setting {
	return []setting{
		{"skills_dir", []string{"SKILLSCRIPT_SKILLS_DIR"}, []string{"/skillsDir"}, kindPath, func(c *Config, v any) { c.SkillsDir = v.(string) }},
		{"skills_db", []string{"SKILLSCRIPT_SKILLS_DB"}, []string{"/skillsDbPath"}, kindPath, func(c *Config, v any) { c.SkillsDBPath = v.(string) }},
		{"trace_dir", []string{"SKILLSCRIPT_TRACE_DIR"}, []string{"/traceDir"}, kindPath, func(c *Config, v any) { c.TraceDir = v.(string) }},
		{"data_db", []string{"DATA_DB"}, []string{"/dataDbPath"}, kindPath, func(c *Config, v any) { c.DataDBPath = v.(string) }},
		{"triggers_file", nil, []string{"/triggersFilePath"}, kindPath, func(c *Config, v any) { c.TriggersPath = v.(string) }},
		{"shell_allowlist", []string{"SKILLSCRIPT_SHELL_ALLOWLIST"}, []string{"/shellAllowlist"}, kindList, func(c *Config, v any) { c.ShellAllowlist = v.([]string) }},
		{"enable_unsafe_shell", []string{"SKILLSCRIPT_ENABLE_UNSAFE_SHELL"}, []string{"/runtime/enable_unsafe_shell", "/enableUnsafeShell"}, kindBool, func(c *Config, v any) { c.EnableUnsafeShell = v.(bool) }},
		{"fs_allowlist", []string{"SKILLSCRIPT_FS_ALLOWLIST"}, []string{"/fsAllowlist"}, kindPathList, func(c *Config, v any) { c.FSAllowlist = v.([]string) }},
		{"secured_mode", []string{"SKILLSCRIPT_SECURED_MODE"}, []string{"/runtime/secured_mode", "/securedMode"}, kindBool, func(c *Config, v any) { c.SecuredMode = v.(bool) }},
		{"force_always_draft", []string{"SKILLSCRIPT_FORCE_ALWAYS_DRAFT"}, []string{"/runtime/force_always_draft", "/forceAlwaysDraft"}, kindBool, func(c *Config, v any) { c.ForceAlwaysDraft = v.(bool) }},
		{"max_deadline", []string{"SKILLSCRIPT_MAX_DEADLINE_SECONDS"}, []string{"/runtime/max_deadline_seconds", "/maxDeadlineSeconds"}, kindInt, func(c *Config, v any) { c.MaxDeadline = time.Duration(v.(int)) * time.Second }},
		{"max_recursion_depth", []string{"SKILLSCRIPT_MAX_RECURSION_DEPTH"}, []string{"/runtime/max_recursion_depth", "/maxRecursionDepth"}, kindInt, func(c *Config, v any) { c.MaxRecursionDepth = v.(int) }},
		{"max_value_bytes", []string{"SKILLSCRIPT_MAX_VALUE_BYTES"}, []string{"/runtime/max_value_bytes", "/maxValueBytes"}, kindInt, func(c *Config, v any) { c.MaxValueBytes = v.(int) }},
		{"max_ops", []string{"SKILLSCRIPT_MAX_OPS"}, []string{"/runtime/max_ops", "/maxOps"}, kindInt, func(c *Config, v any) { c.MaxOps = v.(int) }},
		{"max_memory_bytes", []string{"SKILLSCRIPT_MAX_MEMORY_BYTES"}, []string{"/runtime/max_memory_bytes", "/maxMemoryBytes"}, kindInt, func(c *Config, v any) { c.MaxMemoryBytes = v.(int) }},
		{"absolute_timeout", []string{"SKILLSCRIPT_ABSOLUTE_TIMEOUT_MS"}, []string{"/runtime/absolute_timeout_ms", "/absoluteTimeoutMs"}, kindInt, func(c *Config, v any) { c.AbsoluteTimeout = time.Duration(v.(int)) * time.Millisecond }},
		{"host", []string{"SKILLSCRIPT_HOST"}, []string{"/dashboard/host"}, kindString, func(c *Config, v any) { c.Host = v.(string) }},
		{"port", []string{"SKILLSCRIPT_PORT"}, []string{"/dashboard/port"}, kindInt, func(c *Config, v any) { c.Port = v.(int) }},
		{"identity_header", []string{"SKILLSCRIPT_MCP_CALLER_IDENTITY_HEADER"}, []string{"/dashboard/mcpCallerIdentityHeader"}, kindString, func(c *Config, v any) { c.IdentityHeader = v.(string) }},
		{"poll_interval", []string{"SKILLSCRIPT_POLL_INTERVAL_SECONDS"}, []string{"/pollIntervalSeconds", "/scheduler/pollIntervalSeconds"}, kindInt, func(c *Config, v any) { c.PollInterval = time.Duration(v.(int)) * time.Second }},
	}
}

// Defaults of the settings that do not derive from SKILLSCRIPT_HOME.
const (
	DefaultMaxRecursionDepth = 10
	// The run's resource bounds (the evaluator's defaults; issue 13).
	DefaultMaxValueBytes   = 32 << 20
	DefaultMaxOps          = 1_000_000
	DefaultMaxMemoryBytes  = 512 << 20
	DefaultAbsoluteTimeout = 300 * time.Second
	DefaultHost            = "127.0.0.1"
	DefaultPort            = 7878
)

// maxInt bounds integer settings so that durations cannot overflow.
const maxInt = 1 << 31

// parseText converts the text form of a value (an environment variable or a
// JSON string) to the kind of a setting.
func parseText(k kind, s string) (any, error) {
	switch k {
	case kindList, kindPathList:
		return splitList(s), nil
	case kindBool:
		return parseBool(s)
	case kindInt:
		return parseInt(s)
	}
	return s, nil
}

// splitList splits a comma-separated list, trimming entries and dropping
// empty ones. An empty string is an empty (deny-all) list, never nil.
func splitList(s string) []string {
	out := []string{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// parseBool accepts true/false, 1/0, yes/no and on/off in any case.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off", "":
		return false, nil
	}
	return false, fmt.Errorf("%s is not a boolean (use true or false)", quote(s))
}

// parseInt accepts a non-negative decimal integer.
func parseInt(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > maxInt {
		return 0, fmt.Errorf("%s is not a non-negative integer", quote(s))
	}
	return n, nil
}
