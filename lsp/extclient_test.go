package lsp

// An LSP client outside the server process: the benchmarks here start
// `skillc lsp` as a child process and speak the protocol over its stdio,
// so what they measure is what an editor sees (framing, JSON, scheduling
// and the server's own CPU and memory).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/uri"
)

// skillcBinary builds cmd/skillc once per test process.
var skillcBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "skillc-lspbench")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "skillc")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/skillc").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// extMsg is one incoming JSON-RPC message.
type extMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// extClient drives one `skillc lsp` process.
type extClient struct {
	tb     testing.TB
	cmd    *exec.Cmd
	in     io.WriteCloser
	wmu    sync.Mutex
	nextID int

	mu       sync.Mutex
	cond     *sync.Cond
	diags    map[string]int32 // uri -> newest published version
	diagN    map[string]int   // uri -> number of publications
	diagAt   map[string]time.Time
	firstAt  map[string]map[int32]time.Time // uri -> version -> its first publication
	replies  map[int]extMsg
	messages []extMsg // notifications other than diagnostics

	// onDiags (under mu), when set, sees the params of every
	// publishDiagnostics with the time it arrived (on the reading
	// goroutine, called outside mu).
	onDiags func(params json.RawMessage, at time.Time)
}

// startExt starts `skillc lsp args...` in dir with the extra environment.
func startExt(tb testing.TB, dir string, env []string, args ...string) *extClient {
	tb.Helper()
	bin, err := skillcBinary()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"lsp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SKILLSCRIPT_HOME="+filepath.Join(dir, ".home")), env...)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	c := &extClient{tb: tb, cmd: cmd, in: in, diags: map[string]int32{}, diagN: map[string]int{},
		diagAt: map[string]time.Time{}, firstAt: map[string]map[int32]time.Time{}, replies: map[int]extMsg{}}
	c.cond = sync.NewCond(&c.mu)
	go c.read(bufio.NewReaderSize(out, 1<<16))
	tb.Cleanup(func() {
		_ = in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return c
}

// read consumes the server's frames.
func (c *extClient) read(r *bufio.Reader) {
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				c.cond.Broadcast()
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		c.dispatch(body)
	}
}

// dispatch records one message and answers server-to-client requests.
func (c *extClient) dispatch(body []byte) {
	var m extMsg
	if json.Unmarshal(body, &m) != nil {
		return
	}
	if m.Method != "" && len(m.ID) > 0 {
		c.answer(m)
		return
	}
	now := time.Now()
	c.mu.Lock()
	hook := c.onDiags
	c.mu.Unlock()
	if hook != nil && m.Method == "textDocument/publishDiagnostics" {
		hook(m.Params, now)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.cond.Broadcast()
	switch {
	case m.Method == "textDocument/publishDiagnostics":
		var p struct {
			URI     string `json:"uri"`
			Version int32  `json:"version"`
		}
		_ = json.Unmarshal(m.Params, &p)
		c.diags[p.URI] = p.Version
		c.diagN[p.URI]++
		c.diagAt[p.URI] = now
		if c.firstAt[p.URI] == nil {
			c.firstAt[p.URI] = map[int32]time.Time{}
		}
		if _, ok := c.firstAt[p.URI][p.Version]; !ok {
			c.firstAt[p.URI][p.Version] = now
		}
	case m.Method != "":
		c.messages = append(c.messages, m)
	default:
		id, _ := strconv.Atoi(string(m.ID))
		c.replies[id] = m
	}
}

// answer replies to a server request: null, or one null per item asked of
// workspace/configuration.
func (c *extClient) answer(m extMsg) {
	var result any
	if m.Method == "workspace/configuration" {
		var p struct{ Items []any }
		_ = json.Unmarshal(m.Params, &p)
		result = make([]any, len(p.Items))
	}
	c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	c.mu.Lock()
	c.messages = append(c.messages, m)
	c.mu.Unlock()
	c.cond.Broadcast()
}

// send writes one frame.
func (c *extClient) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.tb.Fatal(err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

// notify sends a notification.
func (c *extClient) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its reply.
func (c *extClient) call(method string, params any) extMsg {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	c.mu.Lock()
	defer c.mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m, ok := c.replies[id]; ok {
			delete(c.replies, id)
			return m
		}
		if time.Now().After(deadline) {
			c.tb.Fatalf("no reply to %s", method)
		}
		c.waitLocked()
	}
}

// waitLocked waits for the next message (or 50 ms).
func (c *extClient) waitLocked() {
	t := time.AfterFunc(50*time.Millisecond, c.cond.Broadcast)
	c.cond.Wait()
	t.Stop()
}

// initialize runs the handshake with root as the only folder.
func (c *extClient) initialize(root string) extMsg {
	r := c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": string(uri.File(root)),
		"workspaceFolders": []any{map[string]any{"uri": string(uri.File(root)), "name": "ws"}},
		"capabilities": map[string]any{
			"workspace": map[string]any{"configuration": true, "didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
			"window":    map[string]any{"workDoneProgress": true},
		},
	})
	c.notify("initialized", map[string]any{})
	return r
}

