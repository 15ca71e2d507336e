package lsp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/uri"
)

// mcpTestServer builds the MCP test server command once per test process.
var mcpTestServer = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mcptestserver")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcptestserver")
	out, err := exec.Command("go", "build", "-o", bin, "../eval/substrate/mcp/internal/testserver/cmd/mcptestserver").CombinedOutput()
	if err != nil {
		return "", err
	}
	_ = out
	return bin, nil
})

// waitFor polls f until it reports true or 30 s pass.
func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// messagesOf returns the bodies of the notifications or requests named
// method that the server sent.
func (c *extClient) messagesOf(method string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, m := range c.messages {
		if m.Method == method {
			out = append(out, string(m.Params))
		}
	}
	return out
}

// TestToolSchemasOutOfTheBox runs `skillc lsp` in a workspace whose
// connectors.json wires a real MCP server process (and nothing cached):
// the server warms tools/list in the background with $/progress, after
// which completion offers the tools and their arguments from the input
// schema, hover shows the schema and the schema rules run.
func TestToolSchemasOutOfTheBox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc and the MCP test server")
	}
	srv, err := mcpTestServer()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	conns, _ := json.Marshal(map[string]any{"srv": map[string]any{"class": "RemoteMcpConnector",
		"config": map[string]any{"command": srv, "framing": "newline"}}})
	writeFile(t, dir, "connectors.json", string(conns))
	text := "# Skill: tools\n# Status: Draft\n# Timeout: 30\n\nrun:\n    $ srv.echo bogus=\"x\" -> R\n    $ srv.\n    $ srv.echo \n\ndefault: run\n"
	path := filepath.Join(dir, "tools.skill.md")
	writeFile(t, dir, "tools.skill.md", text)
	c := startExt(t, dir, nil)
	c.initialize(dir)
	u := string(uri.File(path))
	c.open(u, text)
	c.waitVersion(u, 1)
	// completion after "$ srv." (line 6) and "$ srv.echo " (line 7)
	complete := func(line, char int) string {
		r := c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u},
			"position": map[string]any{"line": line, "character": char}})
		return string(r.Result)
	}
	waitFor(t, "the echo tool in completion", func() bool { return strings.Contains(complete(6, 10), `"label":"echo"`) })
	args := complete(7, 15)
	if !strings.Contains(args, `"label":"text"`) || !strings.Contains(args, "text to echo") {
		t.Errorf("argument completion after \"$ srv.echo \" = %s", args)
	}
	hover := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": map[string]any{"line": 5, "character": 11}})
	if !strings.Contains(string(hover.Result), "text") || !strings.Contains(string(hover.Result), "echo") {
		t.Errorf("hover on srv.echo = %s", hover.Result)
	}
	// the schema rules flag the unknown argument once the tools are known
	waitFor(t, "unknown-connector-arg", func() bool {
		d := c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}})
		return strings.Contains(string(d.Result), "unknown-connector-arg")
	})
	progress := strings.Join(c.messagesOf("$/progress"), "\n")
	if !strings.Contains(progress, `"kind":"begin"`) || !strings.Contains(progress, `"kind":"end"`) {
		t.Errorf("$/progress = %s", progress)
	}
}

// TestInvalidConnectorsShowMessage checks that a broken connectors.json
// is shown to the user, not only hidden behind "not wired" diagnostics.
func TestInvalidConnectorsShowMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc")
	}
	dir := t.TempDir()
	writeFile(t, dir, "connectors.json", "{\"srv\": {\"class\": \"RemoteMcpConnector\", \"config\": {}")
	c := startExt(t, dir, nil)
	c.initialize(dir)
	waitFor(t, "window/showMessage", func() bool {
		for _, m := range c.messagesOf("window/showMessage") {
			if strings.Contains(m, "connectors.json") && strings.Contains(m, `"type":1`) {
				return true
			}
		}
		return false
	})
}

// TestUnreachableConnectorShowMessage: a wired MCP server that cannot be
// started is shown once with window/showMessage (a warning), and the
// background warm-up still ends its $/progress.
func TestUnreachableConnectorShowMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc")
	}
	dir := t.TempDir()
	writeFile(t, dir, "connectors.json", `{"down": {"class": "RemoteMcpConnector", "config": {"command": "no-such-mcp-server-skillc", "framing": "newline"}}}`)
	c := startExt(t, dir, nil)
	c.initialize(dir)
	waitFor(t, "a warning about connector down", func() bool {
		for _, m := range c.messagesOf("window/showMessage") {
			if strings.Contains(m, "connector down: cannot list its tools") && strings.Contains(m, `"type":2`) {
				return true
			}
		}
		return false
	})
	waitFor(t, "the end of the warm-up's progress", func() bool {
		return strings.Contains(strings.Join(c.messagesOf("$/progress"), "\n"), `"kind":"end"`)
	})
}
