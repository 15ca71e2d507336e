package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/substrate/mcp"
	"github.com/skillscript/skillc/eval/toolcache"
	"github.com/skillscript/skillc/internal/leaf/connectors"
)

// dialMCP is the Dialer the CLI passes: the connectors of
// eval/substrate/mcp.
func dialMCP(c *connectors.Connector, cache toolcache.Cache) (ToolLister, error) {
	conn, err := mcp.FromConfig(c, cache)
	if err != nil {
		return nil, err
	}
	return conn, nil
}

// pythonServer returns the path of the Python MCP server of testdata, or
// skips when python3 is not installed (fails under CI, which installs it).
func pythonServer(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is not installed")
		}
		t.Skip("python3 not installed")
	}
	p, err := filepath.Abs(filepath.Join("testdata", "tickets_mcp.py"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// liveEnv loads an environment whose connectors.json wires the Python
// server ("tickets") and a command that does not exist ("down"); the
// server logs its tools/list and tools/call requests under the returned
// directory.
func liveEnv(t *testing.T) (env *Env, logs string) {
	server := pythonServer(t)
	dir, logs := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"connectors.json": `{
  "tickets": {"class": "RemoteMcpConnector", "config": {"command": "python3", "args": ["` + server + `"], "framing": "newline",
    "env": {"LIST_LOG": "` + filepath.Join(logs, "list.log") + `", "CALL_LOG": "` + filepath.Join(logs, "call.log") + `"}}},
  "down": {"class": "RemoteMcpConnector", "config": {"command": "no-such-mcp-server-skillc", "framing": "newline"}}
}`})
	env = Load(dir, LoadOptions{ConnectorsPath: filepath.Join(dir, "connectors.json"), Home: t.TempDir(), ToolCacheDir: t.TempDir()})
	return env, logs
}

