package lsp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
	wsenv "github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/syntax"
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
	caps := clientCapsOf(&p)
	s.mu.Lock()
	s.client = caps
	s.initialized = true
	s.mu.Unlock()
	s.warming.Store(s.opts.WarmTools != nil)
	return &protocol.InitializeResult{
		Capabilities: capabilities(caps),
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

// capabilities describes what the server offers. Diagnostics are pushed
// (publishDiagnostics) unless the client pulls them: a client doing both
// would show every diagnostic twice.
func capabilities(client clientCaps) protocol.ServerCapabilities {
	yes := protocol.Boolean(true)
	t := true
	incremental := protocol.TextDocumentSyncKindIncremental
	ident := "skillc"
	c := protocol.ServerCapabilities{
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &t, Change: &incremental, Save: &protocol.SaveOptions{IncludeText: &t},
		},
		CompletionProvider: &protocol.CompletionOptions{
			TriggerCharacters: []string{"$", "{", "|", ".", "(", ",", " ", ":", "="},
		},
		HoverProvider:                   yes,
		SignatureHelpProvider:           &protocol.SignatureHelpOptions{TriggerCharacters: []string{"(", ","}},
		DefinitionProvider:              yes,
		DeclarationProvider:             yes,
		DocumentHighlightProvider:       yes,
		SelectionRangeProvider:          yes,
		LinkedEditingRangeProvider:      yes,
		DocumentRangeFormattingProvider: yes,
		DocumentOnTypeFormattingProvider: protocol.DocumentOnTypeFormattingOptions{
			FirstTriggerCharacter: "\n", MoreTriggerCharacter: []string{":"}},
		ReferencesProvider:         yes,
		DocumentSymbolProvider:     yes,
		CodeActionProvider:         &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
		DocumentFormattingProvider: yes,
		RenameProvider:             &protocol.RenameOptions{PrepareProvider: &t},
		FoldingRangeProvider:       yes,
		DocumentLinkProvider:       &protocol.DocumentLinkOptions{},
		WorkspaceSymbolProvider:    yes,
		CallHierarchyProvider:      yes,

		SemanticTokensProvider: &protocol.SemanticTokensOptions{
			Legend: semanticLegend(),
			Full:   &protocol.SemanticTokensFullDelta{Delta: &t},
			Range:  yes,
		},
		InlayHintProvider: yes,
		CodeLensProvider:  &protocol.CodeLensOptions{},
	}
	c.Workspace = &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
		Supported: &t, ChangeNotifications: protocol.Boolean(true)}}
	for _, cmd := range serverCommands() {
		if !slices.Contains(client.clientCommands, cmd) {
			c.ExecuteCommandProvider.Commands = append(c.ExecuteCommandProvider.Commands, cmd)
		}
	}
	if client.pull {
		c.DiagnosticProvider = &protocol.DiagnosticOptions{
			Identifier: &ident, InterFileDependencies: true, WorkspaceDiagnostics: true,
		}
	}
	return c
}

// didOpen starts tracking a document and publishes its diagnostics.
func (s *Server) didOpen(p *protocol.DidOpenTextDocumentParams) {
	// the decoded strings share the message's buffer (text included): a
	// URI kept as is kept the whole opening message alive
	u := strings.Clone(string(p.TextDocument.URI))
	text := []byte(p.TextDocument.Text)
	d := &document{uri: u, version: p.TextDocument.Version, text: text, lines: ast.NewLineTable(text), parsedEdit: -1}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.docs[u]; old != nil {
		old.now.Store(-1)
		old.stopTimers()
	}
	d.fullAt.Store(time.Now().UnixNano())
	s.docs[u] = d
	s.scheduleEditLocked(d, 0)
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
	text, spans, err := applyChanges(d.text, p.ContentChanges)
	if err != nil {
		s.logf("%s: %v", u, err)
		return
	}
	d.text, d.lines, d.version = text, ast.NewLineTable(text), p.TextDocument.Version
	d.edit++
	d.now.Store(int64(d.edit))
	if len(text) >= s.opts.quickMinSize() {
		d.logSpans(d.edit, spans) // for moving an older analysis's findings (keepCarry)
	}
	d.carry = shiftDiags(d.carry, spans)
	d.logTreeSpans(d.edit, spans)
	if d.inc.ok {
		d.inc.spans = append(d.inc.spans, spans...)
	}
	s.scheduleEditLocked(d, s.debounce())
}

