package lsp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// rawSession drives a server with hand-written frames.
type rawSession struct {
	t  *testing.T
	c  net.Conn
	rd *bufio.Reader
}

func newRawSession(t *testing.T) *rawSession {
	sc, cc := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = Serve(ctx, sc, Options{Home: t.TempDir()}); close(done) }()
	t.Cleanup(func() { cancel(); cc.Close(); <-done })
	return &rawSession{t: t, c: cc, rd: bufio.NewReader(cc)}
}

func (r *rawSession) send(body string) {
	r.t.Helper()
	_ = r.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := fmt.Fprintf(r.c, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawSession) recv() string {
	r.t.Helper()
	_ = r.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	n := 0
	for {
		line, err := r.rd.ReadString('\n')
		if err != nil {
			r.t.Fatal(err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r.rd, buf); err != nil {
		r.t.Fatal(err)
	}
	return string(buf)
}

func TestMalformedJSONKeepsServing(t *testing.T) {
	r := newRawSession(t)
	r.send(`{"jsonrpc":"2.0","id":1,"method":`)
	if got := r.recv(); !strings.Contains(got, "-32700") {
		t.Errorf("malformed frame answered %s", got)
	}
	r.send(`[1,2`)
	if got := r.recv(); !strings.Contains(got, "-32700") && !strings.Contains(got, "-32600") {
		t.Errorf("bad batch answered %s", got)
	}
	r.send(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{}}`)
	if got := r.recv(); !strings.Contains(got, "-32002") {
		t.Errorf("request before initialize answered %s", got)
	}
	r.send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":{}}}`)
	if got := r.recv(); !strings.Contains(got, `"capabilities"`) {
		t.Errorf("initialize answered %s", got)
	}
	r.send(`{"jsonrpc":"2.0","id":4,"method":"no/such/method","params":{}}`)
	if got := r.recv(); !strings.Contains(got, "-32601") {
		t.Errorf("unknown method answered %s", got)
	}
	r.send(`{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":"not an object"}`)
	if got := r.recv(); !strings.Contains(got, `"error"`) {
		t.Errorf("bad params answered %s", got)
	}
	r.send(`{"jsonrpc":"2.0","id":6,"method":"shutdown"}`)
	if got := r.recv(); !strings.Contains(got, `"id":6`) {
		t.Errorf("shutdown answered %s", got)
	}
}

func TestUntitledAndInvalidUTF8(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(t.TempDir())
	u := "untitled:Untitled-1"
	c.open(u, "# Skill: x\n\nt:\n    emit(text=\"caf\xe9 \xff\xfe ${\")\n\ndefault: t\n")
	c.waitDiags(u, atVersion(1))
	var h protocol.Hover
	if err := c.call("textDocument/hover", docPos(u, protocol.Position{Line: 3, Character: 6}), &h); err != nil {
		t.Fatal(err)
	}
	var list protocol.CompletionList
	if err := c.call("textDocument/completion", docPos(u, protocol.Position{Line: 3, Character: 22}), &list); err != nil {
		t.Fatal(err)
	}
	// Positions far outside the document are clamped, not fatal.
	if err := c.call("textDocument/hover", docPos(u, protocol.Position{Line: 999, Character: 999}), &h); err != nil {
		t.Fatal(err)
	}
	if err := c.call("textDocument/hover", docPos("file:///not/open.skill.md", protocol.Position{}), &h); err == nil {
		t.Error("hover on a closed document succeeded")
	}
}

func TestStaleVersionIgnored(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(t.TempDir())
	u := "untitled:stale"
	c.open(u, "t:\n    emit(text=\"a\")\n\ndefault: t\n")
	c.waitDiags(u, atVersion(1))
	c.change(u, 3, "t:\n    emit(text=\"a\")\n\ndefault: t\n")
	c.change(u, 2, "t:\n    emit(text=\"a\"\n\ndefault: t\n") // stale: must be ignored
	got := c.waitDiags(u, atVersion(3))
	if len(got.Diagnostics) != 0 {
		t.Errorf("stale change was applied: %+v", got.Diagnostics)
	}
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.diags {
		if v, _ := p.Version.Get(); v == 2 {
			t.Errorf("diagnostics published for stale version 2")
		}
	}
}

func TestIncrementalUTF16Edits(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(t.TempDir())
	u := "untitled:utf16"
	text := "# Skill: x\n\nt:\n    emit(text=\"😀 é ${A}\")\n\ndefault: t\n"
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	// Replace "A" (after an astral char, 2 UTF-16 units) with "NOW".
	p := posOf(t, text, "A}", 0, 0)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": p,
			"end": map[string]any{"line": p.Line, "character": p.Character + 1}}, "text": "NOW"}}})
	c.waitDiags(u, atVersion(2))
	want := strings.Replace(text, "${A}", "${NOW}", 1)
	h := hoverText(t, c, u, posOf(t, want, "NOW", 0, 1))
	if !strings.Contains(h, "ambient") {
		t.Errorf("edit misplaced, hover = %s", h)
	}
}

