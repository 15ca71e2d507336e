package lsp

import (
	"context"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
)

// initialize answers the initialize request.
func (s *Server) initialize(_ context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p protocol.InitializeParams
	if len(raw) > 0 {
		if err := protocol.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
		}
	}
	s.ws.setRoots(rootsOf(&p))
	s.mu.Lock()
	s.initialized = true
	s.mu.Unlock()
	return &protocol.InitializeResult{
		Capabilities: capabilities(),
		ServerInfo:   protocol.ServerInfo{Name: "skillc", Version: protocol.NewOptional(Version)},
	}, nil
}

// rootsOf returns the local folders of the workspace.
func rootsOf(p *protocol.InitializeParams) []string {
	var roots []string
	folders, _ := p.WorkspaceFolders.Get()
	for _, f := range folders {
		if path := filePath(string(f.URI)); path != "" {
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && p.RootURI != nil {
		if path := filePath(string(*p.RootURI)); path != "" {
			roots = append(roots, path)
		}
	}
	return roots
}

// capabilities describes what the server offers.
func capabilities() protocol.ServerCapabilities {
	yes := protocol.Boolean(true)
	t := true
	incremental := protocol.TextDocumentSyncKindIncremental
	return protocol.ServerCapabilities{
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &t, Change: &incremental, Save: &protocol.SaveOptions{IncludeText: &t},
		},
		CompletionProvider: &protocol.CompletionOptions{
			TriggerCharacters: []string{"$", "{", "|", ".", "(", ",", " ", ":", "="},
		},
		HoverProvider:              yes,
		SignatureHelpProvider:      &protocol.SignatureHelpOptions{TriggerCharacters: []string{"(", ","}},
		DefinitionProvider:         yes,
		ReferencesProvider:         yes,
		DocumentSymbolProvider:     yes,
		CodeActionProvider:         &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
		DocumentFormattingProvider: yes,
		RenameProvider:             &protocol.RenameOptions{PrepareProvider: &t},
		FoldingRangeProvider:       yes,
		SemanticTokensProvider: &protocol.SemanticTokensOptions{
			Legend: semanticLegend(),
			Full:   yes,
		},
	}
}

// didOpen starts tracking a document and publishes its diagnostics.
func (s *Server) didOpen(p *protocol.DidOpenTextDocumentParams) {
	u := string(p.TextDocument.URI)
	text := []byte(p.TextDocument.Text)
	d := &document{uri: u, version: p.TextDocument.Version, text: text, lines: ast.NewLineTable(text)}
	s.mu.Lock()
	if old := s.docs[u]; old != nil && old.timer != nil {
		old.timer.Stop()
	}
	s.docs[u] = d
	s.scheduleLocked(d, 0)
	s.mu.Unlock()
	if strings.HasSuffix(u, SkillExt) {
		s.skillChanged(u)
	}
}

// didChange applies edits; versions not newer than the current are stale
// and ignored.
func (s *Server) didChange(p *protocol.DidChangeTextDocumentParams) {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil {
		s.logf("change of unopened document %s", u)
		return
	}
	if p.TextDocument.Version <= d.version {
		s.logf("ignoring stale version %d of %s (have %d)", p.TextDocument.Version, u, d.version)
		return
	}
	text, err := applyChanges(d.text, p.ContentChanges)
	if err != nil {
		s.logf("%s: %v", u, err)
		return
	}
	d.text, d.lines, d.version = text, ast.NewLineTable(text), p.TextDocument.Version
	d.edit++
	s.scheduleLocked(d, s.opts.debounce())
}

// didSave publishes at once (and takes the saved text when sent).
func (s *Server) didSave(p *protocol.DidSaveTextDocumentParams) {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	d := s.docs[u]
	if d != nil {
		if p.Text != nil && *p.Text != string(d.text) {
			d.text = []byte(*p.Text)
			d.lines = ast.NewLineTable(d.text)
			d.edit++
		}
		s.scheduleLocked(d, 0)
	}
	s.mu.Unlock()
	if strings.HasSuffix(u, SkillExt) {
		s.skillChanged(u)
	}
}

// didClose forgets a document and clears its diagnostics.
func (s *Server) didClose(p *protocol.DidCloseTextDocumentParams) {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	d := s.docs[u]
	delete(s.docs, u)
	if d != nil && d.timer != nil {
		d.timer.Stop()
	}
	s.mu.Unlock()
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.notify("textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{},
	})
}

