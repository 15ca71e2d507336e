package trace

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/skillscript/skillc/eval/contract"
)

// MaxResultBytes bounds one recorded tool result; a larger one is recorded
// as truncated, and a replay of that call fails saying so.
const MaxResultBytes = 64 << 10

// ToolCall is one call a run made to a connector tool or a model, with
// what came back: the result (secrets redacted), or the error. A call
// that received a secret is recorded with Redacted as its result (and
// error) whole, since the backend may return the secret in any spelling. A replay
// (skillc dap with a trace) answers the run's calls from these, in order,
// so no connector is contacted.
type ToolCall struct {
	Connector string          `json:"connector"` // the connector, or "llm" for a model call
	Tool      string          `json:"tool"`      // the tool, or the model name
	Result    json.RawMessage `json:"result,omitempty"`
	Error     string          `json:"error,omitempty"`
	ToolError bool            `json:"tool_error,omitempty"` // the backend flagged the result as an error
	Truncated bool            `json:"truncated,omitempty"`  // the result exceeded MaxResultBytes and was not kept
}

// ModelConnector is ToolCall.Connector for `$ llm` calls.
const ModelConnector = "llm"

// callLog collects the tool calls of one run; safe for concurrent use.
type callLog struct {
	mu      sync.Mutex
	calls   []ToolCall
	secrets []string
}

func (l *callLog) add(conn, tool string, sent any, out any, err error) {
	c := ToolCall{Connector: conn, Tool: tool}
	if l.holdsSecret(sent) {
		// the backend received a secret: all it returns is tainted, as the
		// evaluator treats it, and is kept as the placeholder only
		if err != nil {
			c.Error = Redacted
		}
		if out != nil || err == nil {
			c.Result = json.RawMessage(`"` + Redacted + `"`)
		}
		var te *contract.ToolError
		c.ToolError = errors.As(err, &te)
		l.mu.Lock()
		l.calls = append(l.calls, c)
		l.mu.Unlock()
		return
	}
	var te *contract.ToolError
	switch {
	case errors.As(err, &te):
		c.ToolError, c.Error = true, redactString(te.Message, l.secrets)
		out = te.Result
	case err != nil:
		c.Error = redactString(err.Error(), l.secrets)
	}
	if out != nil {
		raw, merr := plainJSON(out, l.secrets)
		switch {
		case merr != nil:
			c.Error = "result not recordable: " + merr.Error()
		case len(raw) > MaxResultBytes:
			c.Truncated = true
		default:
			c.Result = raw
		}
	}
	l.mu.Lock()
	l.calls = append(l.calls, c)
	l.mu.Unlock()
}

// plainJSON is v as JSON with every string holding a secret value
// redacted; v is first made plain (maps, lists, scalars) through JSON, so
// values of any Go type are walked.
func plainJSON(v any, secrets []string) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var plain any
	if err := json.Unmarshal(raw, &plain); err != nil {
		return nil, err
	}
	return json.Marshal(redactValue(plain, secrets))
}

// holdsSecret reports whether a provisioned secret's value appears in any
// string inside v (the arguments a backend received).
func (l *callLog) holdsSecret(v any) bool {
	if len(l.secrets) == 0 {
		return false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return true
	}
	var plain any
	if json.Unmarshal(raw, &plain) != nil {
		return true
	}
	red, _ := json.Marshal(redactValue(plain, l.secrets))
	norm, _ := json.Marshal(plain)
	return string(red) != string(norm)
}

func redactString(s string, secrets []string) string {
	v, _ := redactValue(s, secrets).(string)
	return v
}

// recording returns a copy of reg whose connectors and models log every
// call into l; reg itself is not modified. A nil reg is returned as is.
func recording(reg *contract.Registry, l *callLog) *contract.Registry {
	if reg == nil {
		return nil
	}
	cp := *reg
	cp.Connectors = make(map[string]contract.ConnectorEntry, len(reg.Connectors))
	for name, e := range reg.Connectors {
		if e.Connector != nil {
			e.Connector = &recConnector{Connector: e.Connector, name: name, log: l}
		}
		cp.Connectors[name] = e
	}
	if reg.Models != nil {
		cp.Models = maps.Clone(reg.Models)
		for name, m := range cp.Models {
			if m != nil {
				cp.Models[name] = &recModel{LocalModel: m, log: l}
			}
		}
	}
	return &cp
}

type recConnector struct {
	contract.Connector
	name string
	log  *callLog
}

func (c *recConnector) Call(ctx context.Context, tool string, args map[string]any) (any, error) {
	out, err := c.Connector.Call(ctx, tool, args)
	c.log.add(c.name, tool, args, out, err)
	return out, err
}

type recModel struct {
	contract.LocalModel
	log *callLog
}

func (m *recModel) Run(ctx context.Context, prompt string, opts contract.RunOptions) (string, error) {
	out, err := m.LocalModel.Run(ctx, prompt, opts)
	var v any
	if err == nil {
		v = out
	}
	m.log.add(ModelConnector, opts.Model, prompt, v, err)
	return out, err
}

// saveCalls records the tool calls of run id.
func (s *Store) saveCalls(ctx context.Context, id string, calls []ToolCall) error {
	if len(calls) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("trace: begin: %w", err)
	}
	defer tx.Rollback()
	if err := s.insertCalls(ctx, tx, id, calls); err != nil {
		return err
	}
	return tx.Commit()
}

// insertCalls writes the tool calls of run id in tx.
func (s *Store) insertCalls(ctx context.Context, tx *sql.Tx, id string, calls []ToolCall) error {
	for i, c := range calls {
		_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO tool_calls(run_id, seq, connector, tool, result, error, tool_error, truncated)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, seq) DO NOTHING`),
			id, i, c.Connector, c.Tool, string(c.Result), c.Error, c.ToolError, c.Truncated)
		if err != nil {
			return fmt.Errorf("trace: record tool call: %w", err)
		}
	}
	return nil
}

// ToolCalls returns the recorded tool calls of run id, in call order.
func (s *Store) ToolCalls(ctx context.Context, id string) ([]ToolCall, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT connector, tool, result, error, tool_error, truncated
		FROM tool_calls WHERE run_id = ? ORDER BY seq`), id)
	if err != nil {
		return nil, fmt.Errorf("trace: tool calls: %w", err)
	}
	defer rows.Close()
	out := []ToolCall{}
	for rows.Next() {
		var c ToolCall
		var res sql.NullString
		if err := rows.Scan(&c.Connector, &c.Tool, &res, &c.Error, &c.ToolError, &c.Truncated); err != nil {
			return nil, fmt.Errorf("trace: scan tool call: %w", err)
		}
		if res.String != "" {
			c.Result = json.RawMessage(res.String)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