// didSave publishes at once (and takes the saved text when sent).
func (s *Server) didSave(p *protocol.DidSaveTextDocumentParams) {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil {
		return
	}
	if p.Text != nil && *p.Text != string(d.text) {
		whole := []span{{0, len(d.text), len(*p.Text)}}
		d.carry = shiftDiags(d.carry, whole)
		d.inc = incremental{}
		d.text = []byte(*p.Text)
		d.lines = ast.NewLineTable(d.text)
		d.edit++
		d.now.Store(int64(d.edit))
		d.logSpans(d.edit, whole)
		d.logTreeSpans(d.edit, whole)
	}
	s.scheduleEditLocked(d, 0)
}

// didClose forgets a document and clears its diagnostics; the skill index
// goes back to what the file on disk declares.
func (s *Server) didClose(p *protocol.DidCloseTextDocumentParams) {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	d := s.docs[u]
	delete(s.docs, u)
	if d != nil {
		d.now.Store(-1)
		d.stopTimers()
	}
	s.recent = slices.DeleteFunc(s.recent, func(o *document) bool { return o == d })
	s.mu.Unlock()
	s.pubMu.Lock()
	s.notify("textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{},
	})
	s.pubMu.Unlock()
	if path := filePath(u); strings.HasSuffix(path, SkillExt) {
		s.skillFromDisk(path)
	}
	s.scheduleClosedScan()
}

// skillFromDisk re-reads what the skill file at path declares and
// re-checks the documents that depend on a change.
func (s *Server) skillFromDisk(path string) {
	src, err := os.ReadFile(path)
	var si lint.SkillInfo
	if err == nil {
		si = lint.SkillInfoOf(path, src)
	}
	s.recheckDependents(fileURI(path), s.ws.updateSkill(path, si, err == nil))
}

// skillFromSnapshot records what an analysed skill file declares.
func (s *Server) skillFromSnapshot(snap *snapshot) {
	path := filePath(snap.uri)
	if !strings.HasSuffix(path, SkillExt) || snap.File == nil {
		return
	}
	s.recheckDependents(snap.uri, s.ws.updateSkill(path, lint.SkillInfoFrom(path, snap.File), true))
}

// recheckDependents re-checks the open documents other than changed whose
// text mentions one of the skill names (a conservative superset of the
// documents that call, inline or duplicate them).
func (s *Server) recheckDependents(changed string, names []string) {
	if len(names) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for u, d := range s.docs {
		if u == changed || !mentionsAny(d.text, names) {
			continue
		}
		d.deps++
		s.scheduleLocked(d, s.debounce())
	}
}

// mentionsAny reports whether text contains one of names.
func mentionsAny(text []byte, names []string) bool {
	for _, n := range names {
		if n != "" && bytes.Contains(text, []byte(n)) {
			return true
		}
	}
	return false
}

// didChangeWatchedFiles follows changes on disk: a skill file updates the
// index (an open buffer wins over the disk) and re-checks its dependents;
// any other file (configuration, connectors, .env) reloads the
// configuration and re-checks every open document.
func (s *Server) didChangeWatchedFiles(p *protocol.DidChangeWatchedFilesParams) {
	config := false
	for _, ch := range p.Changes {
		u := string(ch.URI)
		path := filePath(u)
		if !strings.HasSuffix(path, SkillExt) {
			config = true
			continue
		}
		// the text on disk changed or is gone: its compiled unit is stale
		wsenv.ForgetParsed(path)
		s.mu.Lock()
		open := s.docs[u] != nil
		s.mu.Unlock()
		if !open {
			s.skillFromDisk(path)
		}
	}
	if config {
		s.configChanged()
	}
	s.scheduleClosedScan()
}

// didChangeWorkspaceFolders follows folders added to or removed from the
// workspace: the skill index and the configuration are built again from
// the new folders, the open documents re-checked, the tools of the new
// folders' connectors warmed.
func (s *Server) didChangeWorkspaceFolders(p *protocol.DidChangeWorkspaceFoldersParams) {
	var added, removed []string
	for _, f := range p.Event.Added {
		if path := filePath(string(f.URI)); path != "" {
			added = append(added, path)
		}
	}
	for _, f := range p.Event.Removed {
		if path := filePath(string(f.URI)); path != "" {
			removed = append(removed, path)
		}
	}
	if s.ws.changeRoots(added, removed) {
		s.republishAll()
		s.startWarmUp()
		s.scheduleClosedScan()
	}
}