// didChangeWatchedFiles re-reads configuration and skills and re-checks
// every open document.
func (s *Server) didChangeWatchedFiles(p *protocol.DidChangeWatchedFilesParams) {
	if len(p.Changes) == 0 {
		return
	}
	s.ws.invalidate()
	s.republishAll()
}

// skillChanged re-checks the other open documents after a skill changed on
// open or save: they may call it.
func (s *Server) skillChanged(changed string) {
	s.ws.invalidate()
	s.mu.Lock()
	defer s.mu.Unlock()
	for u, d := range s.docs {
		if u != changed {
			s.scheduleLocked(d, s.opts.debounce())
		}
	}
}

// republishAll schedules diagnostics for every open document.
func (s *Server) republishAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		s.scheduleLocked(d, 0)
	}
}

// scheduleLocked (re)arms the diagnostics timer of d; s.mu is held.
func (s *Server) scheduleLocked(d *document, delay time.Duration) {
	if d.timer != nil {
		d.timer.Stop()
	}
	u, v := d.uri, d.version
	d.timer = time.AfterFunc(delay, func() { s.publish(u, v) })
}

// stopTimers stops every pending publication.
func (s *Server) stopTimers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.timer != nil {
			d.timer.Stop()
		}
	}
}

// publish computes and sends the diagnostics of version v of u, unless the
// document moved on or closed meanwhile.
func (s *Server) publish(u string, v int32) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic publishing %s: %v", u, r)
		}
	}()
	snap := s.snapshotAt(u, v)
	if snap == nil {
		return
	}
	if s.send(u, v, s.lspDiagnostics(snap)) {
		s.publishEnv(snap)
	}
}

// send publishes diags for version v of u; it reports false (and sends
// nothing) when the document moved on or closed meanwhile.
func (s *Server) send(u string, v int32, diags []protocol.Diagnostic) bool {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if !s.isCurrent(u, v) {
		return false
	}
	s.notify("textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI: uri.URI(u), Version: protocol.NewOptional(v), Diagnostics: diags,
	})
	return true
}

// isCurrent reports whether u is open at version v.
func (s *Server) isCurrent(u string, v int32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	return d != nil && d.version == v
}

// notify sends a notification to the client.
func (s *Server) notify(method string, params any) {
	if s.conn == nil || s.ctx.Err() != nil {
		return
	}
	if err := s.conn.Notify(s.ctx, method, params); err != nil {
		s.logf("%s: %v", method, err)
	}
}

// snapshotAt returns the analysis of u at version v, or nil when the
// document is closed or at another version.
func (s *Server) snapshotAt(u string, v int32) *snapshot {
	snap, err := s.snapshot(u)
	if err != nil || snap.version != v {
		return nil
	}
	return snap
}

// snapshot returns the analysis of the current version of an open document.
func (s *Server) snapshot(u string) (*snapshot, error) {
	s.mu.Lock()
	d := s.docs[u]
	var text []byte
	var lines *ast.LineTable
	var version int32
	var edit int
	if d != nil {
		text, lines, version, edit = d.text, d.lines, d.version, d.edit
	}
	s.mu.Unlock()
	if d == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "document not open: %s", u)
	}
	env, gen := s.ws.env(u)
	d.snapMu.Lock()
	defer d.snapMu.Unlock()
	if c := d.snap; c != nil && c.version == version && c.gen == gen && c.edit == edit {
		return c, nil
	}
	snap := &snapshot{uri: u, version: version, gen: gen, edit: edit, src: text, lines: lines, env: env,
		Analysis: analyze(s.opts.Analyzer, docName(u), text, env)}
	d.snap = snap
	return snap, nil
}
