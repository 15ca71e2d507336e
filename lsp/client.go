package lsp

import (
	"context"
	"encoding/json"
	"runtime/debug"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/internal/leaf/config"
)

// clientCaps is what the server uses of the client's capabilities.
type clientCaps struct {
	watchRegistration bool // workspace/didChangeWatchedFiles dynamic registration
	progress          bool // window/workDoneProgress
	configuration     bool // workspace/configuration
	pull              bool // textDocument/diagnostic: the client pulls diagnostics
	refresh           bool // workspace/diagnostic/refresh
	tokensRefresh     bool // workspace/semanticTokens/refresh
	applyEdit         bool // workspace/applyEdit
	// clientCommands are commands the client implements itself
	// (initializationOptions.clientCommands): they are not announced in
	// executeCommandProvider, where a client such as vscode-languageclient
	// would register them a second time.
	clientCommands []string
}

// clientCapsOf reads the capabilities the server uses.
func clientCapsOf(p *protocol.InitializeParams) clientCaps {
	var c clientCaps
	if ws := p.Capabilities.Workspace; ws != nil && ws.DidChangeWatchedFiles != nil && ws.DidChangeWatchedFiles.DynamicRegistration != nil {
		c.watchRegistration = *ws.DidChangeWatchedFiles.DynamicRegistration
	}
	if ws := p.Capabilities.Workspace; ws != nil && ws.Configuration != nil {
		c.configuration = *ws.Configuration
	}
	if ws := p.Capabilities.Workspace; ws != nil && ws.Diagnostics != nil && ws.Diagnostics.RefreshSupport != nil {
		c.refresh = *ws.Diagnostics.RefreshSupport
	}
	if ws := p.Capabilities.Workspace; ws != nil && ws.SemanticTokens != nil && ws.SemanticTokens.RefreshSupport != nil {
		c.tokensRefresh = *ws.SemanticTokens.RefreshSupport
	}
	if ws := p.Capabilities.Workspace; ws != nil && ws.ApplyEdit != nil {
		c.applyEdit = *ws.ApplyEdit
	}
	if td := p.Capabilities.TextDocument; td != nil && td.Diagnostic != nil {
		c.pull = true
	}
	if len(p.InitializationOptions) > 0 {
		var opts struct {
			ClientCommands []string `json:"clientCommands"`
		}
		if json.Unmarshal(p.InitializationOptions, &opts) == nil {
			c.clientCommands = opts.ClientCommands
		}
	}
	if w := p.Capabilities.Window; w != nil && w.WorkDoneProgress != nil {
		c.progress = *w.WorkDoneProgress
	}
	return c
}

// background runs f on its own goroutine; a panic is logged, never
// fatal to the server.
func (s *Server) background(what string, f func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.logf("panic in %s: %v\n%s", what, r, debug.Stack())
			}
		}()
		f()
	}()
}

// refreshDiagnostics asks a pulling client to pull again (new results are
// ready); at most one request is in flight.
func (s *Server) refreshDiagnostics() {
	s.mu.Lock()
	ok := s.client.refresh
	s.mu.Unlock()
	if !ok || !s.refreshing.CompareAndSwap(false, true) {
		return
	}
	s.background("workspace/diagnostic/refresh", func() {
		defer s.refreshing.Store(false)
		ctx, cancel := context.WithTimeout(s.ctx, clientCallTimeout)
		defer cancel()
		if _, err := s.conn.Call(ctx, "workspace/diagnostic/refresh", nil, nil); err != nil {
			s.logf("workspace/diagnostic/refresh: %v", err)
		}
	})
}

// refreshTokens asks the client to request its semantic tokens again
// (when it supports that): the tool lists arrived and change what the
// tokens of a dispatch are.
func (s *Server) refreshTokens() {
	s.mu.Lock()
	ok := s.client.tokensRefresh
	s.mu.Unlock()
	if !ok {
		return
	}
	s.background("workspace/semanticTokens/refresh", func() {
		ctx, cancel := context.WithTimeout(s.ctx, clientCallTimeout)
		defer cancel()
		if _, err := s.conn.Call(ctx, "workspace/semanticTokens/refresh", nil, nil); err != nil {
			s.logf("workspace/semanticTokens/refresh: %v", err)
		}
	})
}

// clientProgress reports whether the client takes work-done progress.
func (s *Server) clientProgress() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client.progress
}

// watchedGlobs returns the files whose changes on disk the server follows.
func watchedGlobs() []string {
	return []string{"**/*" + SkillExt, "**/" + config.ConnectorsFileName, "**/" + config.ConfigFileName, "**/" + config.DotenvFileName}
}

// afterInitialized registers the file watchers (when the client allows
// dynamic registration), reads the editor's settings and starts the tool
// warm-up. Both call the
// client, so they run off the read loop.
func (s *Server) afterInitialized() {
	s.mu.Lock()
	register := s.client.watchRegistration
	s.mu.Unlock()
	s.background("initialized", func() {
		if register {
			s.registerWatchers()
		}
		if s.pullSettings() {
			s.ws.invalidate()
			s.republishAll()
		}
		s.startWarmUp()
		s.scheduleClosedScan()
	})
}

// registerWatchers asks the client to send workspace/didChangeWatchedFiles
// for the watched globs.
func (s *Server) registerWatchers() {
	watchers := make([]map[string]any, 0, len(watchedGlobs()))
	for _, g := range watchedGlobs() {
		watchers = append(watchers, map[string]any{"globPattern": g})
	}
	params := map[string]any{"registrations": []any{map[string]any{
		"id": "skillc-watch", "method": "workspace/didChangeWatchedFiles",
		"registerOptions": map[string]any{"watchers": watchers},
	}}}
	ctx, cancel := context.WithTimeout(s.ctx, clientCallTimeout)
	defer cancel()
	if _, err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil {
		s.logf("client/registerCapability: %v", err)
	}
}