// open opens a document.
func (c *extClient) open(u, text string) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "skillscript", "version": 1, "text": text}})
}

// insert sends an incremental one-range edit.
func (c *extClient) insert(u string, version int32, line, char int, text string, del int) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": version},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": line, "character": char},
				"end": map[string]any{"line": line, "character": char + del}},
			"text": text}},
	})
}

// waitVersion waits until diagnostics for version v of u arrive and
// returns when they did.
func (c *extClient) waitVersion(u string, v int32) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	deadline := time.Now().Add(60 * time.Second)
	for c.diags[u] < v {
		if time.Now().After(deadline) {
			c.tb.Fatalf("no diagnostics for %s version %d (have %d)", u, v, c.diags[u])
		}
		c.waitLocked()
	}
	return c.diagAt[u]
}

// waitCount waits until u has had n publications and returns when the
// last arrived.
func (c *extClient) waitCount(u string, n int) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	deadline := time.Now().Add(60 * time.Second)
	for c.diagN[u] < n {
		if time.Now().After(deadline) {
			c.tb.Fatalf("%s: %d publications, want %d", u, c.diagN[u], n)
		}
		c.waitLocked()
	}
	return c.diagAt[u]
}

// publications returns the number of publications so far per URI.
func (c *extClient) publications() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.diagN))
	for k, v := range c.diagN {
		out[k] = v
	}
	return out
}

// procStat returns the process's CPU time and resident memory.
func procStat(tb testing.TB, pid int) (cpu time.Duration, rssKB int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Skipf("no /proc: %v", err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	cpu = time.Duration(ut+st) * 10 * time.Millisecond
	s, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(s), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			rssKB, _ = strconv.Atoi(strings.Fields(v)[0])
		}
	}
	return cpu, rssKB
}

// realisticSkill writes a valid skill of about n lines named name: many
// targets with dependencies, nested blocks, an MCP connector call, calls
// of other workspace skills and filters.
func realisticSkill(name string, n, others int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Skill: %s\n# Description: Use when the benchmark needs a realistic skill.\n# Status: Draft\n# Vars: PROJECT=\"INFRA\", LIMIT=5\n# Output: text\n# Timeout: 60\n\n", name)
	lines, t := 7, 0
	for lines < n-2 {
		dep := ""
		if t > 0 {
			dep = fmt.Sprintf(" t%d", t-1)
		}
		fmt.Fprintf(&b, "t%d:%s\n", t, dep)
		fmt.Fprintf(&b, "    $ echo.say text=\"part %d of ${PROJECT}\" -> R%d\n", t, t)
		fmt.Fprintf(&b, "    $set A%d = \"value %d ${PROJECT}\"\n", t, t)
		fmt.Fprintf(&b, "    if ${A%d} == \"value %d INFRA\":\n", t, t)
		fmt.Fprintf(&b, "        foreach I%d in [\"a\", \"b\", \"c\"]:\n", t)
		fmt.Fprintf(&b, "            emit(text=\"${I%d} ${R%d|trim}\")\n", t, t)
		fmt.Fprintf(&b, "    else:\n")
		fmt.Fprintf(&b, "        $set B%d = \"no\"\n", t)
		fmt.Fprintf(&b, "        emit(text=\"${B%d|length}\")\n", t)
		if others > 0 {
			fmt.Fprintf(&b, "    execute_skill(name=\"other%d\", inputs={TOPIC: \"${A%d}\"}) -> H%d\n", t%others, t, t)
			fmt.Fprintf(&b, "    emit(text=\"${H%d}\")\n", t)
			lines += 2
		}
		b.WriteString("\n")
		lines += 10
		t++
	}
	fmt.Fprintf(&b, "default: t%d\n", t-1)
	return b.String()
}

// otherSkill is a small workspace skill called by the realistic ones.
func otherSkill(i int) string {
	return fmt.Sprintf("# Skill: other%d\n# Description: Use when another skill needs help %d.\n# Status: Draft\n# Vars: TOPIC\n# Returns: ANSWER\n# Timeout: 30\n\nrun:\n    $ llm prompt=\"Answer about ${TOPIC}\" -> ANSWER\n\ndefault: run\n", i, i)
}

// benchWorkspace writes a workspace: connectors.json wiring the echo MCP
// server and `others` small skills.
func benchWorkspace(tb testing.TB, others int) string {
	dir := tb.TempDir()
	conns := `{"echo": {"class": "HttpMcpConnector", "config": {"endpoint": "http://127.0.0.1:9/mcp"},
  "tools": [{"name": "say", "description": "Echoes text.", "inputSchema": {"type": "object",
    "properties": {"text": {"type": "string", "description": "Text to echo."}}, "required": ["text"]}}]}}`
	must(tb, os.WriteFile(filepath.Join(dir, "connectors.json"), []byte(conns), 0o644))
	for i := 0; i < others; i++ {
		must(tb, os.WriteFile(filepath.Join(dir, fmt.Sprintf("other%d.skill.md", i)), []byte(otherSkill(i)), 0o644))
	}
	return dir
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// percentile returns the p-th percentile of ds (sorted in place).
func percentile(ds []time.Duration, p float64) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	i := int(float64(len(ds)-1) * p)
	return ds[i]
}

