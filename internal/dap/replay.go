package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/host/trace"
)

// Replay answers a run's connector and model calls from the calls a trace
// recorded, in order per connector and tool, so a replayed run contacts
// no backend. A call the trace does not hold fails naming it.
type Replay struct {
	mu    sync.Mutex
	queue map[string][]trace.ToolCall // "connector.tool" → calls not yet replayed
	used  map[string]int
}

// NewReplay returns a Replay of calls.
func NewReplay(calls []trace.ToolCall) *Replay {
	r := &Replay{queue: map[string][]trace.ToolCall{}, used: map[string]int{}}
	for _, c := range calls {
		k := callKey(c.Connector, c.Tool)
		r.queue[k] = append(r.queue[k], c)
	}
	return r
}

// callKey keys the replay queues: connector.tool, and one queue for all
// model calls (which model answered is a host choice, not the skill's).
func callKey(conn, tool string) string {
	if conn == trace.ModelConnector {
		return conn
	}
	return conn + "." + tool
}

// next returns the next recorded answer of connector.tool.
func (r *Replay) next(conn, tool string) (any, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := callKey(conn, tool)
	q := r.queue[k]
	r.used[k]++
	if len(q) == 0 {
		return nil, fmt.Errorf("replay: the trace records no result for call %d of %s", r.used[k], k)
	}
	c := q[0]
	r.queue[k] = q[1:]
	var v any
	if len(c.Result) > 0 {
		if err := json.Unmarshal(c.Result, &v); err != nil {
			return nil, fmt.Errorf("replay: recorded result of %s: %w", k, err)
		}
	}
	switch {
	case c.Truncated:
		return nil, fmt.Errorf("replay: the recorded result of call %d of %s was larger than %d bytes and not kept", r.used[k], k, trace.MaxResultBytes)
	case c.ToolError:
		return nil, &contract.ToolError{Connector: conn, Tool: tool, Message: c.Error, Result: v}
	case c.Error != "":
		return nil, errors.New(c.Error)
	}
	return v, nil
}

// Registry returns a registry whose connectors (the names of the recorded
// calls, plus those of base) and models answer from r. The skill store and
// data store of base are kept (a child skill's source is read from it).
func (r *Replay) Registry(base *contract.Registry) *contract.Registry {
	reg := &contract.Registry{Connectors: map[string]contract.ConnectorEntry{}}
	if base != nil {
		reg.Skills, reg.Data = base.Skills, base.Data
		for name, e := range base.Connectors {
			e.Connector = &replayConnector{r: r, name: name}
			reg.Connectors[name] = e
		}
	}
	reg.Models = map[string]contract.LocalModel{"": &replayModel{r: r}}
	for _, q := range r.queue {
		c := q[0] // a queue holds one call at least
		if c.Connector == trace.ModelConnector {
			reg.Models[c.Tool] = &replayModel{r: r}
			continue
		}
		if _, ok := reg.Connectors[c.Connector]; !ok {
			reg.Connectors[c.Connector] = contract.ConnectorEntry{Connector: &replayConnector{r: r, name: c.Connector}}
		}
	}
	return reg
}

type replayConnector struct {
	r    *Replay
	name string
}

func (c *replayConnector) Call(_ context.Context, tool string, _ map[string]any) (any, error) {
	return c.r.next(c.name, tool)
}

func (c *replayConnector) Tools(context.Context) ([]contract.Tool, error) { return nil, nil }
func (c *replayConnector) HealthCheck(context.Context) error              { return nil }
func (c *replayConnector) Close() error                                   { return nil }

type replayModel struct{ r *Replay }

func (m *replayModel) Run(_ context.Context, _ string, opts contract.RunOptions) (string, error) {
	v, err := m.r.next(trace.ModelConnector, opts.Model)
	if err != nil {
		return "", err
	}
	s, _ := v.(string)
	return s, nil
}

func (m *replayModel) Manifest(context.Context) (contract.ModelManifest, error) {
	return contract.ModelManifest{}, nil
}
