package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/toolcache"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	"github.com/skillscript/skillc/lint"
)

// DefaultWarmTimeout bounds the tools/list of one connector in WarmTools.
const DefaultWarmTimeout = 5 * time.Second

// RuleToolsUnverified is the info diagnostic of a connector whose tool
// list could not be fetched.
const RuleToolsUnverified = "connector-tools-unverified"

// Where a connector's tool list came from (WarmResult.Source).
const (
	SourceStatic     = "static"     // declared in connectors.json; no server asked
	SourceCache      = "cache"      // a fresh cache entry; no server asked
	SourceLive       = "live"       // tools/list answered now (and was cached)
	SourceStale      = "stale"      // the server failed; an older cache entry is used
	SourceUnverified = "unverified" // the server failed and nothing is cached
)

// ToolLister is what WarmTools needs of one MCP connector: the cached
// list of its configuration and a live tools/list. The connectors of
// eval/substrate/mcp (mcp.FromConfig) implement it.
type ToolLister interface {
	// CachedTools returns the cached list and whether it is still fresh;
	// ok is false when none is cached.
	CachedTools() (tools []contract.Tool, fresh, ok bool)
	// RefreshTools asks the server for tools/list now (never a tool
	// call) and caches the answer.
	RefreshTools(ctx context.Context) ([]contract.Tool, error)
	// Close stops whatever RefreshTools started.
	Close() error
}

// Dialer builds the ToolLister of one connectors.json entry without
// starting anything. It is injected (the CLI passes mcp.FromConfig) so
// that this package, and the language server above it, do not link an
// MCP client.
type Dialer func(c *connectors.Connector, cache toolcache.Cache) (ToolLister, error)

// WarmOptions tune WarmTools.
type WarmOptions struct {
	// Dial opens a connector's tool list (callers pass mcp.FromConfig).
	// Without it every connector that has no static tools is unverified,
	// with its info line saying that no MCP client was given.
	Dial Dialer
	// Timeout bounds each connector's tools/list (spawn, initialize and
	// list); 0 means DefaultWarmTimeout.
	Timeout time.Duration
	// Refresh asks every server even when its cache entry is fresh
	// (skillc tools refresh).
	Refresh bool
	// Offline never contacts a server: cached lists are used fresh or
	// stale, and a connector with none stays unverified without a
	// diagnostic (skillc check --offline).
	Offline bool
	// OperatorOnly starts servers only when the connectors.json in use is
	// operator-controlled (Env.ConnectorsTrusted); one found next to the
	// skills is then read from the cache only, with one info line.
	// skillc check and run set it; any host that opens a workspace it
	// does not trust should (DECISIONS 25: checking a cloned repository
	// must not run its commands).
	OperatorOnly bool
	// Connectors limits the warm-up to these connector names; nil means
	// every MCP connector.
	Connectors []string
}

// WarmResult is the tool surface of one connector after WarmTools.
type WarmResult struct {
	Connector string
	// Source is one of the Source* constants.
	Source string
	Tools  []contract.Tool
	// Err is the failure of the live fetch (Source stale or unverified).
	Err error
}

// Known reports whether the result gives the connector's whole tool
// surface.
func (r WarmResult) Known() bool { return r.Source != SourceUnverified }

// WarmTools brings the tool cache of env's MCP connectors up to date, as
// skillc check, skillc run's pre-check and skillc tools refresh do, and is
// meant for the language server too (run it in the background and apply
// the results with Env.WithTools). For each connector without static
// tools it applies the freshness rule of eval/toolcache: a fresh cache
// entry is used as is; otherwise the server is spawned or dialled and
// asked for tools/list — protocol introspection, never a tool call — under
// o.Timeout, and the answer is written to env.ToolCacheDir. A server that
// fails leaves its connector on the stale cache entry, or unverified when
// there is none, with one info diagnostic (connector-tools-unverified) on
// the connector's entry in connectors.json; a failure is never an error.
// Connectors are warmed concurrently; results are sorted by name. env is
// not modified. With o.OperatorOnly, a connectors.json found next to the
// skills rather than named by the operator (Env.ConnectorsTrusted) is
// only read from the cache, with one info line, unless o.Refresh asks
// explicitly.
func WarmTools(ctx context.Context, env *Env, o WarmOptions) ([]WarmResult, ast.FileDiagnostics) {
	fd := ast.FileDiagnostics{File: env.Config.ConnectorsPath, Src: env.Config.Connectors}
	conns := warmTargets(env.Connectors, o.Connectors)
	if o.OperatorOnly && !env.ConnectorsTrusted && !o.Refresh && !o.Offline && len(conns) > 0 {
		// A connectors.json found next to the skills is not the operator's:
		// checking a cloned repository must not run its commands.
		o.Offline = true
		if d := untrustedDiag(env.LintOptions); d != nil {
			fd.Diags = append(fd.Diags, d)
		}
	}
	results := make([]WarmResult, len(conns))
	cache := toolcache.Cache{Dir: env.ToolCacheDir}
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = warmOne(ctx, c, cache, o)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if d := unverifiedDiag(conns[i], r, env.LintOptions); d != nil {
			fd.Diags = append(fd.Diags, d)
		}
	}
	fd.Diags.Sort()
	return results, fd
}

