package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/mcp/internal/testserver"
	"github.com/skillscript/skillc/eval/toolcache"
)

const serverBin = "skillc-mcptestserver"

// TestMain builds the test server and puts it on PATH, so the stdio
// connector spawns it exactly as it would spawn an adopter's server.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcptest")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, serverBin), "./internal/testserver/cmd/mcptestserver").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build test server: %v\n%s", err, out)
		os.Exit(1)
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func newStdio(t testing.TB, opts StdioOptions) *Stdio {
	t.Helper()
	if opts.Command == "" {
		opts.Command = serverBin
	}
	if opts.Name == "" {
		opts.Name = "test"
	}
	s := NewStdio(opts)
	t.Cleanup(func() { s.Close() })
	return s
}

func ctxTimeout(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// checkResults exercises the result decoding rules against a connector.
func checkResults(t *testing.T, c contract.Connector) {
	t.Helper()
	ctx := ctxTimeout(t, 20*time.Second)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"echo", map[string]any{"text": "hello"}, "hello"},
		{"echo", map[string]any{"text": "[1,2]"}, "[1 2]"},
		{"add", map[string]any{"a": 2, "b": 3.5}, "map[sum:5.5]"},
		{"json_text", nil, "map[items:[1 2] ok:true]"},
	}
	for _, tc := range tests {
		got, err := c.Call(ctx, tc.tool, tc.args)
		if err != nil {
			t.Fatalf("Call(%s): %v", tc.tool, err)
		}
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("Call(%s, %v) = %s, want %s", tc.tool, tc.args, s, tc.want)
		}
	}
	_, err := c.Call(ctx, "fail", map[string]any{"message": "no such ticket"})
	var te *contract.ToolError
	if !errors.As(err, &te) || te.Tool != "fail" || !strings.Contains(te.Message, "no such ticket") {
		t.Errorf("fail tool: err = %v, want *ToolError", err)
	}
	if _, err := c.Call(ctx, "no_such_tool", nil); err == nil {
		t.Error("unknown tool should fail")
	}
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	echo := findTool(tools, "echo")
	if echo == nil || !strings.Contains(string(echo.InputSchema), `"text"`) || echo.Description == "" {
		t.Errorf("echo tool = %+v", echo)
	}
}

func findTool(ts []contract.Tool, name string) *contract.Tool {
	for i := range ts {
		if ts[i].Name == name {
			return &ts[i]
		}
	}
	return nil
}

func TestStdioResults(t *testing.T) {
	checkResults(t, newStdio(t, StdioOptions{Framing: "newline"}))
}

func TestStdioLSPFraming(t *testing.T) {
	s := newStdio(t, StdioOptions{Args: []string{"-framing", "lsp"}, Framing: "lsp"})
	checkResults(t, s)
	pid := s.PID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, pid)
}

func TestStdioHealthCheck(t *testing.T) {
	s := newStdio(t, StdioOptions{})
	if err := s.HealthCheck(ctxTimeout(t, 20*time.Second)); err != nil {
		t.Fatal(err)
	}
	bad := newStdio(t, StdioOptions{Command: "skillc-no-such-server"})
	err := bad.HealthCheck(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not found on PATH") {
		t.Errorf("missing command: err = %v", err)
	}
}