// configChanged reloads the configuration, re-checks every open document
// and warms the tool lists again.
func (s *Server) configChanged() {
	s.ws.invalidate()
	s.republishAll()
	s.startWarmUp()
	s.scheduleClosedScan()
}

// republishAll schedules diagnostics for every open document.
func (s *Server) republishAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		s.scheduleLocked(d, 0)
	}
}

// quickMinBytes is the size from which an edit is answered first with the
// parser's findings (plus the carried rule findings) before the full
// analysis: below it the full analysis fits in a frame anyway.
const quickMinBytes = 16 << 10

// scheduleEditLocked schedules the diagnostics of a new text of d: a quick
// publication at once for large documents, the full analysis after delay.
// s.mu is held.
func (s *Server) scheduleEditLocked(d *document, delay time.Duration) {
	if len(d.text) < s.opts.quickMinSize() || isSkillMD(d.uri) {
		s.scheduleLocked(d, delay)
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	u, v := d.uri, d.version
	if delay == 0 {
		d.timer = time.AfterFunc(0, func() {
			// the quick answer's parse is kept for the full analysis:
			// holding an analysis slot from the parse on bounds how many
			// documents opened at once hold a parse waiting for theirs
			s.analyses <- struct{}{}
			defer func() { <-s.analyses }()
			s.publishQuick(u, v)
			s.publishIn(u, v)
		})
		return
	}
	// the quiet time before the full analysis counts from the quick
	// answer, so that typing at the speed of the answers never pays for
	// full analyses (or parses) of texts already replaced
	d.timer = time.AfterFunc(0, func() {
		s.publishQuick(u, v)
		s.mu.Lock()
		defer s.mu.Unlock()
		if d.version == v && s.docs[u] == d {
			d.timer = time.AfterFunc(delay, func() { s.publishLane(u, v) })
		}
	})
}

// scheduleLocked (re)arms the full diagnostics timer of d; s.mu is held.
func (s *Server) scheduleLocked(d *document, delay time.Duration) {
	if d.timer != nil {
		d.timer.Stop()
	}
	u, v := d.uri, d.version
	d.timer = time.AfterFunc(delay, func() { s.publish(u, v) })
}

// stopTimers stops every pending publication.
func (s *Server) stopTimers() {
	// closedMu is taken before s.mu elsewhere: never under s.mu
	s.closedMu.Lock()
	if s.closed.timer != nil {
		s.closed.timer.Stop()
	}
	s.closedMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		d.stopTimers()
	}
}

// publishQuick publishes the parser's findings of version v of u with the
// carried rule findings, unless the full diagnostics of v went out first.
func (s *Server) publishQuick(u string, v int32) {
	defer s.recoverPublish(u)
	s.mu.Lock()
	d := s.docs[u]
	if d == nil || d.version != v || d.fullVersion >= v {
		s.mu.Unlock()
		return
	}
	text, lines, edit, carry, inc := d.text, d.lines, d.edit, d.carry, d.inc
	s.mu.Unlock()
	s.parses <- struct{}{}
	parsed, ok := s.reparse(u, text, inc)
	var pre *preParse
	if !ok {
		pre, parsed = s.parse(u, text)
	}
	<-s.parses
	s.mu.Lock()
	if d.edit == edit {
		d.parsed, d.parsedEdit = parsed, edit
		d.inc = incremental{ok: true, parsed: parsed}
		if s.defaultAnalyzer && pre != nil {
			d.pre, d.preEdit = pre, edit
		}
	}
	s.mu.Unlock()
	ds := make(ast.Diagnostics, 0, len(parsed)+len(carry))
	ds = append(append(ds, parsed...), carry...)
	ds.Sort()
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, diag := range ds {
		out = append(out, s.lspDiagnosticIn(u, lines, diag))
	}
	s.send(u, v, out, false)
}

// parse parses text for the quick publication: it returns the parse and
// the parser's findings with the suppressions and severity overrides of
// the document's configuration applied.
func (s *Server) parse(u string, text []byte) (*preParse, ast.Diagnostics) {
	// A parse of its own, not a compiled unit (workspace.Parse): this runs
	// on every keystroke before anything is shown, and a unit would add the
	// SHA-256 of the whole text and the checker to that latency while its
	// cache never hits (each keystroke is a new text). The full analysis
	// takes this tree over (takePre) and checks it once.
	f, raw := syntax.Parse(docName(u), text)
	pre := &preParse{file: f, diags: make(ast.Diagnostics, len(raw))}
	shown := make(ast.Diagnostics, len(raw))
	for i, d := range raw {
		cp := *d
		pre.diags[i], shown[i] = d, &cp
	}
	env, _ := s.ws.env(u)
	var opts lint.Options
	if env != nil && env.Env != nil {
		opts = env.LintOptions
	}
	opts.ReportUnusedSuppressions = false
	if opts.Rules == nil {
		opts.Rules = rulesets.All()
	}
	return pre, lint.Filter(f, shown, opts)
}