// warmTargets returns the MCP connectors of f named in only (all when
// only is nil), sorted by name.
func warmTargets(f *connectors.File, only []string) []*connectors.Connector {
	var out []*connectors.Connector
	for _, c := range f.Connectors {
		if c.Stdio == nil && c.HTTP == nil {
			continue
		}
		if only != nil && !slices.Contains(only, c.Name) {
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// warmOne applies the freshness rule to one connector.
func warmOne(ctx context.Context, c *connectors.Connector, cache toolcache.Cache, o WarmOptions) WarmResult {
	r := WarmResult{Connector: c.Name}
	if len(c.Tools) > 0 && !o.Refresh {
		r.Source, r.Tools = SourceStatic, staticTools(c.Tools)
		return r
	}
	if o.Dial == nil {
		r.Source, r.Err = SourceUnverified, errNoDialer
		return r
	}
	conn, err := o.Dial(c, cache)
	if err != nil {
		r.Source, r.Err = SourceUnverified, err
		return r
	}
	defer conn.Close()
	cached, fresh, ok := conn.CachedTools()
	switch {
	case ok && (o.Offline || fresh && !o.Refresh):
		r.Source, r.Tools = SourceCache, cached
		return r
	case o.Offline:
		r.Source = SourceUnverified
		return r
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultWarmTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	live, err := conn.RefreshTools(tctx)
	switch {
	case err == nil:
		r.Source, r.Tools = SourceLive, live
	case ok:
		r.Source, r.Tools, r.Err = SourceStale, cached, err
	default:
		r.Source, r.Err = SourceUnverified, err
	}
	return r
}

// errNoDialer is the failure of a warm-up that was given no Dialer.
var errNoDialer = errors.New("no MCP client to ask (WarmOptions.Dial is nil)")

// staticTools is the tool list declared in connectors.json.
func staticTools(ds []connectors.ToolDecl) []contract.Tool {
	out := make([]contract.Tool, len(ds))
	for i, d := range ds {
		out[i] = contract.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema, Mutating: d.Mutating}
	}
	return out
}

// unverifiedDiag is the one info line of a connector whose server failed,
// at its entry in connectors.json; nil when the fetch succeeded or the
// rule is disabled.
func unverifiedDiag(c *connectors.Connector, r WarmResult, opts lint.Options) *ast.Diagnostic {
	if r.Err == nil {
		return nil
	}
	sev, on := opts.Effective(RuleToolsUnverified, ast.Info)
	if !on {
		return nil
	}
	msg := fmt.Sprintf("tools of connector %s not verified (tools/list failed: %v); its calls are not schema-checked", c.Name, r.Err)
	if r.Source == SourceStale {
		msg = fmt.Sprintf("tools of connector %s checked against an older cached list (tools/list failed: %v)", c.Name, r.Err)
	}
	return &ast.Diagnostic{
		Severity: sev, Rule: RuleToolsUnverified, Message: msg,
		Range: ast.Range{From: ast.PosOf(c.Offset), To: ast.PosOf(c.Offset + len(c.Name) + 2)},
	}
}

// untrustedDiag is the one info line of a warm-up that did not start the
// servers of a connectors.json found next to the skills.
func untrustedDiag(opts lint.Options) *ast.Diagnostic {
	sev, on := opts.Effective(RuleToolsUnverified, ast.Info)
	if !on {
		return nil
	}
	return &ast.Diagnostic{
		Severity: sev, Rule: RuleToolsUnverified,
		Message: "this connectors.json was found next to the skills, not given by the operator, so check does not start its servers to list their tools (only cached lists are used): pass --connectors, keep it in $SKILLSCRIPT_HOME, or run skillc tools refresh",
		Range:   ast.Range{From: ast.PosOf(0), To: ast.PosOf(0)},
	}
}

// WithTools returns a copy of e whose lint context knows the tool surfaces
// of the known results (see WarmTools); connectors with static tools keep
// them.
func (e *Env) WithTools(results []WarmResult) *Env {
	cp := *e
	ctx := *e.Lint
	ctx.Connectors = make(map[string]*lint.Connector, len(e.Lint.Connectors))
	for name, c := range e.Lint.Connectors {
		ctx.Connectors[name] = c
	}
	for _, r := range results {
		c, ok := ctx.Connectors[r.Connector]
		if !ok || !r.Known() || (c.ToolsKnown && r.Source == SourceStatic) {
			continue
		}
		cc := *c
		cc.ToolsKnown, cc.Tools = true, lintTools(r.Tools)
		ctx.Connectors[r.Connector] = &cc
	}
	cp.Lint = &ctx
	return &cp
}

// lintTools is the linter's view of a tool list.
func lintTools(tools []contract.Tool) map[string]*lint.Tool {
	out := make(map[string]*lint.Tool, len(tools))
	for _, t := range tools {
		lt := &lint.Tool{Name: t.Name, Description: t.Description, Schema: t.InputSchema, OutputSchema: t.OutputSchema, Mutating: t.Mutating, ReadOnly: t.ReadOnly}
		if a := t.Annotations; a != nil {
			lt.ReadOnlyHint, lt.DestructiveHint = a.ReadOnlyHint, a.DestructiveHint
		}
		out[t.Name] = lt
	}
	return out
}