func TestStdioHangHonoursContext(t *testing.T) {
	s := newStdio(t, StdioOptions{})
	if err := s.HealthCheck(ctxTimeout(t, 20*time.Second)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Call(ctx, "hang", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hang: err = %v, want deadline exceeded", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("hang call took %v", time.Since(start))
	}
	// The session survives a cancelled call.
	if got, err := s.Call(ctxTimeout(t, 10*time.Second), "echo", map[string]any{"text": "still here"}); err != nil || got != "still here" {
		t.Errorf("after hang: %v, %v", got, err)
	}
}

func TestStdioCallTimeoutOption(t *testing.T) {
	s := newStdio(t, StdioOptions{CallTimeout: 200 * time.Millisecond})
	_, err := s.Call(ctxTimeout(t, 20*time.Second), "hang", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded from CallTimeout", err)
	}
}

func TestStdioCrashMidCall(t *testing.T) {
	s := newStdio(t, StdioOptions{})
	ctx := ctxTimeout(t, 20*time.Second)
	if err := s.HealthCheck(ctx); err != nil {
		t.Fatal(err)
	}
	first := s.PID()
	_, err := s.Call(ctx, "crash", nil)
	if err == nil {
		t.Fatal("crash call succeeded")
	}
	var te *contract.ToolError
	if errors.As(err, &te) {
		t.Errorf("a crash is a transport error, not a tool error: %v", err)
	}
	assertGone(t, first)
	// The next call respawns the server.
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := s.Call(ctx, "echo", map[string]any{"text": "back"})
		if err == nil && got == "back" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recovery after crash: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s.PID() == first || s.PID() == 0 {
		t.Errorf("expected a new child, pid %d (was %d)", s.PID(), first)
	}
}

func TestStdioCloseReapsChild(t *testing.T) {
	s := newStdio(t, StdioOptions{})
	if err := s.HealthCheck(ctxTimeout(t, 20*time.Second)); err != nil {
		t.Fatal(err)
	}
	pid := s.PID()
	if pid == 0 {
		t.Fatal("no child")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, pid)
	if _, err := s.Call(context.Background(), "echo", nil); err == nil {
		t.Error("call after Close succeeded")
	}
}

// assertGone checks that pid no longer exists (exited and reaped: a zombie
// would still answer signal 0).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still exists (orphan or unreaped zombie)", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStdioInitTimeoutNamesFraming(t *testing.T) {
	s := newStdio(t, StdioOptions{Args: []string{"-no-init"}, InitTimeout: 300 * time.Millisecond, TerminateGrace: 200 * time.Millisecond})
	err := s.HealthCheck(context.Background())
	if err == nil || !strings.Contains(err.Error(), "did not complete initialize") || !strings.Contains(err.Error(), "framing") {
		t.Errorf("err = %v", err)
	}
	if s.PID() != 0 {
		t.Error("a failed start left a child registered")
	}
}

func TestStdioFramingMismatchTimesOut(t *testing.T) {
	s := newStdio(t, StdioOptions{Framing: "lsp", InitTimeout: 500 * time.Millisecond, TerminateGrace: 200 * time.Millisecond})
	if err := s.HealthCheck(context.Background()); err == nil || !strings.Contains(err.Error(), "framing") {
		t.Errorf("err = %v", err)
	}
}

func newHTTPServer(t testing.TB) (*httptest.Server, *testserver.Stats) {
	stats := &testserver.Stats{}
	srv := httptest.NewServer(testserver.Handler(stats))
	t.Cleanup(srv.Close)
	return srv, stats
}

func TestHTTPResults(t *testing.T) {
	srv, _ := newHTTPServer(t)
	c := NewHTTP(HTTPOptions{Name: "mem", URL: srv.URL})
	defer c.Close()
	checkResults(t, c)
	if err := c.HealthCheck(context.Background()); err != nil {
		t.Error(err)
	}
}

func TestHTTPSessionPerIdentity(t *testing.T) {
	srv, stats := newHTTPServer(t)
	c := NewHTTP(HTTPOptions{Name: "mem", URL: srv.URL, IdentityHeader: testserver.IdentityHeader, Headers: map[string]string{"Authorization": "Bearer x"}})
	defer c.Close()
	for _, id := range []string{"alice", "bob", "alice", "bob", "alice"} {
		ctx := contract.WithCallerIdentity(ctxTimeout(t, 10*time.Second), id)
		got, err := c.Call(ctx, "whoami", nil)
		if err != nil || got != id {
			t.Fatalf("whoami as %s = %v, %v", id, got, err)
		}
	}
	n, ids := stats.Snapshot()
	if n != 2 || ids["alice"] != 1 || ids["bob"] != 1 {
		t.Errorf("sessions = %d %v; want one per identity", n, ids)
	}
}

func TestHTTPPoolLRU(t *testing.T) {
	srv, stats := newHTTPServer(t)
	c := NewHTTP(HTTPOptions{Name: "mem", URL: srv.URL, IdentityHeader: testserver.IdentityHeader, MaxPoolSize: 2})
	defer c.Close()
	call := func(id string) {
		t.Helper()
		if _, err := c.Call(contract.WithCallerIdentity(ctxTimeout(t, 10*time.Second), id), "whoami", nil); err != nil {
			t.Fatal(err)
		}
	}
	call("a")
	call("b")
	call("a") // a is now most recent
	call("c") // evicts b
	if got := fmt.Sprint(c.Identities()); got != "[a c]" {
		t.Errorf("pool = %s, want [a c]", got)
	}
	call("b") // reconnects b, evicts a
	n, _ := stats.Snapshot()
	if n != 4 || c.PoolSize() != 2 {
		t.Errorf("sessions opened = %d, pool = %d; want 4 and 2", n, c.PoolSize())
	}
}

