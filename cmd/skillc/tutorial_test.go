package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tutorialDoc is the tutorial TestGettingStarted runs.
const tutorialDoc = "../../docs/getting-started.md"

// tutorialStep is one checked step of the tutorial, in document order.
type tutorialStep struct {
	line int // 1-based line in the document
	// file: write content to path (relative to the tutorial directory).
	path, content string
	// command: run it with sh in the tutorial directory; want is the
	// combined stdout and stderr, status the exit status.
	command, want string
	status        int
	// completion: ask the language server for completions at pos
	// (1-based line:column) of path; labels are the expected items.
	pos    string
	labels []string
}

var (
	fileMarker       = regexp.MustCompile(`^<!-- file: (\S+) -->$`)
	completionMarker = regexp.MustCompile(`^<!-- completion: (\S+) (\d+:\d+) -->$`)
	exitLine         = regexp.MustCompile(`^\[exit status (\d+)\]$`)
)

// parseTutorial extracts the steps of the tutorial: a fenced block after a
// "<!-- file: PATH -->" comment is written to PATH; a ```console block
// holds "$ command" lines, each followed by its expected output (and a
// last line "[exit status N]" when it fails); a fenced block after a
// "<!-- completion: PATH LINE:COL -->" comment lists the labels the
// language server offers there. Other blocks (installation, prose
// examples) are not run.
func parseTutorial(t *testing.T, doc string) []tutorialStep {
	var steps []tutorialStep
	lines := strings.Split(doc, "\n")
	var pendingFile, pendingCompletion []string
	pendingLine := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := fileMarker.FindStringSubmatch(l); m != nil {
			pendingFile, pendingLine = m, i+1
			continue
		}
		if m := completionMarker.FindStringSubmatch(l); m != nil {
			pendingCompletion, pendingLine = m, i+1
			continue
		}
		if !strings.HasPrefix(l, "```") {
			continue
		}
		info := strings.TrimPrefix(l, "```")
		start := i + 1
		for i++; i < len(lines) && lines[i] != "```"; i++ {
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: unterminated code block", tutorialDoc, start)
		}
		body := lines[start:i]
		switch {
		case pendingFile != nil:
			steps = append(steps, tutorialStep{line: pendingLine, path: pendingFile[1], content: strings.Join(body, "\n") + "\n"})
			pendingFile = nil
		case pendingCompletion != nil:
			steps = append(steps, tutorialStep{line: pendingLine, path: pendingCompletion[1], pos: pendingCompletion[2], labels: body})
			pendingCompletion = nil
		case info == "console":
			steps = append(steps, consoleSteps(t, start, body)...)
		}
	}
	return steps
}

// consoleSteps splits a console block into commands and their output.
func consoleSteps(t *testing.T, start int, body []string) []tutorialStep {
	var steps []tutorialStep
	for j, l := range body {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			steps = append(steps, tutorialStep{line: start + j + 1, command: cmd})
			continue
		}
		if len(steps) == 0 {
			t.Fatalf("%s:%d: output before the first command of a console block", tutorialDoc, start+j+1)
		}
		s := &steps[len(steps)-1]
		if m := exitLine.FindStringSubmatch(l); m != nil {
			s.status, _ = strconv.Atoi(m[1])
			continue
		}
		s.want += l + "\n"
	}
	return steps
}

