package serve

import (
	"errors"
	"fmt"
)

// Tool error names: the "error" member of an isError tool result.
const (
	ErrSkillNotFound     = "SkillNotFound"
	ErrSkillNotApproved  = "SkillNotApproved"
	ErrSkillDisabled     = "SkillDisabled"
	ErrNoSkillStore      = "NoSkillStore"
	ErrNoDataStore       = "NoDataStore"
	ErrLint              = "LintError"
	ErrShuttingDown      = "ShuttingDown"
	ErrStore             = "StoreError"
	ErrTraceNotFound     = "TraceNotFound"
	ErrTracesOff         = "TracingDisabled"
	ErrTriggersOff       = "TriggersUnavailable"
	ErrTriggerNotFound   = "TriggerNotFound"
	ErrInvalidTrigger    = "InvalidTrigger"
	ErrTriggerRefused    = "TriggerRefused" // register_trigger on a skill that cannot fire (Draft, Disabled, unsigned in secured mode)
	ErrApprovalRequired  = "ApprovalRequired"
	ErrNotOwner          = "NotSkillOwner" // skill_write or skill_status on a skill another caller owns (identity header mode)
	ErrUnsupportedFilter = "UnsupportedFilter"
	ErrAgentSkill        = "AgentSkillError" // a skills_* tool refused: unknown or unloaded skill, a path outside the package, a cap
	ErrInternal          = "InternalError"
)

// Error is a typed failure of a host operation, reported to MCP callers
// as an isError result {"error": Name, "message": Message, "details": ...}.
type Error struct {
	Name    string
	Message string
	Details any
	Err     error
}

// Error implements error.
func (e *Error) Error() string { return e.Name + ": " + e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func hostErr(name, format string, args ...any) *Error {
	return &Error{Name: name, Message: fmt.Sprintf(format, args...)}
}

// wrapErr turns any error into an *Error, naming unknown ones name.
func wrapErr(name string, err error) *Error {
	var he *Error
	if errors.As(err, &he) {
		return he
	}
	return &Error{Name: name, Message: err.Error(), Err: err}
}
