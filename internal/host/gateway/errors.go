package gateway

import (
	"fmt"
	"strings"

	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// Reason codes of refused requests.
const (
	ReasonInvalidRequest        = "invalid_request"        // a missing, malformed or out-of-range field
	ReasonUnknownSkill          = "unknown_skill"          // no visible skill has that id or name
	ReasonNotLoadable           = "skill_not_loadable"     // the skill exists but does not load
	ReasonInvalidClassification = "invalid_classification" // the skill's classification has errors
	ReasonNotAttachable         = "not_attachable"         // invocation is direct (or absent)
	ReasonTargetTypeNotAllowed  = "target_type_not_allowed"
	ReasonUnknownTargetType     = "unknown_target_type"
	ReasonTargetNotFound        = "target_not_found"
	ReasonTargetOutsideRoot     = "target_outside_root"
	ReasonTargetUnavailable     = "target_unavailable" // no store for that target type is configured
	ReasonTargetInput           = "target_input_undeclared"
	ReasonNotCallable           = "not_callable" // invocation=attach: the skill runs only attached
	ReasonNotRunnable           = "not_runnable" // no executor is configured
	ReasonRunRefused            = "run_refused"  // the host did not start the run (approval gate, shutdown)
)

// Reason is the structured cause of a refused request.
type Reason struct {
	Code    string   `json:"code"`
	Field   string   `json:"field,omitempty"`
	Message string   `json:"message"`
	Got     string   `json:"got,omitempty"`
	Allowed []string `json:"allowed,omitempty"`
}

// RequestError refuses a discover, list or run request; nothing ran.
type RequestError struct {
	Reason Reason `json:"reason"`
}

func (e *RequestError) Error() string { return e.Reason.Message }

// AttachValidationError refuses an attach request before anything ran:
// the skill, its classification, the target type or the target reference
// failed validation.
type AttachValidationError struct {
	Reason Reason `json:"reason"`
}

func (e *AttachValidationError) Error() string { return "attach: " + e.Reason.Message }

// ReasonOf returns the structured reason of a gateway error, or false.
func ReasonOf(err error) (Reason, bool) {
	switch e := err.(type) {
	case *RequestError:
		return e.Reason, true
	case *AttachValidationError:
		return e.Reason, true
	}
	return Reason{}, false
}

func reqErr(code, field, format string, args ...any) *RequestError {
	return &RequestError{Reason: Reason{Code: code, Field: field, Message: fmt.Sprintf(format, args...)}}
}

func attachErr(code, field, format string, args ...any) *AttachValidationError {
	return &AttachValidationError{Reason: Reason{Code: code, Field: field, Message: fmt.Sprintf(format, args...)}}
}

// closest returns the element of names nearest to got (" (did you mean
// X?)"), or "".
func closest(got string, names []string) string {
	best, dist := "", max(3, len(got)/3+1)
	for _, n := range names {
		if d := textdist.Distance(strings.ToLower(got), strings.ToLower(n)); d < dist {
			best, dist = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
