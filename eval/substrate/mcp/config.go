package mcp

import (
	"context"
	"fmt"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/toolcache"
	"github.com/skillscript/skillc/internal/leaf/connectors"
)

// Conn is an MCP connector built from a connectors.json entry: a
// contract.Connector that can also list its tools live, bypassing the
// cache freshness rule, and report what the cache holds for it.
type Conn interface {
	contract.Connector
	// RefreshTools asks the server for tools/list now (introspection
	// only, never a tool call) and caches the answer.
	RefreshTools(ctx context.Context) ([]contract.Tool, error)
	// CachedTools returns the cached list of this connector configuration
	// and whether it is still fresh; ok is false when none is cached.
	CachedTools() (tools []contract.Tool, fresh, ok bool)
}

// FromConfig builds the connector of one connectors.json entry; nothing
// is spawned or dialled until first use. Statically declared tools are
// merged over the discovered ones.
func FromConfig(c *connectors.Connector, cache toolcache.Cache) (Conn, error) {
	static := StaticTools(c.Tools)
	switch {
	case c.Stdio != nil:
		return NewStdio(StdioOptions{
			Name: c.Name, Command: c.Stdio.Command, Args: c.Stdio.Args, Env: c.Stdio.Env, Dir: c.Stdio.Dir,
			Framing: c.Stdio.Framing, InitTimeout: c.Stdio.InitTimeout, CallTimeout: c.Stdio.Timeout,
			Cache: cache, StaticTools: static,
		}), nil
	case c.HTTP != nil:
		return NewHTTP(HTTPOptions{
			Name: c.Name, URL: c.HTTP.URL, Headers: c.HTTP.Headers, IdentityHeader: c.HTTP.IdentityHeader,
			MaxPoolSize: c.HTTP.MaxPoolSize, CallTimeout: c.HTTP.Timeout, Cache: cache, StaticTools: static,
		}), nil
	}
	return nil, fmt.Errorf("connector %q (%s) has no usable config", c.Name, c.Class)
}

// StaticTools converts the tool declarations of connectors.json.
func StaticTools(ds []connectors.ToolDecl) []contract.Tool {
	out := make([]contract.Tool, len(ds))
	for i, d := range ds {
		out[i] = contract.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema, Mutating: d.Mutating, ReadOnly: d.ReadOnly}
	}
	return out
}

// RefreshTools lists the server's tools live and caches them.
func (s *Stdio) RefreshTools(ctx context.Context) ([]contract.Tool, error) {
	return s.disc.refresh(ctx, s.fetchTools)
}

// CachedTools returns the cached list of this configuration.
func (s *Stdio) CachedTools() ([]contract.Tool, bool, bool) { return s.disc.cached() }

func (s *Stdio) fetchTools(ctx context.Context) ([]contract.Tool, error) {
	cs, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	return listTools(ctx, cs)
}

// RefreshTools lists the server's tools live and caches them.
func (h *HTTP) RefreshTools(ctx context.Context) ([]contract.Tool, error) {
	return h.disc.refresh(ctx, h.fetchTools)
}

// CachedTools returns the cached list of this configuration.
func (h *HTTP) CachedTools() ([]contract.Tool, bool, bool) { return h.disc.cached() }

func (h *HTTP) fetchTools(ctx context.Context) ([]contract.Tool, error) {
	cs, err := h.session(ctx)
	if err != nil {
		return nil, err
	}
	return listTools(ctx, cs)
}
