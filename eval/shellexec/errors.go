package shellexec

import (
	"errors"
	"fmt"
	"time"
)

// BinaryNotAllowedError is the refusal of a binary that is not on the
// operator's allowlist (the spec's ShellBinaryNotAllowedError).
type BinaryNotAllowedError struct {
	Binary string
}

// Error implements error.
func (e *BinaryNotAllowedError) Error() string {
	return fmt.Sprintf("shell binary %q is not on the shell allowlist", e.Binary)
}

// UnsafeShellDisabledError is the refusal of shell(..., unsafe=true) when
// the deployment has not enabled unsafe shell.
type UnsafeShellDisabledError struct{}

// Error implements error.
func (e *UnsafeShellDisabledError) Error() string {
	return "unsafe shell is disabled (runtime.enable_unsafe_shell is false)"
}

// FullShellError is the refusal of a structural or argv shell op that
// runs a command interpreter on code (bash -c, sh script, python -c, env
// -S): that is a full shell, which needs shell(command=..., unsafe=true)
// and the operator's unsafe switch.
type FullShellError struct {
	Argv []string
	Why  string
}

// Error implements error.
func (e *FullShellError) Error() string {
	return fmt.Sprintf("shell: %s %s: a full shell runs only as shell(command=\"...\", unsafe=true), which the operator must enable", e.Argv[0], e.Why)
}

// IsRefusal reports whether err is a policy refusal (allowlist, unsafe
// switch, a full shell hidden in the structural form). Refusals fail
// loud: an op-level (fallback:) does not contain them.
func IsRefusal(err error) bool {
	var notAllowed *BinaryNotAllowedError
	var unsafe *UnsafeShellDisabledError
	var full *FullShellError
	return errors.As(err, &notAllowed) || errors.As(err, &unsafe) || errors.As(err, &full)
}

// RequestError reports a malformed request, such as argv together with
// command.
type RequestError struct {
	Msg string
}

// Error implements error.
func (e *RequestError) Error() string { return "shell: " + e.Msg }

// ExitError reports a process that exited with a non-zero status or was
// killed by a signal (Code -1).
type ExitError struct {
	Binary string
	Code   int
	Stderr string // trimmed and redacted
}

// Error implements error.
func (e *ExitError) Error() string {
	msg := fmt.Sprintf("shell: %s exited with status %d", e.Binary, e.Code)
	if e.Code < 0 {
		msg = fmt.Sprintf("shell: %s was killed by a signal", e.Binary)
	}
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// TimeoutError reports a run cut off by its own timeout.
type TimeoutError struct {
	Binary  string
	Timeout time.Duration
}

// Error implements error.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("shell: %s timed out after %s", e.Binary, e.Timeout)
}

// OutputLimitError reports stdout larger than the runner keeps.
type OutputLimitError struct {
	Binary string
	Limit  int
}

// Error implements error.
func (e *OutputLimitError) Error() string {
	return fmt.Sprintf("shell: %s wrote more than %d bytes to stdout", e.Binary, e.Limit)
}
