package lsp

import (
	"context"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	wsenv "github.com/skillscript/skillc/internal/workspace"
)

// ToolWarmer asks the MCP connectors wired in env for their tools
// (tools/list only, never a tool call, under a timeout) and writes what it
// learns to env's tool cache. It returns one error per connector that
// could not be reached, and whether it fetched anything from a server (the
// cache changed). The server only schedules it.
type ToolWarmer func(ctx context.Context, env *wsenv.Env) (fetched bool, errs []error)

// WarmWith returns the warm-up `skillc check` runs
// (internal/workspace.WarmTools with its freshness rule and timeout,
// sharing its tool cache), opening connectors with dial. The MCP client
// is injected (skillc lsp passes the one of eval/substrate/mcp) so that
// this package does not link it.
func WarmWith(dial wsenv.Dialer) ToolWarmer {
	return func(ctx context.Context, env *wsenv.Env) (fetched bool, errs []error) {
		results, _ := wsenv.WarmTools(ctx, env, wsenv.WarmOptions{Dial: dial})
		for _, r := range results {
			fetched = fetched || r.Source == wsenv.SourceLive
			if r.Err != nil {
				errs = append(errs, fmt.Errorf("connector %s: cannot list its tools (%v); completion and the schema rules do without them", r.Connector, r.Err))
			}
		}
		return fetched, errs
	}
}

// startWarmUp warms the tool lists of every workspace folder in the
// background: at start-up and after connectors.json changed. While it
// runs the client sees $/progress; an invalid connectors.json or an
// unreachable connector is shown with window/showMessage. When a server
// answered, the configuration is reloaded (the cache has the new tools)
// and every open document is checked again.
func (s *Server) startWarmUp() {
	roots := s.ws.rootDirs()
	gen := s.warmGen.Add(1)
	if len(roots) == 0 || s.opts.WarmTools == nil {
		s.warming.Store(false)
		if len(roots) == 0 {
			return
		}
	} else {
		s.warming.Store(true)
	}
	s.background("warming tools", func() { s.warmUp(gen, roots) })
}

// warmUp is the body of startWarmUp; a newer warm-up supersedes it.
func (s *Server) warmUp(gen int64, roots []string) {
	token := s.beginProgress("skillc: loading tool lists")
	defer s.endProgress(token)
	warmed := false
	for _, root := range roots {
		env := wsenv.Load(root, wsenv.LoadOptions{Env: s.opts.Env, Home: s.opts.Home, ToolCacheDir: s.opts.ToolCacheDir})
		s.reportConnectorProblems(env)
		if len(env.Connectors.Connectors) == 0 || s.opts.WarmTools == nil {
			continue
		}
		s.progress(token, fmt.Sprintf("%s: tools/list", root))
		fetched, errs := s.opts.WarmTools(s.ctx, env)
		for _, err := range errs {
			s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("skillc: %v", err))
		}
		warmed = warmed || fetched
	}
	current := s.warmGen.Load() == gen && s.ctx.Err() == nil
	if current {
		s.warming.Store(false)
	}
	if warmed && current {
		s.ws.invalidate()
		s.republishAll()
		// completion answered incomplete meanwhile; diagnostics and
		// tokens of the dispatches change with the tools
		s.refreshDiagnostics()
		s.refreshTokens()
		s.scheduleClosedScan()
	}
}

// reportConnectorProblems shows an invalid connectors.json once per
// warm-up (its diagnostics are also published on the file itself).
func (s *Server) reportConnectorProblems(env *wsenv.Env) {
	fd := env.ConnectorDiagnostics
	for _, d := range fd.Diags {
		if d.Severity != ast.Error {
			continue
		}
		s.showMessage(protocol.MessageTypeError, fmt.Sprintf("skillc: %s is invalid: %s (tool completion and the connector rules are off until it is fixed)", fd.File, d.Message))
		return
	}
}

// clientCallTimeout bounds the server's requests to the client.
const clientCallTimeout = 5 * time.Second

// showMessage sends window/showMessage.
func (s *Server) showMessage(t protocol.MessageType, msg string) {
	s.notify("window/showMessage", &protocol.ShowMessageParams{Type: t, Message: msg})
}

// beginProgress creates a work-done progress token with the client (when
// it supports that) and begins it; "" means no progress is reported.
func (s *Server) beginProgress(title string) string {
	if !s.clientProgress() {
		return ""
	}
	token := fmt.Sprintf("skillc-warm-%d", s.warmGen.Load())
	ctx, cancel := context.WithTimeout(s.ctx, clientCallTimeout)
	defer cancel()
	if _, err := s.conn.Call(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
		s.logf("workDoneProgress/create: %v", err)
		return ""
	}
	s.notify("$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "begin", "title": title, "cancellable": false}})
	return token
}

// progress reports a step of the progress token.
func (s *Server) progress(token, msg string) {
	if token != "" {
		s.notify("$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "report", "message": msg}})
	}
}

// endProgress ends the progress token.
func (s *Server) endProgress(token string) {
	if token != "" {
		s.notify("$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "end"}})
	}
}