// recoverPublish logs a panic of a publication instead of crashing.
func (s *Server) recoverPublish(u string) {
	if r := recover(); r != nil {
		s.logf("panic publishing %s: %v\n%s", u, r, debug.Stack())
	}
}

// publish computes and sends the diagnostics of version v of u, unless the
// document moved on or closed meanwhile.
func (s *Server) publish(u string, v int32) {
	defer s.recoverPublish(u)
	if !s.isCurrent(u, v) {
		return // a newer edit has its own publication coming
	}
	s.analyses <- struct{}{}
	defer func() { <-s.analyses }()
	s.publishIn(u, v)
}

// publishIn is publish for a caller holding an analysis slot.
func (s *Server) publishIn(u string, v int32) {
	defer s.recoverPublish(u)
	if !s.isCurrent(u, v) {
		return
	}
	snap := s.snapshotAt(u, v)
	if snap == nil {
		return
	}
	s.keepCarry(snap)
	if s.send(u, v, s.lspDiagnostics(snap), true) {
		s.publishEnv(snap)
	} else {
		s.republishQuick(u)
	}
	s.skillFromSnapshot(snap)
}

// republishQuick sends the quick publication of the current version of u
// again with the carry, after an analysis of an older text renewed it,
// unless the full diagnostics of that version went out or its quick
// parse is still to come (it will take the new carry).
func (s *Server) republishQuick(u string) {
	s.mu.Lock()
	d := s.docs[u]
	if d == nil || d.parsedEdit != d.edit || d.fullVersion >= d.version {
		s.mu.Unlock()
		return
	}
	v, lines := d.version, d.lines
	ds := make(ast.Diagnostics, 0, len(d.parsed)+len(d.carry))
	ds = append(append(ds, d.parsed...), d.carry...)
	s.mu.Unlock()
	ds.Sort()
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, diag := range ds {
		out = append(out, s.lspDiagnosticIn(u, lines, diag))
	}
	s.send(u, v, out, false)
}

// keepCarry records the rule findings of a full analysis of a large
// document for the quick publications of the next edits.
func (s *Server) keepCarry(snap *snapshot) {
	if len(snap.src) < s.opts.quickMinSize() {
		return
	}
	s.mu.Lock()
	d := s.docs[snap.uri]
	parsed := snap.parsed
	ok := d != nil && d.edit >= snap.edit && (snap.edit >= d.carryEdit || d.carryLane != nil)
	if ok && parsed == nil && d.parsedEdit == snap.edit {
		parsed = d.parsed
	}
	s.mu.Unlock()
	if !ok {
		return
	}
	if parsed == nil {
		_, parsed = s.parse(snap.uri, snap.src)
	}
	carry := withoutDiags(snap.Diags, parsed)
	s.mu.Lock()
	defer s.mu.Unlock()
	if snap.edit < d.carryEdit {
		if d.carryLane == nil {
			return // a newer analysis renewed the carry meanwhile
		}
		// a lane step of a newer text set the carry: its local rules'
		// findings stay, the other rules' come from this analysis
		spans, ok := d.spansSince(snap.edit)
		if !ok {
			return
		}
		nc := make(ast.Diagnostics, 0, len(d.carry)+len(carry))
		for _, c := range d.carry {
			if d.carryLane.Local(c.Rule) {
				nc = append(nc, c)
			}
		}
		for _, c := range shiftDiags(carry, spans) {
			if !d.carryLane.Local(c.Rule) {
				nc = append(nc, c)
			}
		}
		d.carry = nc
		d.fullAt.Store(time.Now().UnixNano())
		return
	}
	d.carryLane = nil
	if d.edit != snap.edit {
		// an analysis of an older text (see superseded): its findings
		// moved past the edits since, dropped where an edit touched them
		spans, ok := d.spansSince(snap.edit)
		if !ok {
			return
		}
		carry = shiftDiags(carry, spans)
	}
	d.carry, d.carryEdit = carry, snap.edit
	d.fullAt.Store(time.Now().UnixNano())
	i := 0
	for i < len(d.log) && d.log[i].edit <= snap.edit {
		i++
	}
	d.log = append(d.log[:0], d.log[i:]...)
}

