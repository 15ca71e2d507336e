package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillscript/skillc/lint"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// DefaultDebounce is the delay between the last change of a document and
// the diagnostics computed for it.
const DefaultDebounce = 25 * time.Millisecond

// DefaultRuleDocURL is the base of the codeDescription links of diagnostics.
const DefaultRuleDocURL = lint.DocsURL

// Version is reported in the initialize result.
const Version = "0.1.0"

// Options configure a Server. The zero value is usable.
type Options struct {
	// Debounce delays diagnostics after a change; 0 means DefaultDebounce
	// and a negative value publishes at once.
	Debounce time.Duration
	// FullDelay is the quiet time after the last edit of a large document
	// before the whole analysis runs when the edits are answered by the
	// local lane (lane.go): 0 means DefaultFullDelay, a negative value no
	// lane (the whole analysis after every edit).
	FullDelay time.Duration
	// Log receives the server log (never the protocol stream); nil discards.
	Log io.Writer
	// Env looks up environment variables for configuration discovery
	// (os.LookupEnv in the CLI); nil means an empty environment.
	Env func(string) (string, bool)
	// Home is the user's home directory for configuration discovery.
	Home string
	// Analyzer computes diagnostics and facts; nil means DefaultAnalyzer.
	Analyzer Analyzer
	// RuleDoc returns the documentation of a rule id for hover; nil means
	// DefaultRuleDoc.
	RuleDoc func(id string) (string, bool)
	// RuleDocURL is the base of rule links; "" means DefaultRuleDocURL.
	RuleDocURL string
	// ToolCacheDir overrides the directory of discovered MCP tool lists
	// (default SKILLSCRIPT_HOME/cache/tools).
	ToolCacheDir string
	// Format formats documents; nil means DefaultFormatter.
	Format Formatter
	// WarmTools lists the tools of wired MCP connectors into the tool
	// cache in the background (skillc lsp passes WarmWith and its MCP
	// client); nil means no warm-up: the cache is only read.
	WarmTools ToolWarmer
	// RunSkill runs `skillc run|test` for the skillc.run and skillc.test
	// commands (skillc lsp passes ExecRunner of its own binary); nil means
	// the server cannot run skills and the commands answer an error.
	RunSkill SkillRunner

	// quickMin overrides quickMinBytes when positive (tests: the quick
	// publication path for small real skills).
	quickMin int
	// sent, when set (tests), sees every publication the server sends
	// with whether it is the full analysis.
	sent func(u string, v int32, full bool, diags []protocol.Diagnostic)
	// spliced, when set (tests), is told of every full analysis whose
	// parse was incremental (spliceTree).
	spliced func(u string)
	// tookOver, when set, is called (tests) after each full analysis whose
	// local rules ran over the edited target only (lint.Reuse).
	tookOver func(u string)
	// laned, when set (tests), is called after each lane step.
	laned func(u string)
	// maxStale overrides fullMaxStale when positive (tests).
	maxStale time.Duration
}

// quickMinSize is the document size from which edits get a quick
// publication first.
func (o *Options) quickMinSize() int {
	if o.quickMin > 0 {
		return o.quickMin
	}
	return quickMinBytes
}

func (o *Options) debounce() time.Duration {
	switch {
	case o.Debounce == 0:
		return DefaultDebounce
	case o.Debounce < 0:
		return 0
	}
	return o.Debounce
}

// Server is one language server session. Create it with NewServer and run
// it with Serve; a Server serves one connection.
type Server struct {
	opts Options
	ws   *workspace
	reqs map[string]requestFunc

	conn jsonrpc2.Conn
	ctx  context.Context // connection lifetime

	mu          sync.Mutex
	docs        map[string]*document
	inflight    map[jsonrpc2.ID]context.CancelFunc
	initialized bool
	shutdown    bool

	pubMu sync.Mutex // orders publishDiagnostics notifications
	// envSent records the environments of generation envGen whose
	// configuration files' diagnostics were published (under pubMu).
	envSent map[*Env]bool
	envGen  int
	exit    chan struct{}

	// recent lists the documents whose analysis is kept, least recently
	// used first (under mu); clock stamps uses.
	recent   []*document
	tokenSeq uint64 // numbers semantic-token results (under mu)

	// defaultAnalyzer is set when Options.Analyzer was nil: the full
	// analysis may then reuse the quick publication's parse.
	defaultAnalyzer bool
	// analyses bounds the full analyses publications run at once (the
	// memory of many opens at once, the CPU left for quick answers).
	analyses chan struct{}
	parses   chan struct{} // the same for the quick publications' parses

	settings liveSettings                // from workspace/configuration
	baseEnv  func(string) (string, bool) // Options.Env as given

	refreshing atomic.Bool // a workspace/diagnostic/refresh is in flight

	client  clientCaps   // what the client announced at initialize (under mu)
	warmGen atomic.Int64 // counts tool warm-ups; a newer one supersedes
	// warming is set from initialize until the newest tool warm-up ended:
	// completion of tools not known yet is then incomplete.
	warming atomic.Bool

	closedMu sync.Mutex  // orders the checks of closed files
	closed   closedState // diagnostics pushed for files not open
}

