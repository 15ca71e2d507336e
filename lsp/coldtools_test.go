package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// TestColdToolCompletionIncomplete runs `skillc lsp` against a real MCP
// server that does not answer until the test opens a gate: while the
// tools are warming up, completion after "$ srv." and "$ srv.echo "
// answers isIncomplete: true (an editor asks again), other completions
// are complete; when the tools arrive the server asks the client to
// refresh its diagnostics and semantic tokens, and completion lists them
// as complete.
func TestColdToolCompletionIncomplete(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc and the MCP test server")
	}
	srv, err := mcpTestServer()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gate := filepath.Join(dir, "gate")
	wrapper := filepath.Join(dir, "gated-mcp.sh")
	writeFile(t, dir, "gated-mcp.sh", "#!/bin/sh\nwhile [ ! -f '"+gate+"' ]; do sleep 0.05; done\nexec '"+srv+"'\n")
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	conns, _ := json.Marshal(map[string]any{"srv": map[string]any{"class": "RemoteMcpConnector",
		"config": map[string]any{"command": wrapper, "framing": "newline"}}})
	writeFile(t, dir, "connectors.json", string(conns))
	text := "# Skill: tools\n# Status: Draft\n# Timeout: 30\n\nrun:\n    emit(text=\"x\")\n    $ srv.\n    $ srv.echo \n\ndefault: run\n"
	writeFile(t, dir, "tools.skill.md", text)
	u := string(uri.File(filepath.Join(dir, "tools.skill.md")))
	c := startExt(t, dir, nil)
	c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": string(uri.File(dir)),
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"semanticTokens": map[string]any{"refreshSupport": true},
				"diagnostics":    map[string]any{"refreshSupport": true},
			},
			"textDocument": map[string]any{"diagnostic": map[string]any{}},
		},
	})
	c.notify("initialized", map[string]any{})
	c.open(u, text)
	type list struct {
		IsIncomplete bool `json:"isIncomplete"`
		Items        []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	complete := func(line, char int) (list, string) {
		r := c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u},
			"position": map[string]any{"line": line, "character": char}})
		var l list
		if err := json.Unmarshal(r.Result, &l); err != nil {
			t.Fatalf("completion result %s: %v", r.Result, err)
		}
		return l, string(r.Result)
	}
	cold, raw := complete(6, 10)
	t.Logf("cold completion after \"$ srv.\": %s", raw)
	if !cold.IsIncomplete || strings.Contains(raw, `"label":"echo"`) {
		t.Fatalf("cold tool completion = %s, want isIncomplete true without tools", raw)
	}
	if args, raw := complete(7, 15); !args.IsIncomplete {
		t.Errorf("cold argument completion = %s, want isIncomplete true", raw)
	}
	if ops, raw := complete(5, 4); ops.IsIncomplete || len(ops.Items) == 0 {
		t.Errorf("op completion during the warm-up = %s, want complete", raw)
	}
	if got := c.messagesOf("workspace/semanticTokens/refresh"); len(got) != 0 {
		t.Errorf("semantic tokens refresh before the tools arrived")
	}
	writeFile(t, dir, "gate", "open")
	var warm list
	waitFor(t, "the echo tool in a complete list", func() bool {
		warm, raw = complete(6, 10)
		return strings.Contains(raw, `"label":"echo"`) && !warm.IsIncomplete
	})
	t.Logf("warm completion after \"$ srv.\": isIncomplete=%v items=%d", warm.IsIncomplete, len(warm.Items))
	waitFor(t, "workspace/semanticTokens/refresh and workspace/diagnostic/refresh", func() bool {
		return len(c.messagesOf("workspace/semanticTokens/refresh")) > 0 && len(c.messagesOf("workspace/diagnostic/refresh")) > 0
	})
	if args, raw := complete(7, 15); args.IsIncomplete || !strings.Contains(raw, `"label":"text"`) {
		t.Errorf("argument completion after the warm-up = %s", raw)
	}
}