func listCount(t *testing.T, logs string) int {
	b, err := os.ReadFile(filepath.Join(logs, "list.log"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "tools/list")
}

func sources(rs []WarmResult) map[string]string {
	out := map[string]string{}
	for _, r := range rs {
		out[r.Connector] = r.Source
	}
	return out
}

// TestWarmToolsPythonServer warms the tool cache from a real MCP server
// written in Python and spawned over stdio: the first warm-up asks it,
// a second one within the freshness window reads the cache, refresh asks
// again, --offline never spawns, and an unreachable server is one info
// line. The server is never sent tools/call.
func TestWarmToolsPythonServer(t *testing.T) {
	env, logs := liveEnv(t)
	ctx := context.Background()
	o := WarmOptions{Dial: dialMCP, Timeout: 20 * time.Second}

	rs, fd := WarmTools(ctx, env, o)
	if got := sources(rs); got["tickets"] != SourceLive || got["down"] != SourceUnverified {
		t.Fatalf("first warm-up sources = %v", got)
	}
	if listCount(t, logs) != 1 {
		t.Errorf("tools/list asked %d times, want 1", listCount(t, logs))
	}
	if len(fd.Diags) != 1 || fd.Diags[0].Rule != RuleToolsUnverified || !strings.Contains(fd.Diags[0].Message, "connector down") {
		t.Fatalf("diagnostics = %v, want one %s for down", fd.Diags, RuleToolsUnverified)
	}
	if pos := ast.NewLineTable(env.Config.Connectors).Position(fd.Diags[0].Range.From); pos.Line != 4 || pos.Column != 3 {
		t.Errorf("info line at connectors.json %d:%d, want 4:3", pos.Line, pos.Column)
	}

	rs, _ = WarmTools(ctx, env, o)
	if got := sources(rs)["tickets"]; got != SourceCache || listCount(t, logs) != 1 {
		t.Errorf("second warm-up: source %s after %d tools/list, want cache after 1", got, listCount(t, logs))
	}
	rs, _ = WarmTools(ctx, env, WarmOptions{Dial: dialMCP, Refresh: true, Connectors: []string{"tickets"}, Timeout: 20 * time.Second})
	if len(rs) != 1 || rs[0].Source != SourceLive || listCount(t, logs) != 2 {
		t.Errorf("refresh: %v after %d tools/list, want one live result after 2", rs, listCount(t, logs))
	}
	rs, fd = WarmTools(ctx, env, WarmOptions{Dial: dialMCP, Offline: true})
	if got := sources(rs); got["tickets"] != SourceCache || got["down"] != SourceUnverified || len(fd.Diags) != 0 || listCount(t, logs) != 2 {
		t.Errorf("offline: %v %v after %d tools/list", got, fd.Diags, listCount(t, logs))
	}
	if _, err := os.Stat(filepath.Join(logs, "call.log")); !os.IsNotExist(err) {
		t.Errorf("the warm-up called a tool (call.log: %v)", err)
	}

	// The lint context sees the discovered schema.
	lenv := env.WithTools(rs)
	_, _, ds := lenv.Check("d.skill.md", []byte("# Skill: d\n# Status: Approved\nt:\n    $ tickets.serch query=\"x\" timeout=10 -> S\n    $ tickets.search limit=1 timeout=10 -> R\ndefault: t\n"))
	rules := map[string]int{}
	for _, d := range ds {
		rules[d.Rule]++
	}
	if rules["unknown-tool-on-connector"] != 1 || rules["missing-required-connector-arg"] != 1 || rules["unverified-qualified-tool"] != 0 {
		t.Errorf("diagnostics with the live tools: %v", ds)
	}
	if env.Lint.Connectors["tickets"].ToolsKnown {
		t.Error("WithTools modified the environment it copied")
	}
}

// TestWarmToolsHungServerTimesOut: a server that never answers initialize
// costs the timeout, then degrades to unverified.
func TestWarmToolsHungServerTimesOut(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep binary")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"connectors.json": `{"slow": {"class": "RemoteMcpConnector", "config": {"command": "sleep", "args": ["30"], "framing": "newline"}}}`})
	env := Load(dir, LoadOptions{ConnectorsPath: filepath.Join(dir, "connectors.json"), Home: t.TempDir(), ToolCacheDir: t.TempDir()})
	rs, fd := WarmTools(context.Background(), env, WarmOptions{Dial: dialMCP, Timeout: 200 * time.Millisecond})
	if len(rs) != 1 || rs[0].Source != SourceUnverified || rs[0].Err == nil || len(fd.Diags) != 1 {
		t.Fatalf("results %v, diagnostics %v", rs, fd.Diags)
	}
}

// BenchmarkWarmTools measures what the warm-up adds to skillc check: with a
// fresh cache entry (the usual case: read one file, no process) and live
// (spawn the Python server, initialize, tools/list, close).
func BenchmarkWarmTools(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 not installed")
	}
	server, _ := filepath.Abs(filepath.Join("testdata", "tickets_mcp.py"))
	dir := b.TempDir()
	src := `{"tickets": {"class": "RemoteMcpConnector", "config": {"command": "python3", "args": ["` + server + `"], "framing": "newline"}}}`
	if err := os.WriteFile(filepath.Join(dir, "connectors.json"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	env := Load(dir, LoadOptions{ConnectorsPath: filepath.Join(dir, "connectors.json"), Home: b.TempDir(), ToolCacheDir: b.TempDir()})
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		o    WarmOptions
		want string
	}{
		{"cached", WarmOptions{Dial: dialMCP, Timeout: 20 * time.Second}, SourceCache},
		{"live", WarmOptions{Dial: dialMCP, Timeout: 20 * time.Second, Refresh: true}, SourceLive},
	} {
		b.Run(bc.name, func(b *testing.B) {
			WarmTools(ctx, env, WarmOptions{Dial: dialMCP, Refresh: true, Timeout: 20 * time.Second}) // fill the cache
			b.ReportAllocs()
			for b.Loop() {
				rs, _ := WarmTools(ctx, env, bc.o)
				if len(rs) != 1 || rs[0].Source != bc.want {
					b.Fatalf("results %v, want source %s", rs, bc.want)
				}
			}
		})
	}
}

// TestWarmToolsLeavesDiscoveredConnectorsAlone: a connectors.json found
// next to the skills (not named by the operator, not in SKILLSCRIPT_HOME)
// is never started by an OperatorOnly warm-up (skillc check, run): cache
// only, one info line. An explicit refresh (skillc tools refresh) still
// asks.
func TestWarmToolsLeavesDiscoveredConnectorsAlone(t *testing.T) {
	server := pythonServer(t)
	dir, logs := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{"connectors.json": `{"tickets": {"class": "RemoteMcpConnector", "config": {"command": "python3", "args": ["` + server + `"], "framing": "newline",
    "env": {"LIST_LOG": "` + filepath.Join(logs, "list.log") + `"}}}}`})
	env := Load(dir, LoadOptions{Home: t.TempDir(), ToolCacheDir: t.TempDir()})
	if env.Config.ConnectorsPath == "" || env.ConnectorsTrusted {
		t.Fatalf("connectors %q trusted=%v, want the discovered file, untrusted", env.Config.ConnectorsPath, env.ConnectorsTrusted)
	}
	rs, fd := WarmTools(context.Background(), env, WarmOptions{Dial: dialMCP, Timeout: 20 * time.Second, OperatorOnly: true})
	if len(rs) != 1 || rs[0].Source != SourceUnverified || listCount(t, logs) != 0 {
		t.Fatalf("results %v after %d tools/list, want unverified without asking", rs, listCount(t, logs))
	}
	if len(fd.Diags) != 1 || fd.Diags[0].Rule != RuleToolsUnverified || !strings.Contains(fd.Diags[0].Message, "not given by the operator") {
		t.Fatalf("diagnostics %v", fd.Diags)
	}
	rs, _ = WarmTools(context.Background(), env, WarmOptions{Dial: dialMCP, Timeout: 20 * time.Second, Refresh: true, OperatorOnly: true})
	if len(rs) != 1 || rs[0].Source != SourceLive || listCount(t, logs) != 1 {
		t.Fatalf("refresh: %v after %d tools/list", rs, listCount(t, logs))
	}
	if rs, _ = WarmTools(context.Background(), env, WarmOptions{Dial: dialMCP, OperatorOnly: true}); rs[0].Source != SourceCache {
		t.Errorf("after the refresh the cache answers: %v", rs)
	}
}

// TestWarmToolsWithoutDialer: a warm-up given no MCP client asks nothing
// and says so on each connector, rather than pretending to have checked.
func TestWarmToolsWithoutDialer(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"connectors.json": `{"srv": {"class": "RemoteMcpConnector", "config": {"command": "no-such-mcp-server-skillc", "framing": "newline"}}}`})
	env := Load(dir, LoadOptions{Home: t.TempDir(), ToolCacheDir: t.TempDir()})
	rs, fd := WarmTools(context.Background(), env, WarmOptions{})
	if len(rs) != 1 || rs[0].Source != SourceUnverified || rs[0].Err == nil {
		t.Fatalf("results %v, want one unverified with an error", rs)
	}
	if len(fd.Diags) != 1 || !strings.Contains(fd.Diags[0].Message, "no MCP client") {
		t.Fatalf("diagnostics %v, want one saying no MCP client was given", fd.Diags)
	}
}
