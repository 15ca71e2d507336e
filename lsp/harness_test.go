package lsp

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// testClient is a recording LSP client connected to an in-process server
// over net.Pipe.
type testClient struct {
	t    testing.TB
	conn jsonrpc2.Conn
	done chan error

	mu    sync.Mutex
	diags []protocol.PublishDiagnosticsParams
	wake  chan struct{}
	// settings answers workspace/configuration when set (before initialize)
	settings any
}

// newTestClient starts a server with opts and connects a client to it.
func newTestClient(t testing.TB, opts Options) *testClient {
	t.Helper()
	if opts.Debounce == 0 {
		opts.Debounce = 5 * time.Millisecond
	}
	if opts.Env == nil {
		opts.Env = func(string) (string, bool) { return "", false }
	}
	if opts.Home == "" {
		opts.Home = t.TempDir()
	}
	sc, cc := net.Pipe()
	c := &testClient{t: t, done: make(chan error, 1), wake: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { c.done <- Serve(ctx, sc, opts) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(cc), jsonrpc2.WithCodec(lspCodec{}))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		_ = c.conn.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
	})
	return c
}

// handle records notifications from the server.
func (c *testClient) handle(_ context.Context, req *jsonrpc2.Request) (any, error) {
	if req.Method() == "textDocument/publishDiagnostics" {
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad publishDiagnostics: %v", err)
			return nil, nil
		}
		c.mu.Lock()
		c.diags = append(c.diags, p)
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
	if req.IsCall() && req.Method() == "workspace/configuration" && c.settings != nil {
		return []any{c.settings}, nil
	}
	if req.IsCall() {
		return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "client has no methods")
	}
	return nil, nil
}

// call sends a request and decodes the result into out (when non-nil).
func (c *testClient) call(method string, params, out any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var raw jsonrpc2.RawMessage
	if _, err := c.conn.Call(ctx, method, params, &raw); err != nil {
		return err
	}
	if out != nil && len(raw) > 0 && string(raw) != "null" {
		return protocol.Unmarshal(raw, out)
	}
	return nil
}

// mustCall is call failing the test on error.
func (c *testClient) mustCall(method string, params, out any) {
	c.t.Helper()
	if err := c.call(method, params, out); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// notify sends a notification.
func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// initialize performs the handshake with root as the workspace folder.
func (c *testClient) initialize(root string) {
	c.t.Helper()
	caps := map[string]any{}
	if c.settings != nil {
		caps["workspace"] = map[string]any{"configuration": true}
	}
	p := map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps}
	if root != "" {
		p["rootUri"] = string(uri.File(root))
	}
	var res protocol.InitializeResult
	c.mustCall("initialize", p, &res)
	c.notify("initialized", map[string]any{})
}

// open opens a document.
func (c *testClient) open(u, text string) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "skillscript", "version": 1, "text": text}})
}

// change replaces the whole text at version v.
func (c *testClient) change(u string, v int, text string) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": v},
		"contentChanges": []any{map[string]any{"text": text}}})
}

// waitDiags waits for diagnostics of u satisfying ok.
func (c *testClient) waitDiags(u string, ok func(protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	deadline := time.After(5 * time.Minute)
	for {
		c.mu.Lock()
		for i := len(c.diags) - 1; i >= 0; i-- {
			if string(c.diags[i].URI) == u && ok(c.diags[i]) {
				p := c.diags[i]
				c.mu.Unlock()
				return p
			}
		}
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no matching diagnostics for %s", u)
		}
	}
}

// waitPublications waits until n publications for version v of u arrived.
func (c *testClient) waitPublications(u string, v int32, n int) {
	c.t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		c.mu.Lock()
		seen := 0
		for _, p := range c.diags {
			if string(p.URI) == u && atVersion(v)(p) {
				seen++
			}
		}
		c.mu.Unlock()
		if seen >= n {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%d of %d publications for %s version %d", seen, n, u, v)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// atVersion matches diagnostics published for version v.
func atVersion(v int32) func(protocol.PublishDiagnosticsParams) bool {
	return func(p protocol.PublishDiagnosticsParams) bool {
		got, ok := p.Version.Get()
		return ok && got == v
	}
}

// workspaceCopy copies testdata/lsp/ws into a temporary directory.
func workspaceCopy(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "testdata", "lsp", "ws")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// read returns a file of the workspace.
func read(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// posOf returns the LSP position of the n-th (0-based) occurrence of needle
// in text, plus delta characters.
func posOf(t testing.TB, text, needle string, n, delta int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(text[off+1:], needle)
		if j < 0 {
			t.Fatalf("%q occurrence %d not found", needle, n)
		}
		off += j + 1
	}
	before := text[:off]
	line := strings.Count(before, "\n")
	col := off - (strings.LastIndex(before, "\n") + 1)
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len([]byte(text[off-col:off])) + delta)}
}

// docPos builds TextDocumentPositionParams.
func docPos(u string, p protocol.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": p.Line, "character": p.Character}}
}

// writeFile writes a file of the workspace.
func writeFile(t testing.TB, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sharedServer is the server binary built for the editor tests.
var sharedServer builtServer

// published returns the number of diagnostics notifications received.
func (c *testClient) published() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.diags)
}
