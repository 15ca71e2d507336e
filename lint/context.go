package lint

import (
	"crypto/ed25519"
	"encoding/json"
	"sort"

	"github.com/skillscript/skillc/internal/leaf/lang"
)

// Context describes the deployment a skill is linted against. The zero
// value means "no context": every rule that needs a missing piece stays
// silent. The CLI and the language server fill it from the configuration
// (see internal/workspace) or by hand.
type Context struct {
	// FilePath is the path of the checked file, used to tell a stored
	// copy of the same file from a different skill with the same name.
	FilePath string

	// ConnectorsKnown reports that connectors.json was read; Connectors
	// then holds every wired MCP connector by name.
	ConnectorsKnown bool
	Connectors      map[string]*Connector
	// Substrates lists the wired substrate slots: "data_store",
	// "skill_store", "local_model", "agent_connector".
	Substrates map[string]bool

	// ModelsKnown reports that the local model aliases and the models
	// they make available are known.
	ModelsKnown bool
	Models      []string

	// AgentConnectorKnown reports whether AgentConnector (an agent
	// connector is wired) is meaningful.
	AgentConnectorKnown bool
	AgentConnector      bool

	// ShellAllowlistKnown reports that the shell allowlist is known;
	// an empty ShellAllowlist then denies every binary.
	ShellAllowlistKnown bool
	ShellAllowlist      []string

	// FSAllowlistKnown reports that the filesystem allowlist is known:
	// FSAllowlist holds its absolute roots (empty denies every path) and
	// FSBase the directory relative paths are resolved from.
	FSAllowlistKnown bool
	FSAllowlist      []string
	FSBase           string

	// UnsafeShellKnown reports that the unsafe-shell switch is known.
	UnsafeShellKnown bool
	UnsafeShell      bool

	// SkillsKnown reports that a skill store is configured; Skills is its
	// index (nil when the store could not be listed).
	SkillsKnown bool
	Skills      SkillIndex
	// SkillsImplicit reports that the store is the checked skill's own
	// directory, which skillc run uses when nothing configures a store
	// (decision C13): references are checked against it, but the rules
	// about a configured store's contents (duplicate-skill-name,
	// skill-name-collision) stay silent, and an inline of a data skill it
	// does not have is missing-skillstore-for-data-ref.
	SkillsImplicit bool

	// SecuredMode reports that the deployment enforces approval
	// signatures; ApprovalKey is the operator's public key when known.
	SecuredMode bool
	ApprovalKey ed25519.PublicKey
}

// Connector is one wired MCP connector.
type Connector struct {
	Name  string
	Class string
	// AllowedTools is nil when every tool is allowed.
	AllowedTools []string
	// Mutating marks every tool of the connector as mutating;
	// MutatingTools marks individual tools.
	Mutating      bool
	MutatingTools []string
	// ReadOnly is the connector's "mutating": false.
	ReadOnly bool
	// ToolsKnown reports that Tools is the connector's whole tool surface.
	ToolsKnown bool
	Tools      map[string]*Tool
}

// Tool is a tool of a connector with its input schema.
type Tool struct {
	Name        string
	Description string
	// Schema is the JSON input schema; nil when unknown.
	Schema json.RawMessage
	// OutputSchema is the JSON schema of the tool's structured result
	// (MCP outputSchema); nil when the tool declares none.
	OutputSchema json.RawMessage
	Mutating     bool
	// ReadOnly is the tool's "mutating": false; ReadOnlyHint and
	// DestructiveHint are its MCP annotations.
	ReadOnly, ReadOnlyHint, DestructiveHint bool
}

// inputSchema is the part of a JSON schema the argument rules use.
type inputSchema struct {
	Properties           map[string]json.RawMessage `json:"properties"`
	Required             []string                   `json:"required"`
	AdditionalProperties any                        `json:"additionalProperties"`
}

// schema decodes t's input schema; ok is false when it is absent or does
// not describe an object with properties.
func (t *Tool) schema() (s inputSchema, ok bool) {
	if t == nil || len(t.Schema) == 0 {
		return s, false
	}
	if err := json.Unmarshal(t.Schema, &s); err != nil {
		return s, false
	}
	return s, s.Properties != nil || s.Required != nil
}

// propertyNames returns the schema's property names, sorted.
func (s inputSchema) propertyNames() []string {
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// closed reports whether the schema forbids properties it does not list.
func (s inputSchema) closed() bool {
	b, isBool := s.AdditionalProperties.(bool)
	return !isBool || !b
}

// ConnectorNames returns the wired connector names, sorted.
func (c *Context) ConnectorNames() []string {
	out := make([]string, 0, len(c.Connectors))
	for n := range c.Connectors {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// allowsTool reports whether the connector's allowed_tools admits tool.
func (c *Connector) allowsTool(tool string) bool {
	if c.AllowedTools == nil {
		return true
	}
	return contains(c.AllowedTools, tool)
}

// toolNames returns the declared tool names, sorted.
func (c *Connector) toolNames() []string {
	out := make([]string, 0, len(c.Tools))
	for n := range c.Tools {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ToolFacts returns what the connector's configuration and discovered
// tools declare about tool, for lang.ToolMutation. c may be nil.
func (c *Connector) ToolFacts(tool string) lang.ToolFacts {
	var f lang.ToolFacts
	if c == nil {
		return f
	}
	switch {
	case c.Mutating || contains(c.MutatingTools, tool):
		f.Connector = lang.DeclaredMutating
	case c.ReadOnly:
		f.Connector = lang.DeclaredReadOnly
	}
	if t := c.Tools[tool]; t != nil {
		switch {
		case t.Mutating:
			f.Tool = lang.DeclaredMutating
		case t.ReadOnly:
			f.Tool = lang.DeclaredReadOnly
		}
		f.ReadOnlyHint, f.DestructiveHint = t.ReadOnlyHint, t.DestructiveHint
	}
	return f
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// WithSkills returns a copy of ctx using idx as the skill store.
func (c *Context) WithSkills(idx SkillIndex) *Context {
	cp := *c
	cp.SkillsKnown, cp.Skills, cp.SkillsImplicit = idx != nil, idx, false
	return &cp
}
