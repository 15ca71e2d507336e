package contract

import (
	"errors"
	"fmt"
	"sort"

	"github.com/skillscript/skillc/internal/leaf/lang"
)

// PrimaryConnector is the connector name bare `$ tool` ops route to.
const PrimaryConnector = "primary"

// ConnectorEntry is a named connector with its policy.
type ConnectorEntry struct {
	Connector Connector
	// AllowedTools restricts dispatch: nil allows every tool, an empty
	// non-nil slice allows none, otherwise exactly the listed tools.
	AllowedTools []string
	// Mutating marks every tool of the connector as mutating.
	Mutating bool
	// MutatingTools marks individual tools as mutating.
	MutatingTools []string
	// ReadOnly is the connector's "mutating": false: its tools are not
	// mutating unless a tool says otherwise.
	ReadOnly bool
	// Tools are statically declared tools (known without contacting the
	// backend), used by lint and completion.
	Tools []Tool
}

// Allows reports whether the entry's allowlist permits tool.
func (e ConnectorEntry) Allows(tool string) bool {
	if e.AllowedTools == nil {
		return true
	}
	return contains(e.AllowedTools, tool)
}

// IsMutating reports whether tool was declared mutating in configuration.
func (e ConnectorEntry) IsMutating(tool string) bool {
	if e.Mutating || contains(e.MutatingTools, tool) {
		return true
	}
	for _, t := range e.Tools {
		if t.Name == tool {
			return t.Mutating
		}
	}
	return false
}

// Facts gathers what the configuration (the entry) and discovery
// (discovered, the connector's tool list; nil when unknown) declare about
// tool, for lang.ToolMutation.
func (e ConnectorEntry) Facts(tool string, discovered []Tool) lang.ToolFacts {
	var f lang.ToolFacts
	switch {
	case e.Mutating || contains(e.MutatingTools, tool):
		f.Connector = lang.DeclaredMutating
	case e.ReadOnly:
		f.Connector = lang.DeclaredReadOnly
	}
	for _, t := range discovered {
		if t.Name == tool {
			f = t.addFacts(f)
		}
	}
	for _, t := range e.Tools {
		if t.Name == tool {
			f = t.addFacts(f)
		}
	}
	return f
}

// addFacts adds t's declarations to f.
func (t Tool) addFacts(f lang.ToolFacts) lang.ToolFacts {
	switch {
	case t.Mutating:
		f.Tool = lang.DeclaredMutating
	case t.ReadOnly && f.Tool != lang.DeclaredMutating:
		f.Tool = lang.DeclaredReadOnly
	}
	if a := t.Annotations; a != nil {
		f.ReadOnlyHint = f.ReadOnlyHint || a.ReadOnlyHint
		f.DestructiveHint = f.DestructiveHint || a.DestructiveHint
	}
	return f
}

// Registry holds the wired substrate instances the evaluator uses. The zero
// value is an empty registry.
type Registry struct {
	Connectors map[string]ConnectorEntry
	Models     map[string]LocalModel
	// DefaultModel names the Models entry used when `$ llm` has no model=.
	DefaultModel string
	Data         DataStore
	Skills       SkillStore
	Agents       []AgentConnector
}

// ConnectorNotFoundError reports a `$ name.tool` whose connector is not
// wired.
type ConnectorNotFoundError struct {
	Name  string
	Known []string
}

// Error implements error.
func (e *ConnectorNotFoundError) Error() string {
	if e.Name == PrimaryConnector {
		return `no "primary" connector is wired: add "primary" to connectors.json or qualify the op as $ name.tool`
	}
	return fmt.Sprintf("connector %q is not wired (known: %v)", e.Name, e.Known)
}

// ToolNotAllowedError reports a tool outside a connector's allowed_tools.
type ToolNotAllowedError struct{ Connector, Tool string }

// Error implements error.
func (e *ToolNotAllowedError) Error() string {
	return fmt.Sprintf("tool %q is not in allowed_tools of connector %q", e.Tool, e.Connector)
}

// ModelNotFoundError reports a `$ llm model=` name that is not registered.
type ModelNotFoundError struct {
	Name  string
	Known []string
}

// Error implements error.
func (e *ModelNotFoundError) Error() string {
	if e.Name == "" {
		return "no local model is configured (set substrate.local_model in connectors.json)"
	}
	return fmt.Sprintf("local model %q not registered (known: %v)", e.Name, e.Known)
}

// ErrNoDataStore and ErrNoSkillStore report unwired stores.
var (
	ErrNoDataStore  = errors.New("no data store is wired")
	ErrNoSkillStore = errors.New("no skill store is wired")
)

// Connector returns the named connector entry, checking that it allows
// tool (pass "" to skip that check).
func (r *Registry) Connector(name, tool string) (ConnectorEntry, error) {
	e, ok := r.Connectors[name]
	if !ok || e.Connector == nil {
		return ConnectorEntry{}, &ConnectorNotFoundError{Name: name, Known: r.ConnectorNames()}
	}
	if tool != "" && !e.Allows(tool) {
		return ConnectorEntry{}, &ToolNotAllowedError{Connector: name, Tool: tool}
	}
	return e, nil
}

// ConnectorNames returns the wired connector names, sorted.
func (r *Registry) ConnectorNames() []string { return sortedKeys(r.Connectors) }

// Model resolves a `$ llm model=` name: "" means DefaultModel.
func (r *Registry) Model(name string) (LocalModel, error) {
	key := name
	if key == "" {
		key = r.DefaultModel
	}
	if m, ok := r.Models[key]; ok && m != nil {
		return m, nil
	}
	return nil, &ModelNotFoundError{Name: name, Known: sortedKeys(r.Models)}
}

// Abort ends every connector at once (a connector with a Kill method,
// such as a stdio MCP server, has its process group killed), then closes
// the registry. A host shutting down after a deadline or a signal aborts,
// so a hanging server cannot stretch the shutdown.
func (r *Registry) Abort() error {
	for _, name := range r.ConnectorNames() {
		if k, ok := r.Connectors[name].Connector.(interface{ Kill() error }); ok {
			_ = k.Kill()
		}
	}
	return r.Close()
}

// Close closes every connector (gracefully: an MCP server gets its stdin
// closed and a grace period) and the stores.
func (r *Registry) Close() error {
	var errs []error
	for _, name := range r.ConnectorNames() {
		if c := r.Connectors[name].Connector; c != nil {
			if err := c.Close(); err != nil {
				errs = append(errs, fmt.Errorf("close connector %s: %w", name, err))
			}
		}
	}
	for _, v := range []any{r.Data, r.Skills} {
		if c, ok := v.(interface{ Close() error }); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