// diagKey identifies a diagnostic by what a reader sees of it.
type diagKey struct {
	rule, msg string
	rng       ast.Range
}

// withoutDiags returns the diagnostics of ds not in drop.
func withoutDiags(ds, drop ast.Diagnostics) ast.Diagnostics {
	skip := make(map[diagKey]bool, len(drop))
	for _, d := range drop {
		skip[diagKey{d.Rule, d.Message, d.Range}] = true
	}
	out := make(ast.Diagnostics, 0, len(ds))
	for _, d := range ds {
		if !skip[diagKey{d.Rule, d.Message, d.Range}] {
			out = append(out, d)
		}
	}
	return out
}

// send publishes diags for version v of u; it reports false (and sends
// nothing) when the document moved on or closed meanwhile, or when a quick
// publication comes after the full one.
func (s *Server) send(u string, v int32, diags []protocol.Diagnostic, full bool) bool {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	d := s.docs[u]
	ok := d != nil && d.version == v && (full || d.fullVersion < v)
	if ok && full {
		d.fullVersion = v
	}
	pull := s.client.pull
	if ok && pull {
		d.pulled, d.pulledVersion = diags, v
	}
	s.mu.Unlock()
	if !ok {
		return false
	}
	if pull {
		s.refreshDiagnostics()
		return true
	}
	s.notify("textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI: uri.URI(u), Version: protocol.NewOptional(v), Diagnostics: diags,
	})
	if s.opts.sent != nil {
		s.opts.sent(u, v, full, diags)
	}
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
	snap, err := s.snapshotOf(u, true)
	if err != nil || snap.version != v {
		return nil
	}
	return snap
}

// errSuperseded is the error of an analysis dropped at a checkpoint
// because an edit replaced its text.
var errSuperseded = errors.New("superseded by an edit")

// snapshot returns the analysis of the current version of an open document.
func (s *Server) snapshot(u string) (*snapshot, error) { return s.snapshotOf(u, false) }

// snapshotOf is snapshot; when cancellable (the publications' analyses),
// an analysis whose text an edit replaced meanwhile stops at its next
// checkpoint (before the parse, before each rule) and answers
// errSuperseded instead of finishing a result nobody will see. Requests
// never cancel: they answer about the text they were asked about.
func (s *Server) snapshotOf(u string, cancellable bool) (*snapshot, error) {
	s.mu.Lock()
	d := s.docs[u]
	var text []byte
	var lines *ast.LineTable
	var version int32
	var edit, deps int
	if d != nil {
		text, lines, version, edit, deps = d.text, d.lines, d.version, d.edit, d.deps
	}
	s.mu.Unlock()
	if d == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "document not open: %s", u)
	}
	env, gen := s.ws.env(u)
	d.snapMu.Lock()
	defer d.snapMu.Unlock()
	if c := d.snap.Load(); c != nil && c.version == version && c.gen == gen && c.edit == edit && c.deps == deps {
		s.touch(d)
		return c, nil
	}
	var stop func() bool
	if cancellable {
		stop = d.superseded(edit)
		if stop() {
			return nil, errSuperseded
		}
	}
	pre := s.takePre(d, edit)
	var tree *parsedTree // the parse to keep for the next incremental one
	if pre != nil {
		tree = &parsedTree{edit: edit, file: pre.file, raw: copyDiags(pre.diags)}
		if s.defaultAnalyzer {
			pre.reuse = &lint.Reuse{}
		}
	} else if s.defaultAnalyzer && !isSkillMD(u) {
		if f, raw, reuse, ok := s.spliced(d, edit, text, lines, gen); ok {
			// the edits since the last parse stayed inside one target
			pre = &preParse{file: f, diags: copyDiags(raw), reuse: reuse}
			tree = &parsedTree{edit: edit, file: f, raw: raw, gen: gen}
			if reuse.Prev != nil {
				tree.base, tree.bc = reuse.Prev, chunk{reuse.From, reuse.OldTo, reuse.NewTo}
			}
		} else {
			// the compiled unit of the text (tree, parser diagnostics as
			// own copies, checker facts)
			cu := wsenv.Parse(docName(u), text)
			pre = &preParse{file: cu.File, diags: cu.ParsedCopy(), info: cu.Info, reuse: &lint.Reuse{}}
			tree = &parsedTree{edit: edit, file: cu.File, raw: cu.Parsed}
		}
	}
	if tree != nil {
		s.mu.Lock()
		d.keepTree(tree)
		s.mu.Unlock()
	}
	if stop != nil && stop() {
		return nil, errSuperseded
	}
	a := analyze(s.opts.Analyzer, docName(u), text, env, pre, stop)
	if tree != nil && pre != nil && pre.reuse != nil && pre.reuse.Next != nil {
		// the next incremental analysis takes over this one's findings,
		// also when this one is superseded: the rules it ran before it
		// stopped kept all their findings, those it did not run none
		s.mu.Lock()
		tree.kept, tree.gen = pre.reuse.Next, gen
		s.mu.Unlock()
		if pre.reuse.TookOver && s.opts.tookOver != nil {
			s.opts.tookOver(u)
		}
	}
	if stop != nil {
		if stop() {
			return nil, errSuperseded // incomplete: never cached nor shown
		}
		d.fullAt.Store(time.Now().UnixNano())
	}
	snap := &snapshot{uri: u, version: version, gen: gen, edit: edit, deps: deps, src: text, lines: lines, env: env,
		Analysis: a}
	if pre != nil {
		snap.parsed = pre.diags
	}
	d.snap.Store(snap)
	s.touch(d)
	return snap, nil
}