// benchExtEdits opens an n-line skill from disk in a workspace of 50 other
// skills and measures 200 one-character incremental edits inside target
// bodies: didChange → first publishDiagnostics of the edited version.
func benchExtEdits(b *testing.B, n int, args ...string) {
	dir := benchWorkspace(b, 50)
	text := realisticSkill("main", n, 50)
	path := filepath.Join(dir, "main.skill.md")
	must(b, os.WriteFile(path, []byte(text), 0o644))
	lines := strings.Split(text, "\n")
	var editLines []int // lines of `$set A.. = "value ..."` statements
	for i, l := range lines {
		if strings.HasPrefix(l, "    $set A") {
			editLines = append(editLines, i)
		}
	}
	for i := 0; i < b.N; i++ {
		c := startExt(b, dir, nil, args...)
		c.initialize(dir)
		u := string(uri.File(path))
		c.open(u, text)
		c.waitVersion(u, 1)
		cpu0, _ := procStat(b, c.cmd.Process.Pid)
		const edits = 200
		lat := make([]time.Duration, 0, edits)
		for e := 0; e < edits; e++ {
			v := int32(e + 2)
			ln := editLines[(e*7)%len(editLines)]
			col := strings.Index(lines[ln], "\"value ") + 7
			start := time.Now()
			if e%2 == 0 {
				c.insert(u, v, ln, col, "x", 0)
			} else {
				c.insert(u, v, ln, col, "", 1)
			}
			at := c.waitVersion(u, v)
			lat = append(lat, at.Sub(start))
		}
		time.Sleep(200 * time.Millisecond) // let trailing full checks finish
		cpu1, rss := procStat(b, c.cmd.Process.Pid)
		// the full analysis after an isolated edit: the second publication
		// of the version (the first is the quick one)
		var full []time.Duration
		for e := 0; e < 20; e++ {
			v := int32(edits + 2 + e)
			ln := editLines[(e*13)%len(editLines)]
			col := strings.Index(lines[ln], "\"value ") + 7
			before := c.publications()[u]
			start := time.Now()
			if e%2 == 0 {
				c.insert(u, v, ln, col, "x", 0)
			} else {
				c.insert(u, v, ln, col, "", 1)
			}
			full = append(full, c.waitCount(u, before+2).Sub(start))
		}
		b.ReportMetric(float64(percentile(lat, 0.5).Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(percentile(lat, 0.99).Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/edits, "cpu-ms/edit")
		b.ReportMetric(float64(rss)/1024, "rss-MiB")
		b.ReportMetric(float64(percentile(full, 0.5).Microseconds())/1000, "full-p50-ms")
		b.ReportMetric(float64(percentile(full, 0.9).Microseconds())/1000, "full-p90-ms")
	}
}

func BenchmarkExtEdit1000(b *testing.B)        { benchExtEdits(b, 1000, "--debounce", "0") }
func BenchmarkExtEdit5000(b *testing.B)        { benchExtEdits(b, 5000, "--debounce", "0") }
func BenchmarkExtEdit1000Default(b *testing.B) { benchExtEdits(b, 1000) }
func BenchmarkExtEdit5000Default(b *testing.B) { benchExtEdits(b, 5000) }

// BenchmarkExtOpen200 opens 200 distinct 1,000-line skills (files in the
// workspace) and reports the server's resident memory once all are
// checked, the re-checks the opens caused and the server CPU they took.
func BenchmarkExtOpen200(b *testing.B) {
	dir := benchWorkspace(b, 50)
	const docs = 200
	texts := make([]string, docs)
	for d := 0; d < docs; d++ {
		texts[d] = realisticSkill(fmt.Sprintf("doc%d", d), 1000, 50)
		must(b, os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc%d.skill.md", d)), []byte(texts[d]), 0o644))
	}
	for i := 0; i < b.N; i++ {
		c := startExt(b, dir, nil)
		c.initialize(dir)
		cpu0, _ := procStat(b, c.cmd.Process.Pid)
		for d := 0; d < docs; d++ {
			c.open(string(uri.File(filepath.Join(dir, fmt.Sprintf("doc%d.skill.md", d)))), texts[d])
		}
		for d := 0; d < docs; d++ {
			c.waitVersion(string(uri.File(filepath.Join(dir, fmt.Sprintf("doc%d.skill.md", d)))), 1)
		}
		time.Sleep(time.Second) // debounced re-checks
		cpu1, rss := procStat(b, c.cmd.Process.Pid)
		total := 0
		for _, n := range c.publications() {
			total += n
		}
		b.ReportMetric(float64(rss)/1024, "rss-MiB")
		b.ReportMetric(float64(total), "publications")
		b.ReportMetric((cpu1 - cpu0).Seconds(), "cpu-s")
	}
}