func TestRapidChanges(t *testing.T) {
	c := newTestClient(t, Options{Debounce: 20 * time.Millisecond})
	c.initialize(t.TempDir())
	u := "untitled:rapid"
	base := "t:\n    emit(text=\"x\")\n\ndefault: t\n"
	c.open(u, base)
	const n = 3000
	for v := 2; v <= n; v++ {
		text := base
		if v%2 == 0 {
			text = "t:\n    emit(text=\"x\"\n\ndefault: t\n"
		}
		c.change(u, v, text)
	}
	got := c.waitDiags(u, atVersion(n))
	if len(got.Diagnostics) == 0 {
		t.Error("final (even, broken) version has no diagnostics")
	}
	c.mu.Lock()
	published := len(c.diags)
	c.mu.Unlock()
	if published > n/10 {
		t.Errorf("debounce published %d times for %d changes", published, n)
	}
}

func TestLargeDocument(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(t.TempDir())
	var b strings.Builder
	b.WriteString("# Skill: big\n# Vars: A\n\nt:\n")
	for b.Len() < 5<<20 {
		b.WriteString("    emit(text=\"line ${A} with some padding text to make it longer\")\n")
	}
	b.WriteString("\ndefault: t\n")
	u := "untitled:big"
	c.open(u, b.String())
	// a large document gets the parser's findings at once, then the full
	// analysis: wait for both
	c.waitPublications(u, 1, 2)
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	if len(syms) == 0 {
		t.Error("no symbols for the large document")
	}
}

func TestPanicBecomesErrorReply(t *testing.T) {
	c := newTestClient(t, Options{Analyzer: func(name string, src []byte, env *Env) Analysis {
		if strings.Contains(string(src), "boom") {
			return Analysis{} // nil tree: feature handlers will panic
		}
		return frontEnd(name, src, env)
	}})
	c.initialize(t.TempDir())
	c.open("untitled:boom", "boom\n")
	err := c.call("textDocument/hover", docPos("untitled:boom", protocol.Position{}), nil)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InternalError {
		t.Fatalf("hover on panicking handler = %v", err)
	}
	c.open("untitled:fine", "t:\n    emit(text=\"x\")\n\ndefault: t\n")
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "untitled:fine"}}, &syms)
	if len(syms) == 0 {
		t.Error("server did not survive the panic")
	}
}

func TestCancellation(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	c := newTestClient(t, Options{Analyzer: func(name string, src []byte, env *Env) Analysis {
		if strings.Contains(string(src), "slow") {
			select {
			case started <- struct{}{}:
			default:
			}
			<-release
		}
		return frontEnd(name, src, env)
	}})
	c.initialize(t.TempDir())
	c.open("untitled:slow", "# slow\n")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		err := protocol.Call(ctx, c.conn, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "untitled:slow"}}, nil)
		errc <- err
	}()
	<-started
	cancel()
	close(release)
	if err := <-errc; err == nil {
		t.Error("cancelled request succeeded")
	}
	// The session still answers.
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "untitled:slow"}}, &syms)
}

func TestWatchedFilesRecheck(t *testing.T) {
	dir := workspaceCopy(t)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(dir + "/brief.skill.md"))
	text := read(t, dir, "brief.skill.md")
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	edited := strings.Replace(text, "    $ llm", "    $ tracker.", 1)
	c.change(u, 2, edited)
	p := posOf(t, edited, "$ tracker.", 1, len("$ tracker."))
	var list protocol.CompletionList
	c.mustCall("textDocument/completion", docPos(u, p), &list)
	if !labels(list)["search"] {
		t.Fatalf("tools before change: %v", labels(list))
	}
	conns := strings.Replace(read(t, dir, "connectors.json"), `"search"`, `"find"`, 1)
	writeFile(t, dir, "connectors.json", conns)
	c.mu.Lock()
	before := len(c.diags)
	c.mu.Unlock()
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": string(uri.File(dir + "/connectors.json")), "type": 2}}})
	deadline := time.Now().Add(10 * time.Second)
	for c.published() <= before {
		if time.Now().After(deadline) {
			t.Fatal("no diagnostics after the connectors.json change")
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.mustCall("textDocument/completion", docPos(u, p), &list)
	if got := labels(list); !got["find"] || got["search"] {
		t.Errorf("tools after change: %v", got)
	}
}