// NewServer returns a server with the given options.
func NewServer(opts Options) *Server {
	defaultAnalyzer := opts.Analyzer == nil
	if defaultAnalyzer {
		opts.Analyzer = DefaultAnalyzer
	}
	if opts.RuleDoc == nil {
		opts.RuleDoc = DefaultRuleDoc
	}
	if opts.RuleDocURL == "" {
		opts.RuleDocURL = DefaultRuleDocURL
	}
	s := &Server{opts: opts, docs: map[string]*document{}, inflight: map[jsonrpc2.ID]context.CancelFunc{}, exit: make(chan struct{})}
	s.defaultAnalyzer = defaultAnalyzer
	s.baseEnv = opts.Env
	s.opts.Env = s.lookupEnv
	s.analyses = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	s.parses = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	s.ws = newWorkspace(&s.opts)
	s.reqs = requestHandlers()
	return s
}

// Serve runs a server with opts on rwc until the client exits, the stream
// ends or ctx is cancelled.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	return NewServer(opts).Serve(ctx, rwc)
}

// Serve serves the connection rwc.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	stream, err := newGuardedStream(rwc, s.logf)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	s.conn = jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(lspCodec{}))
	s.conn.Go(ctx, s.handle)
	exited := false
	select {
	case <-s.conn.Done():
	case <-s.exit:
		exited = true
	case <-ctx.Done():
	}
	s.stopTimers()
	cancel()
	// Closing the transport unblocks the read loop; a stdin that cannot be
	// interrupted is left behind rather than waited for.
	_ = rwc.Close()
	select {
	case <-s.conn.Done():
	case <-time.After(time.Second):
	}
	if exited {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.shutdown {
			return errors.New("exit notification before shutdown")
		}
		return nil
	}
	return s.conn.Err()
}

// logf writes one line to the log.
func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "skillc lsp: "+format+"\n", args...)
	}
}

// handle dispatches one incoming message. Notifications run inline, in
// wire order; requests are released to run concurrently.
func (s *Server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if !req.IsCall() {
		s.notification(ctx, req.Method(), req.Params())
		return nil, nil
	}
	method := req.Method()
	switch method {
	case "initialize":
		return s.guard(ctx, method, req.Params(), s.initialize)
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	}
	if err := s.checkState(); err != nil {
		return nil, err
	}
	h, ok := s.reqs[method]
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
	}
	jsonrpc2.Async(ctx)
	// The request context is pooled by jsonrpc2; derive cancellation from
	// the connection context instead (see cancelRequest).
	rctx, cancel := context.WithCancel(jsonrpc2.DetachContext(ctx))
	defer cancel()
	id := req.ID()
	s.track(id, cancel)
	defer s.untrack(id)
	return s.guard(rctx, method, req.Params(), func(ctx context.Context, p jsonrpc2.RawMessage) (any, error) {
		return h(ctx, s, p)
	})
}

// track records the cancel function of an in-flight request.
func (s *Server) track(id jsonrpc2.ID, cancel context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight[id] = cancel
}

// untrack forgets an in-flight request.
func (s *Server) untrack(id jsonrpc2.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.inflight, id)
}

// cancelRequest cancels the in-flight request named by $/cancelRequest.
func (s *Server) cancelRequest(p *protocol.CancelParams) {
	var id jsonrpc2.ID
	switch v := p.ID.(type) {
	case protocol.Integer:
		id = jsonrpc2.NewNumberID(int64(v))
	case protocol.String:
		id = jsonrpc2.NewStringID(string(v))
	default:
		return
	}
	s.mu.Lock()
	cancel := s.inflight[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// checkState rejects requests before initialize and after shutdown.
func (s *Server) checkState() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.initialized:
		return jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized")
	case s.shutdown:
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down")
	}
	return nil
}

// guard runs a request handler, turning a panic into an InternalError reply
// and an observed cancellation into RequestCancelled.
func (s *Server) guard(ctx context.Context, method string, params jsonrpc2.RawMessage, h func(context.Context, jsonrpc2.RawMessage) (any, error)) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic in %s: %v\n%s", method, r, debug.Stack())
			res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r)
		}
	}()
	res, err = h(ctx, params)
	if ctx.Err() != nil {
		return nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
	}
	return res, err
}