// TestGettingStarted runs docs/getting-started.md: it writes each file the
// tutorial creates, runs each shown command with sh (skillc is the CLI
// under test; mcp-demo is the MCP test server, built here) and compares
// its output and exit status with the page, then asks a real `skillc lsp`
// for the completions the page shows.
func TestGettingStarted(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	doc, err := os.ReadFile(tutorialDoc)
	if err != nil {
		t.Fatal(err)
	}
	steps := parseTutorial(t, string(doc))
	if len(steps) < 15 {
		t.Fatalf("found %d steps in %s; the markers are not being read", len(steps), tutorialDoc)
	}
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "mcp-demo"), "../../eval/substrate/mcp/internal/testserver/cmd/mcptestserver").CombinedOutput(); err != nil {
		t.Fatalf("building the MCP test server: %v\n%s", err, out)
	}
	dir := filepath.Join(root, "skills-tutorial")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := tutorialEnv(root, dir, bin)
	for _, s := range steps {
		switch {
		case s.command != "":
			cmd := exec.Command("sh", "-c", s.command)
			cmd.Dir, cmd.Env = dir, env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			status := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatalf("%s:%d: %s: %v", tutorialDoc, s.line, s.command, err)
				}
				status = ee.ExitCode()
			}
			if d := cmp.Diff(s.want, out.String()); d != "" {
				t.Errorf("%s:%d: $ %s: output differs from the page (-page +actual):\n%s", tutorialDoc, s.line, s.command, d)
			}
			if status != s.status {
				t.Errorf("%s:%d: $ %s: exit status %d, the page says %d", tutorialDoc, s.line, s.command, status, s.status)
			}
		case s.pos != "":
			got := lspCompletions(t, dir, env, s.path, s.pos)
			if d := cmp.Diff(s.labels, got); d != "" {
				t.Errorf("%s:%d: completions at %s %s differ from the page (-page +actual):\n%s", tutorialDoc, s.line, s.path, s.pos, d)
			}
		default:
			p := filepath.Join(dir, s.path)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(s.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// tutorialEnv is the environment of the tutorial's commands: the reader's
// set-up (SKILLSCRIPT_HOME inside the tutorial directory), no colour, and
// nothing of the machine's own skillc configuration.
func tutorialEnv(root, dir, bin string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SKILLSCRIPT_") || strings.HasPrefix(kv, "FORCE_COLOR=") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "PATH=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+root, "NO_COLOR=1",
		"SKILLSCRIPT_HOME="+filepath.Join(dir, ".skillscript"),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// lspCompletions starts `skillc lsp` in dir, opens path and returns the
// labels of the completion items at pos (1-based line:column), sorted. The
// server warms its tool lists in the background, so the request is
// repeated until it offers items (at most 20 s).
func lspCompletions(t *testing.T, dir string, env []string, path, pos string) []string {
	t.Helper()
	var line, col int
	fmt.Sscanf(pos, "%d:%d", &line, &col)
	src, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("skillc", "lsp")
	cmd.Dir, cmd.Env = dir, env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	c := &lspClient{w: stdin, r: bufio.NewReader(stdout)}
	abs, _ := filepath.Abs(dir)
	docURI := (&url.URL{Scheme: "file", Path: filepath.Join(abs, path)}).String()
	rootURI := (&url.URL{Scheme: "file", Path: abs}).String()
	if _, err := c.call("initialize", map[string]any{"processId": nil, "rootUri": rootURI, "capabilities": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": docURI, "languageId": "skillscript", "version": 1, "text": string(src)}})
	params := map[string]any{"textDocument": map[string]any{"uri": docURI}, "position": map[string]any{"line": line - 1, "character": col - 1}}
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := c.call("textDocument/completion", params)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Items []struct {
				Label string `json:"label"`
			} `json:"items"`
		}
		if err := json.Unmarshal(res, &list); err != nil {
			var items []struct {
				Label string `json:"label"`
			}
			if json.Unmarshal(res, &items) == nil {
				list.Items = items
			}
		}
		var labels []string
		for _, it := range list.Items {
			labels = append(labels, it.Label)
		}
		sort.Strings(labels)
		if len(labels) > 0 || time.Now().After(deadline) {
			return labels
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// lspClient speaks just enough JSON-RPC over the LSP framing for the
// tutorial: calls, notifications, and empty answers to server requests.
type lspClient struct {
	w    io.Writer
	r    *bufio.Reader
	next int
}

func (c *lspClient) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (c *lspClient) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

func (c *lspClient) call(method string, params any) (json.RawMessage, error) {
	c.next++
	id := c.next
	c.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		msg, err := c.read()
		if err != nil {
			return nil, err
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(msg, &m); err != nil {
			return nil, err
		}
		switch {
		case m.Method != "" && m.ID != nil: // a request from the server
			var result any
			if m.Method == "workspace/configuration" {
				var p struct {
					Items []any `json:"items"`
				}
				json.Unmarshal(m.Params, &p)
				result = make([]any, len(p.Items))
			}
			c.send(map[string]any{"id": m.ID, "result": result})
		case m.Method != "": // a notification
		case string(m.ID) == strconv.Itoa(id):
			if m.Error != nil {
				return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
			}
			return m.Result, nil
		}
	}
}

func (c *lspClient) read() ([]byte, error) {
	n := -1
	for {
		l, err := c.r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		l = strings.TrimRight(l, "\r\n")
		if l == "" {
			break
		}
		if v, ok := strings.CutPrefix(l, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("frame without Content-Length")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(c.r, b)
	return b, err
}

var (
	// mdLink matches the target of a Markdown link.
	mdLink       = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)\s]*)?\)`)
	fencedBlocks = regexp.MustCompile("(?ms)^\\s*```.*?^\\s*```")
	codeSpans    = regexp.MustCompile("`[^`\n]*`")
)

// TestDocLinks checks that every relative link in the README and the pages
// under docs/ names a file that exists.
func TestDocLinks(t *testing.T) {
	pages, _ := filepath.Glob("../../docs/*.md")
	pages = append(pages, "../../README.md")
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		// links inside code (examples of skill packages) are not links
		text := codeSpans.ReplaceAllString(fencedBlocks.ReplaceAllString(string(b), ""), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), target)); err != nil {
				t.Errorf("%s: link to %s: %v", page, target, err)
			}
		}
	}
}
