package contract

import (
	"context"
	"encoding/json"
	"fmt"
)

// Tool describes one tool a Connector exposes.
type Tool struct {
	// Name is the tool name used in `$ connector.tool`.
	Name string `json:"name"`
	// Description is the human-readable description, if any.
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments, if known.
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// OutputSchema is the JSON Schema of the tool's structured result
	// (MCP outputSchema), if the tool declares one.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Mutating reports whether the tool was declared as changing state.
	Mutating bool `json:"mutating,omitempty"`
	// ReadOnly reports a tool declared "mutating": false in
	// connectors.json.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Annotations are the MCP tool annotations the server reported.
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
}

// ToolAnnotations are the MCP tool annotations that bear on the mutation
// gate (internal/leaf/lang.ToolMutation).
type ToolAnnotations struct {
	ReadOnlyHint    bool `json:"readOnlyHint,omitempty"`
	DestructiveHint bool `json:"destructiveHint,omitempty"`
}

// Connector is the contract behind every `$ connector.tool` op (McpConnector
// in the reference runtime). The backend need not speak MCP.
type Connector interface {
	// Call invokes tool with args and returns its decoded result: structured
	// content when the backend provides it, otherwise text (JSON-decoded when
	// the text is JSON). A result the backend flags as an error is returned as
	// a *ToolError.
	Call(ctx context.Context, tool string, args map[string]any) (any, error)
	// Tools lists the tools the connector exposes.
	Tools(ctx context.Context) ([]Tool, error)
	// HealthCheck reports whether the backend is reachable and usable.
	HealthCheck(ctx context.Context) error
	// Close releases resources (child processes, sessions).
	Close() error
}

// ToolError is a tool result that the backend flagged as an error (MCP
// isError). It is distinct from transport failures so callers can tell
// "the tool ran and said no" from "the tool could not be reached".
type ToolError struct {
	Connector string // connector name, if known
	Tool      string // tool name
	Message   string // text of the error result
	Result    any    // decoded structured content, if any
}

// Error implements error.
func (e *ToolError) Error() string {
	name := e.Tool
	if e.Connector != "" {
		name = e.Connector + "." + e.Tool
	}
	if e.Message == "" {
		return fmt.Sprintf("tool %s returned an error result", name)
	}
	return fmt.Sprintf("tool %s returned an error: %s", name, e.Message)
}

type callerIdentityKey struct{}

// WithCallerIdentity returns a context carrying the caller identity (the
// agent id) on whose behalf connector calls are made. Connectors configured
// with an identity header forward it and pin sessions to it.
func WithCallerIdentity(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callerIdentityKey{}, id)
}

// CallerIdentity returns the caller identity stored by WithCallerIdentity,
// or "" when none is set.
func CallerIdentity(ctx context.Context) string {
	id, _ := ctx.Value(callerIdentityKey{}).(string)
	return id
}
