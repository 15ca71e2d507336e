package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// requireTool finds a program for a real-editor test: it is skipped when
// the program is missing, unless CI is set, where that is a failure.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required when CI is set: %v", name, err)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

// builtServer builds `skillc lsp` once per test binary.
type builtServer struct {
	once      sync.Once
	bin, args string
	err       error
}

func (b *builtServer) get(t *testing.T) (string, string) {
	t.Helper()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "skillc-lsp-bin")
		if err != nil {
			b.err = err
			return
		}
		skillc := filepath.Join(dir, "skillc")
		build := exec.Command("go", "build", "-o", skillc, "../cmd/skillc")
		if out, err := build.CombinedOutput(); err != nil {
			b.err = err
			t.Logf("cmd/skillc does not build: %s", out)
			return
		}
		b.bin, b.args = skillc, "lsp"
	})
	if b.err != nil {
		t.Fatalf("building the server: %v", b.err)
	}
	return b.bin, b.args
}

// editorServer is shared by the editor tests of this package.
func editorServer(t *testing.T) (string, string) {
	return sharedServer.get(t)
}

func TestNeovimSession(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	nvim := requireTool(t, "nvim")
	bin, args := editorServer(t)
	ws := workspaceCopy(t)
	script, _ := filepath.Abs(filepath.Join("..", "editors", "nvim", "test", "lsp_session.lua"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "SKILLC_LSP_BIN="+bin, "SKILLC_LSP_ARGS="+args, "SKILLC_LSP_WORKSPACE="+ws,
		"HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	cmd.Dir = ws
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: neovim session passed") {
		t.Fatalf("neovim session failed: %v\n%s", err, out)
	}
}

func TestNodeClientSession(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	node := requireTool(t, "node")
	dir, _ := filepath.Abs(filepath.Join("..", "editors", "vscode", "test", "client"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-languageserver-protocol")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("run npm ci in %s: %v", dir, err)
		}
		t.Skip("node client dependencies not installed (npm ci)")
	}
	bin, args := editorServer(t)
	ws := workspaceCopy(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "lsp_client.test.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SKILLC_LSP_BIN="+bin, "SKILLC_LSP_ARGS="+args, "SKILLC_LSP_WORKSPACE="+ws)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: node client session passed") {
		t.Fatalf("node client session failed: %v\n%s", err, out)
	}
}

// TestNeovimRealSession runs the assertions of the real VS Code test
// (editors/realvscode) in headless Neovim: diagnostic positions, a quick
// fix, cross-file definition, tool completion from a live MCP server, and
// the types its search tool's outputSchema gives (a finding, field
// completion, hover, an inlay hint).
func TestNeovimRealSession(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	nvim := requireTool(t, "nvim")
	bin, _ := editorServer(t)
	srv, err := mcpTestServer()
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	src := filepath.Join("..", "editors", "realvscode", "workspace")
	for _, name := range []string{"broken.skill.md", "ok.skill.md"} {
		writeFile(t, ws, name, read(t, src, name))
	}
	writeFile(t, ws, "connectors.json", `{"srv": {"class": "RemoteMcpConnector", "config": {"command": "`+srv+`", "framing": "newline"}}}`)
	script, _ := filepath.Abs(filepath.Join("..", "editors", "nvim", "test", "real_session.lua"))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "SKILLC_LSP_BIN="+bin, "SKILLC_LSP_WORKSPACE="+ws,
		"HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "SKILLSCRIPT_HOME="+t.TempDir())
	cmd.Dir = ws
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !strings.Contains(string(out), "ok: neovim real session passed") {
		t.Fatalf("neovim real session failed: %v\n%s", err, out)
	}
}

// TestNeovimCapabilitiesSession runs editors/nvim/test/caps_session.lua:
// headless Neovim against the real server for selection range, document
// highlight, signature help in an unclosed call, linked editing, range
// formatting applied to the buffer and the server-side skillc.run.
func TestNeovimCapabilitiesSession(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	nvim := requireTool(t, "nvim")
	bin, _ := editorServer(t)
	ws := t.TempDir()
	writeFile(t, ws, "caps.skill.md", read(t, filepath.Join("..", "editors", "nvim", "test", "sessions"), "caps.skill.md"))
	script, _ := filepath.Abs(filepath.Join("..", "editors", "nvim", "test", "caps_session.lua"))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "SKILLC_LSP_BIN="+bin, "SKILLC_LSP_WORKSPACE="+ws,
		"HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "SKILLSCRIPT_HOME="+t.TempDir())
	cmd.Dir = ws
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !strings.Contains(string(out), "ok: neovim capabilities session passed") {
		t.Fatalf("neovim capabilities session failed: %v\n%s", err, out)
	}
}