// spliced is the incremental parse of edit of d (text, lines) from the
// document's last parsed tree (spliceTree); ok is false when it does not
// apply.
func (s *Server) spliced(d *document, edit int, text []byte, lines *ast.LineTable, gen int) (*ast.File, ast.Diagnostics, *lint.Reuse, bool) {
	s.mu.Lock()
	t, c, ok := d.treeSpan(edit)
	var kept, base *lint.Kept
	var bc chunk
	if ok && t.gen == gen {
		kept, base, bc = t.kept, t.base, t.bc
	}
	s.mu.Unlock()
	if !ok {
		return nil, nil, nil, false
	}
	f, raw, ch, ok := spliceTree(docName(d.uri), t, text, lines, c)
	if !ok {
		return nil, nil, nil, false
	}
	if s.opts.spliced != nil {
		s.opts.spliced(d.uri)
	}
	// the rules marked local run over the parsed target only when the
	// analysis of t finished in the same environment (lint.Reuse), or
	// when t's was superseded, that of the parse t was spliced from, if
	// both splices replaced the same target
	return f, raw, reuseFor(kept, base, bc, ch), true
}

// reuseFor returns the lint.Reuse of a splice ch of a parse whose own
// analysis left kept (nil when it was superseded), and which was itself
// spliced by bc from the parse whose analysis left base: kept's findings,
// or base's when ch replaced the target bc replaced (the chunks compose:
// [bc.from, bc.oldTo) of base's text is [ch.from, ch.to) of the new one).
func reuseFor(kept, base *lint.Kept, bc, ch chunk) *lint.Reuse {
	r := &lint.Reuse{Prev: kept, From: ch.from, OldTo: ch.oldTo, NewTo: ch.to}
	if kept == nil && base != nil && bc.from == ch.from && bc.to == ch.oldTo {
		r.Prev, r.OldTo = base, bc.oldTo
	}
	return r
}

// copyDiags returns copies of ds (the linter sets the severities of the
// parser's diagnostics it is given).
func copyDiags(ds ast.Diagnostics) ast.Diagnostics {
	out := make(ast.Diagnostics, len(ds))
	for i, d := range ds {
		cp := *d
		out[i] = &cp
	}
	return out
}

// takePre returns the quick publication's parse of edit of d, once.
func (s *Server) takePre(d *document, edit int) *preParse {
	s.mu.Lock()
	defer s.mu.Unlock()
	pre := d.pre
	d.pre = nil
	if pre == nil || d.preEdit != edit {
		return nil
	}
	return pre
}

// maxSnapshots bounds the analyses kept in memory: those of the most
// recently used documents. The others keep their text and diagnostics
// and are analysed again when a request needs them (their tree for the
// incremental parse goes too).
const maxSnapshots = 16

// touch marks d as recently used and drops the analyses of the documents
// that fall out of the recently used set.
func (s *Server) touch(d *document) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recent = append(slices.DeleteFunc(s.recent, func(o *document) bool { return o == d }), d)
	if len(s.recent) <= maxSnapshots {
		return
	}
	old := s.recent[0]
	s.recent = slices.Delete(s.recent, 0, 1)
	old.snap.Store(nil)
	old.tree, old.treeLog = nil, nil // the same tree: the next analysis parses whole
	old.lane = nil
}
