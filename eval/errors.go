package eval

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/fsgate"
	"github.com/skillscript/skillc/eval/shellexec"
	"github.com/skillscript/skillc/eval/value"
)

// Error kinds recorded in ErrorInfo.Kind and ${ERROR_CONTEXT.kind}.
const (
	KindOpError          = "OpError"
	KindUnresolved       = "UnresolvedVariableError"
	KindTypeMismatch     = "TypeMismatchError"
	KindFilter           = "FilterError"
	KindTimeout          = "OpTimeoutError"
	KindDeadline         = "RunDeadlineExceeded"
	KindCancelled        = "RunCancelled"
	KindShellNotAllowed  = "ShellBinaryNotAllowedError"
	KindUnsafeDisabled   = "UnsafeShellDisabledError"
	KindPathNotAllowed   = "PathNotAllowedError"
	KindMutation         = "UnconfirmedMutationError"
	KindSecret           = "SecretError"
	KindDisabled         = "SkillDisabledError"
	KindMissingInput     = "MissingInputError"
	KindMissingSkill     = "MissingSkillReferenceError"
	KindRecursion        = "RecursionLimitError"
	KindChild            = "ChildSkillError"
	KindTool             = "ToolError"
	KindConnector        = "ConnectorNotFoundError"
	KindJSON             = "JSONParseError"
	KindShellExit        = "ShellExitError"
	KindInvalidSkill     = "InvalidSkillError"
	KindOutput           = "OutputError"
	KindEmptyResult      = "EmptyResult"
	KindUnsupportedOp    = "UnsupportedOpError"
	KindDelivery         = "DeliveryError"
	KindArgument         = "ArgumentError"
	KindNotFound         = "NotFoundError"
	KindStoreUnavailable = "StoreUnavailableError"
)

// RunError is a failure raised while evaluating a skill. Policy errors and
// the run deadline are fatal: no (fallback:) or else: contains them.
type RunError struct {
	Kind   string
	Msg    string
	Fatal  bool
	Target string
	Op     string
	Range  ast.Range
	Nested []ErrorInfo
	Err    error
	// Tainted says the failure was raised by a statement that read
	// secret-derived data: its message is redacted whole at the output
	// boundary and ${ERROR_CONTEXT} is tainted.
	Tainted bool
}

// Error implements error.
func (e *RunError) Error() string { return e.Msg }

// Unwrap returns the underlying error.
func (e *RunError) Unwrap() error { return e.Err }

func errorf(kind, format string, args ...any) *RunError {
	return &RunError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

func fatalf(kind, format string, args ...any) *RunError {
	return &RunError{Kind: kind, Msg: fmt.Sprintf(format, args...), Fatal: true}
}

// classify turns any error into a *RunError with a kind, deciding whether
// it is fatal (policy refusal, deadline) or containable.
func classify(err error) *RunError {
	var re *RunError
	if errors.As(err, &re) {
		return re
	}
	kind, fatal := kindOf(err)
	return &RunError{Kind: kind, Msg: err.Error(), Fatal: fatal, Err: err}
}

func kindOf(err error) (string, bool) {
	var (
		notAllowed *shellexec.BinaryNotAllowedError
		unsafe     *shellexec.UnsafeShellDisabledError
		fullShell  *shellexec.FullShellError
		exitErr    *shellexec.ExitError
		timeout    *shellexec.TimeoutError
		path       *fsgate.PathNotAllowedError
		mismatch   *value.TypeMismatchError
		unresolved *value.UnresolvedRefError
		tool       *contract.ToolError
		connNF     *contract.ConnectorNotFoundError
		skillNF    *contract.SkillNotFoundError
		syntaxErr  *value.SyntaxError
	)
	switch {
	case errors.As(err, &notAllowed):
		return KindShellNotAllowed, true
	case errors.As(err, &unsafe), errors.As(err, &fullShell):
		return KindUnsafeDisabled, true
	case errors.As(err, &path):
		return KindPathNotAllowed, true
	case errors.As(err, &timeout), errors.Is(err, context.DeadlineExceeded):
		return KindTimeout, false
	case errors.As(err, &exitErr):
		return KindShellExit, false
	case errors.As(err, &mismatch):
		return KindTypeMismatch, false
	case errors.As(err, &unresolved):
		return KindUnresolved, false
	case errors.As(err, &tool):
		return KindTool, false
	case errors.As(err, &connNF):
		return KindConnector, false
	case errors.As(err, &skillNF):
		return KindMissingSkill, false
	case errors.As(err, &syntaxErr):
		return KindJSON, false
	}
	return KindOpError, false
}