// notification handles one notification inline; it never fails the
// connection.
func (s *Server) notification(ctx context.Context, method string, params jsonrpc2.RawMessage) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic in %s: %v\n%s", method, r, debug.Stack())
		}
	}()
	if method == "exit" {
		s.signalExit()
		return
	}
	s.mu.Lock()
	ready := s.initialized
	s.mu.Unlock()
	if !ready {
		return // notifications before initialize are dropped (LSP 3.17)
	}
	var err error
	switch method {
	case "initialized":
		s.afterInitialized()
	case "$/setTrace":
	case "$/cancelRequest":
		err = decodeAnd(params, s.cancelRequest)
	case "textDocument/didOpen":
		err = decodeAnd(params, s.didOpen)
	case "textDocument/didChange":
		err = decodeAnd(params, s.didChange)
	case "textDocument/didSave":
		err = decodeAnd(params, s.didSave)
	case "textDocument/didClose":
		err = decodeAnd(params, s.didClose)
	case "workspace/didChangeWatchedFiles":
		err = decodeAnd(params, s.didChangeWatchedFiles)
	case "workspace/didChangeConfiguration":
		s.background("configuration", func() {
			s.pullSettings()
			s.configChanged()
		})
	case "workspace/didChangeWorkspaceFolders":
		err = decodeAnd(params, s.didChangeWorkspaceFolders)
	default:
		s.logf("ignoring notification %s", method)
	}
	if err != nil {
		s.logf("%s: %v", method, err)
	}
}

// signalExit ends Serve.
func (s *Server) signalExit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.exit:
	default:
		close(s.exit)
	}
}

// decodeAnd decodes params into a P and calls f.
func decodeAnd[P any](params jsonrpc2.RawMessage, f func(*P)) error {
	var p P
	if err := protocol.Unmarshal(params, &p); err != nil {
		return fmt.Errorf("invalid params: %w", err)
	}
	f(&p)
	return nil
}

// requestFunc answers one request.
type requestFunc func(ctx context.Context, s *Server, params jsonrpc2.RawMessage) (any, error)

// handlerOf adapts a typed handler to a requestFunc.
func handlerOf[P any](f func(s *Server, ctx context.Context, p *P) (any, error)) requestFunc {
	return func(ctx context.Context, s *Server, raw jsonrpc2.RawMessage) (any, error) {
		var p P
		if len(raw) > 0 {
			if err := protocol.Unmarshal(raw, &p); err != nil {
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
			}
		}
		return f(s, ctx, &p)
	}
}

// requestHandlers is the request dispatch table.
func requestHandlers() map[string]requestFunc {
	return map[string]requestFunc{
		"textDocument/hover":                     handlerOf((*Server).hover),
		"textDocument/completion":                handlerOf((*Server).completion),
		"textDocument/definition":                handlerOf((*Server).definition),
		"textDocument/references":                handlerOf((*Server).references),
		"textDocument/prepareRename":             handlerOf((*Server).prepareRename),
		"textDocument/rename":                    handlerOf((*Server).rename),
		"textDocument/documentSymbol":            handlerOf((*Server).documentSymbol),
		"textDocument/foldingRange":              handlerOf((*Server).foldingRange),
		"textDocument/semanticTokens/full":       handlerOf((*Server).semanticTokensFull),
		"textDocument/semanticTokens/full/delta": handlerOf((*Server).semanticTokensDelta),
		"textDocument/semanticTokens/range":      handlerOf((*Server).semanticTokensRange),
		"textDocument/inlayHint":                 handlerOf((*Server).inlayHint),
		"textDocument/codeLens":                  handlerOf((*Server).codeLens),
		"textDocument/formatting":                handlerOf((*Server).formatting),
		"textDocument/codeAction":                handlerOf((*Server).codeAction),
		"textDocument/signatureHelp":             handlerOf((*Server).signatureHelp),
		"workspace/executeCommand":               handlerOf((*Server).executeCommand),
		"textDocument/diagnostic":                handlerOf((*Server).documentDiagnostic),
		"workspace/diagnostic":                   handlerOf((*Server).workspaceDiagnostic),
		"textDocument/documentLink":              handlerOf((*Server).documentLink),
		"workspace/symbol":                       handlerOf((*Server).workspaceSymbol),
		"textDocument/prepareCallHierarchy":      handlerOf((*Server).prepareCallHierarchy),
		"callHierarchy/incomingCalls":            handlerOf((*Server).incomingCalls),
		"callHierarchy/outgoingCalls":            handlerOf((*Server).outgoingCalls),
		"textDocument/selectionRange":            handlerOf((*Server).selectionRange),
		"textDocument/documentHighlight":         handlerOf((*Server).documentHighlight),
		"textDocument/declaration":               handlerOf((*Server).declaration),
		"textDocument/linkedEditingRange":        handlerOf((*Server).linkedEditingRange),
		"textDocument/rangeFormatting":           handlerOf((*Server).rangeFormatting),
		"textDocument/onTypeFormatting":          handlerOf((*Server).onTypeFormatting),
	}
}
