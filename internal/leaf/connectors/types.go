package connectors

import (
	"encoding/json"
	"time"
)

// Connector classes understood by skillc.
const (
	ClassRemote = "RemoteMcpConnector" // stdio-bridged MCP server
	ClassHTTP   = "HttpMcpConnector"   // Streamable HTTP MCP server
)

// Stdio framings.
const (
	FramingNewline = "newline"
	FramingLSP     = "lsp"
)

// File is a parsed connectors.json.
type File struct {
	// Connectors are the named MCP connector entries in file order.
	Connectors []*Connector
	Substrate  Substrate
	// Models are the named local-model instances from "localModels" and
	// substrate.local_model, in file order.
	Models []*ModelSpec
	// DefaultModel names the Models entry used when `$ llm` names none.
	DefaultModel string
}

// Connector returns the named connector entry, or nil.
func (f *File) Connector(name string) *Connector {
	for _, c := range f.Connectors {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Model returns the named model spec, or nil.
func (f *File) Model(name string) *ModelSpec {
	for _, m := range f.Models {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Connector is one named MCP connector entry.
type Connector struct {
	Name   string
	Class  string
	Offset int // byte offset of the entry's key
	// AllowedTools is nil when every tool is allowed, an empty non-nil
	// slice when none is, otherwise exactly the listed tools.
	AllowedTools []string
	// Mutating marks every tool as mutating ("mutating": true).
	Mutating bool
	// MutatingTools lists individually mutating tools ("mutating": [...]).
	MutatingTools []string
	// ReadOnly is "mutating": false: no tool is mutating unless it says so,
	// whatever its name.
	ReadOnly bool
	// Tools are statically declared tools (a skillc extension so that lint
	// works offline).
	Tools []ToolDecl
	// Stdio is set for RemoteMcpConnector entries.
	Stdio *StdioConfig
	// HTTP is set for HttpMcpConnector entries.
	HTTP *HTTPConfig
}

// ToolDecl is a statically declared tool.
type ToolDecl struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	// OutputSchema is the declared schema of the tool's structured result.
	OutputSchema json.RawMessage
	Mutating     bool
	// ReadOnly is the tool's "mutating": false.
	ReadOnly bool
	Offset   int
}

// StdioConfig configures a spawned MCP server.
type StdioConfig struct {
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// Framing is FramingNewline or FramingLSP.
	Framing string
	// InitTimeout bounds the initialize handshake; 0 means the default.
	InitTimeout time.Duration
	// Timeout bounds each call; 0 means no connector-level bound.
	Timeout time.Duration
}

// HTTPConfig configures a Streamable HTTP MCP server.
type HTTPConfig struct {
	URL     string
	Headers map[string]string
	// IdentityHeader, when set, carries the caller identity on each request
	// and keys one session per identity.
	IdentityHeader string
	// MaxPoolSize bounds the per-identity session pool; 0 is unbounded.
	MaxPoolSize int
	Timeout     time.Duration
}

// Substrate holds the singleton substrate slots.
type Substrate struct {
	DataStore      Slot
	SkillStore     Slot
	LocalModel     Slot
	AgentConnector Slot
}

// Slot is one substrate slot.
type Slot struct {
	// Set reports whether the slot appeared in the file.
	Set bool
	// Null reports an explicit null.
	Null bool
	// Type is the implementation: "sqlite", "filesystem", "noop", "ollama",
	// "openai", "webhook", "filedrop" or "custom".
	Type string
	// Module and Export name a custom implementation.
	Module, Export string
	// Config is the slot's config object with ${ENV} references resolved.
	Config map[string]any
	Offset int
}

// ConfigString returns Config[key] when it is a string.
func (s Slot) ConfigString(key string) string {
	v, _ := s.Config[key].(string)
	return v
}

// ModelSpec is one named local-model instance.
type ModelSpec struct {
	Name string
	// Type is "ollama" or "openai".
	Type      string
	Model     string // the underlying model tag
	BaseURL   string
	APIKey    string
	MaxTokens int
	Timeout   time.Duration
	Offset    int
}

// Problem kinds: what is wrong, finer than the rule a problem is
// reported under (see ruleOf).
const (
	kindSyntax                = "syntax"
	kindUnknownConnectorClass = "unknown-connector-class"
	kindAllowedToolsInConfig  = "allowed-tools-in-config"
	kindMissingEnv            = "missing-env"
	kindInvalidValue          = "invalid-value"
	kindUnknownField          = "unknown-field"
	kindMissingField          = "missing-field"
	kindDuplicateKey          = "duplicate-key"
	kindUnknownSubstrateType  = "unknown-substrate-type"
	kindFramingUnset          = "framing-unset"
)

// The lint rules connectors.json problems are reported under.
const (
	RuleUnknownConnectorClass   = "unknown-connector-class"
	RuleInvalidConnectorsConfig = "invalid-connectors-config"
)

// ruleOf returns the rule a problem of kind is reported under: an unknown
// connector class has its own rule, everything else is
// invalid-connectors-config.
func ruleOf(kind string) string {
	if kind == kindUnknownConnectorClass {
		return RuleUnknownConnectorClass
	}
	return RuleInvalidConnectorsConfig
}