func TestHTTPWithoutIdentityHeaderSharesSession(t *testing.T) {
	srv, stats := newHTTPServer(t)
	c := NewHTTP(HTTPOptions{Name: "mem", URL: srv.URL})
	defer c.Close()
	for _, id := range []string{"a", "b", "c"} {
		got, err := c.Call(contract.WithCallerIdentity(context.Background(), id), "whoami", nil)
		if err != nil || got != "" {
			t.Fatalf("whoami = %v, %v (identity must not be sent)", got, err)
		}
	}
	if n, _ := stats.Snapshot(); n != 1 {
		t.Errorf("sessions = %d, want 1", n)
	}
}

func TestHTTPServerDown(t *testing.T) {
	srv, _ := newHTTPServer(t)
	url := srv.URL
	srv.Close()
	c := NewHTTP(HTTPOptions{Name: "mem", URL: url})
	defer c.Close()
	if err := c.HealthCheck(ctxTimeout(t, 5*time.Second)); err == nil {
		t.Error("health check against a closed server succeeded")
	}
}

func TestToolsCacheFreshness(t *testing.T) {
	srv, _ := newHTTPServer(t)
	dir := t.TempDir()
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	cache := toolcache.Cache{Dir: dir, TTL: time.Hour, Now: func() time.Time { return now }}
	static := []contract.Tool{{Name: "echo", Mutating: true}, {Name: "offline_only", Description: "declared"}}
	c := NewHTTP(HTTPOptions{Name: "mem", URL: srv.URL, Cache: cache, StaticTools: static})
	tools, err := c.Tools(context.Background())
	c.Close()
	if err != nil || findTool(tools, "echo") == nil || !findTool(tools, "echo").Mutating || findTool(tools, "offline_only") == nil {
		t.Fatalf("tools = %+v, %v", tools, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.tools.json"))
	if len(files) != 1 {
		t.Fatalf("cache files = %v", files)
	}
	url := srv.URL
	srv.Close()
	// Fresh cache: served without the server.
	c2 := NewHTTP(HTTPOptions{Name: "mem", URL: url, Cache: cache})
	if tools, err := c2.Tools(context.Background()); err != nil || findTool(tools, "add") == nil {
		t.Errorf("fresh cache: %v, %v", tools, err)
	}
	c2.Close()
	// Stale cache and the server down: served stale rather than failing.
	now = now.Add(2 * time.Hour)
	c3 := NewHTTP(HTTPOptions{Name: "mem", URL: url, Cache: cache})
	if tools, err := c3.Tools(ctxTimeout(t, 5*time.Second)); err != nil || findTool(tools, "add") == nil {
		t.Errorf("stale cache: %v, %v", tools, err)
	}
	c3.Close()
	// No cache and no server: an error.
	c4 := NewHTTP(HTTPOptions{Name: "other", URL: url, Cache: cache})
	if _, err := c4.Tools(ctxTimeout(t, 5*time.Second)); err == nil {
		t.Error("no cache, no server: want an error")
	}
	c4.Close()
}

func TestToolsCacheRefreshesWhenStale(t *testing.T) {
	srv, _ := newHTTPServer(t)
	dir := t.TempDir()
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	cache := toolcache.Cache{Dir: dir, TTL: time.Hour, Now: func() time.Time { return now }}
	key := toolcache.Key("mem", "http", srv.URL)
	if err := cache.Store(key, "mem", []contract.Tool{{Name: "old_tool"}}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(3 * time.Hour)
	c := NewHTTP(HTTPOptions{Name: "mem", URL: srv.URL, Cache: cache})
	defer c.Close()
	tools, err := c.Tools(context.Background())
	if err != nil || findTool(tools, "old_tool") != nil || findTool(tools, "echo") == nil {
		t.Errorf("stale entry not refreshed: %v, %v", tools, err)
	}
	if got, fresh, ok := cache.Load(key); !ok || !fresh || findTool(got, "echo") == nil {
		t.Errorf("cache not rewritten: %v %v %v", got, fresh, ok)
	}
}

func BenchmarkStdioCall(b *testing.B) {
	s := newStdio(b, StdioOptions{})
	ctx := context.Background()
	if err := s.HealthCheck(ctx); err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"text": "ping"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Call(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHTTPCall(b *testing.B) {
	srv, _ := newHTTPServer(b)
	c := NewHTTP(HTTPOptions{Name: "mem", URL: srv.URL})
	defer c.Close()
	ctx := context.Background()
	args := map[string]any{"text": "ping"}
	if _, err := c.Call(ctx, "echo", args); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Call(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
	}
}
