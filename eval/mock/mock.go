package mock

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// Op names of the typed-contract ops.
const (
	OpLLM        = "llm"
	OpDataRead   = "data_read"
	OpDataWrite  = "data_write"
	OpSkillRead  = "skill_read"
	OpSkillWrite = "skill_write"
	OpJSONParse  = "json_parse"
)

// Mock answers ops from a parsed mock file. It is safe for concurrent use.
type Mock struct {
	mu      sync.Mutex
	entries []*entry
	calls   []Call
}

// Call records one op the mock answered or refused.
type Call struct {
	Op      string
	Args    map[string]any
	Matched bool
}

// NoMatchError reports a call that no mock entry matches.
type NoMatchError struct {
	Op   string
	Args map[string]any
}

// Error implements error.
func (e *NoMatchError) Error() string {
	return fmt.Sprintf("mock: no entry matches %s with arguments %s", e.Op, canonical(e.Args))
}

// FailureError is a simulated failure (a response with error: and no
// is_error).
type FailureError struct {
	Op  string
	Msg string
}

// Error implements error.
func (e *FailureError) Error() string { return fmt.Sprintf("%s: %s", e.Op, e.Msg) }

// Respond answers op with args: the first matching entry's next response,
// after its delay. It is the single path every adapter goes through.
func (m *Mock) Respond(ctx context.Context, op string, args map[string]any) (any, error) {
	r, ok := m.next(op, args)
	if !ok {
		return nil, &NoMatchError{Op: op, Args: args}
	}
	if r.delay > 0 {
		t := time.NewTimer(r.delay)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return answer(op, r)
}

// next picks the response for a call and records it.
func (m *Mock) next(op string, args map[string]any) (response, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.entries {
		if e.op != op || !e.matches(args) {
			continue
		}
		r := e.responses[min(e.served, len(e.responses)-1)]
		e.served++
		m.calls = append(m.calls, Call{Op: op, Args: args, Matched: true})
		return r, true
	}
	m.calls = append(m.calls, Call{Op: op, Args: args})
	return response{}, false
}

func answer(op string, r response) (any, error) {
	switch {
	case r.isError:
		msg := r.errText
		if msg == "" {
			msg = value.String(r.result)
		}
		conn, tool := splitOp(op)
		return nil, &contract.ToolError{Connector: conn, Tool: tool, Message: msg, Result: value.Clone(r.result)}
	case r.errText != "":
		return nil, &FailureError{Op: op, Msg: r.errText}
	}
	return value.Clone(r.result), nil
}

func splitOp(op string) (conn, tool string) {
	if c, t, ok := strings.Cut(op, "."); ok {
		return c, t
	}
	return "", op
}

// matches applies the entry's exact and substring matchers to args.
func (e *entry) matches(args map[string]any) bool {
	for k, want := range e.args.All() {
		got, ok := args[k]
		if !ok || canonical(got) != canonical(want) {
			return false
		}
	}
	for k, want := range e.contains.All() {
		got, ok := args[k]
		if !ok || !strings.Contains(value.String(got), value.String(want)) {
			return false
		}
	}
	return true
}

// canonical is the comparison form of an argument: the string form of a
// scalar, JSON with sorted keys for lists and objects.
func canonical(v any) string {
	switch x := value.Normalize(v).(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canonicalJSON(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *value.Object:
		return canonicalJSON(x)
	default:
		return value.String(x)
	}
}

func canonicalJSON(v any) string {
	switch x := v.(type) {
	case *value.Object:
		keys := x.Keys()
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			e, _ := x.Get(k)
			parts[i] = value.QuoteJSON(k) + ":" + canonicalJSON(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		return canonical(x)
	}
	return value.ToJSON(v)
}

// Calls returns the calls seen so far, in order.
func (m *Mock) Calls() []Call {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.calls)
}

// Handles reports whether any entry answers op.
func (m *Mock) Handles(op string) bool {
	for _, e := range m.entries {
		if e.op == op {
			return true
		}
	}
	return false
}

// ConnectorNames returns the connector names the file mocks (the part
// before the dot of every conn.tool op), sorted.
func (m *Mock) ConnectorNames() []string {
	var names []string
	for _, e := range m.entries {
		if conn, _ := splitOp(e.op); conn != "" && !slices.Contains(names, conn) {
			names = append(names, conn)
		}
	}
	sort.Strings(names)
	return names
}

// Registry returns a registry wired entirely to the mock: every mocked
// connector, a "mock" local model as the default, the data store and the
// skill store.
func (m *Mock) Registry() *contract.Registry {
	reg := &contract.Registry{
		Connectors:   map[string]contract.ConnectorEntry{},
		Models:       map[string]contract.LocalModel{"mock": m.Model()},
		DefaultModel: "mock",
		Data:         m.DataStore(),
		Skills:       m.SkillStore(),
	}
	for _, name := range m.ConnectorNames() {
		c := m.Connector(name)
		tools, _ := c.Tools(context.Background())
		reg.Connectors[name] = contract.ConnectorEntry{Connector: c, Tools: tools}
	}
	return reg
}

// JSONParse answers $ json_parse from the file. handled is false when the
// file mocks no json_parse, so the evaluator parses for real.
func (m *Mock) JSONParse(ctx context.Context, raw string) (v any, handled bool, err error) {
	if !m.Handles(OpJSONParse) {
		return nil, false, nil
	}
	v, err = m.Respond(ctx, OpJSONParse, map[string]any{"input": raw})
	return v, true, err
}
