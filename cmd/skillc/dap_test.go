package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/skillscript/skillc/internal/host/trace"
)

// dapClient drives a real `skillc dap` process over stdio, as an editor
// does. Every byte the adapter writes is kept in raw (to prove what never
// reaches the client).
type dapClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	r      *bufio.Reader
	raw    *bytes.Buffer
	seq    int
	queued []godap.Message
}

// startDAP starts `skillc dap` in dir with env added. The context only
// kills a hung adapter at the end of the test's budget; nothing is
// asserted on time.
func startDAP(t *testing.T, dir string, env ...string) *dapClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "skillc", "dap")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	cmd.Stderr = &strings.Builder{}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &dapClient{t: t, cmd: cmd, in: in, raw: &bytes.Buffer{}}
	c.r = bufio.NewReader(io.TeeReader(out, c.raw))
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("skillc dap stderr:\n%s", cmd.Stderr)
		}
	})
	return c
}

// read returns the next message from the adapter.
func (c *dapClient) read() godap.Message {
	c.t.Helper()
	m, err := godap.ReadProtocolMessage(c.r)
	if err != nil {
		c.t.Fatalf("reading from skillc dap: %v", err)
	}
	if testing.Verbose() {
		b, _ := json.Marshal(m)
		c.t.Logf("<- %s", b)
	}
	return m
}

// request sends command with args and returns its response; events read
// meanwhile are queued for event.
func (c *dapClient) request(command string, args any) godap.ResponseMessage {
	c.t.Helper()
	c.seq++
	body := map[string]any{"seq": c.seq, "type": "request", "command": command}
	if args != nil {
		body["arguments"] = args
	}
	raw, _ := json.Marshal(body)
	if err := godap.WriteBaseMessage(c.in, raw); err != nil {
		c.t.Fatal(err)
	}
	for {
		m := c.read()
		if r, ok := m.(godap.ResponseMessage); ok && r.GetResponse().RequestSeq == c.seq {
			return r
		}
		c.queued = append(c.queued, m)
	}
}

// ok is request that fails the test on an unsuccessful response.
func (c *dapClient) ok(command string, args any) godap.ResponseMessage {
	c.t.Helper()
	r := c.request(command, args)
	if !r.GetResponse().Success {
		c.t.Fatalf("%s failed: %s", command, r.GetResponse().Message)
	}
	return r
}

// event returns the next event named name, collecting the output events
// passed on the way into outputs.
func (c *dapClient) event(name string, outputs *[]string) godap.EventMessage {
	c.t.Helper()
	for {
		var m godap.Message
		if len(c.queued) > 0 {
			m, c.queued = c.queued[0], c.queued[1:]
		} else {
			m = c.read()
		}
		e, ok := m.(godap.EventMessage)
		if !ok {
			continue
		}
		if o, isOut := m.(*godap.OutputEvent); isOut && outputs != nil {
			*outputs = append(*outputs, strings.TrimSuffix(o.Body.Output, "\n"))
		}
		if e.GetEvent().Event == name {
			return e
		}
	}
}

// stopped waits for the next stop and returns its reason and top frame.
func (c *dapClient) stopped(outputs *[]string) (string, []godap.StackFrame) {
	c.t.Helper()
	ev := c.event("stopped", outputs).(*godap.StoppedEvent)
	st := c.ok("stackTrace", map[string]any{"threadId": 1}).(*godap.StackTraceResponse)
	return ev.Body.Reason, st.Body.StackFrames
}

// vars returns the variables of the scopes of frame, by scope name then
// variable name.
func (c *dapClient) vars(frame int) map[string]map[string]string {
	c.t.Helper()
	out := map[string]map[string]string{}
	sc := c.ok("scopes", map[string]any{"frameId": frame}).(*godap.ScopesResponse)
	for _, s := range sc.Body.Scopes {
		vs := c.ok("variables", map[string]any{"variablesReference": s.VariablesReference}).(*godap.VariablesResponse)
		out[s.Name] = map[string]string{}
		for _, v := range vs.Body.Variables {
			out[s.Name][v.Name] = v.Value
		}
	}
	return out
}

func (c *dapClient) evaluate(frame int, expr string) string {
	c.t.Helper()
	r := c.ok("evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "repl"}).(*godap.EvaluateResponse)
	return r.Body.Result
}

// lineOf returns the 1-based line of the first line of src containing s.
func lineOf(t *testing.T, src, s string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line contains %q", s)
	return 0
}

const dapParent = `# Skill: triage
# Status: Approved
# Requires: secret.API_TOKEN
# Vars: TICKETS=["a", "b", "c"], OWNER=ops

lookup:
    $ tracker.search query="open" -> FOUND
    $ tracker.auth token="{{secret.API_TOKEN}}" -> AUTH
    $set COUNT = "${FOUND.items|length}"

    foreach T in ${TICKETS}:
        emit(text="ticket ${T}")

notify: lookup
    execute_skill(name="child", inputs={"who": "${OWNER}"}) -> R
    emit(text="done ${R.outputs.text}")

default: notify
`

const dapChild = `# Skill: child
# Status: Approved
# Vars: who=nobody

run:
    $set GREETING = "hello ${who}"
    emit(text="${GREETING}")

default: run
`

// The mock echoes the secret's value back: what the adapter shows of the
// result must not contain it.
const dapMock = `mocks:
  - op: tracker.search
    result: {items: [{id: T-1}, {id: T-2}], echo: "s3cr3t-value-42"}
  - op: tracker.auth
    result: {session: "s-1"}
`

// TestDAPSession drives a whole debug session of the real binary:
// breakpoints (one on a blank line, moved to the next op; a conditional
// one in a loop; a logpoint), the stack (target chain and child skill),
// variables with the secret masked, evaluate, step into the child of
// execute_skill, step over, step out, continue to the end.
func TestDAPSession(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"triage.skill.md": dapParent, "child.skill.md": dapChild, "triage.mock.yaml": dapMock} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog := filepath.Join(dir, "triage.skill.md")
	c := startDAP(t, dir, "SKILLSCRIPT_HOME="+filepath.Join(dir, "home"), "SKILLSCRIPT_SECRET_API_TOKEN=s3cr3t-value-42")

	init := c.ok("initialize", map[string]any{"adapterID": "skillc", "linesStartAt1": true, "columnsStartAt1": true}).(*godap.InitializeResponse)
	if !init.Body.SupportsConditionalBreakpoints || !init.Body.SupportsLogPoints || !init.Body.SupportsConfigurationDoneRequest {
		t.Errorf("capabilities = %+v", init.Body)
	}
	c.event("initialized", nil)
	c.ok("launch", map[string]any{"program": prog, "inputs": map[string]any{"OWNER": "sre"}})

	blank := lineOf(t, dapParent, `$set COUNT`) + 1
	forLine := lineOf(t, dapParent, "foreach T")
	emitT := lineOf(t, dapParent, `emit(text="ticket`)
	execLine := lineOf(t, dapParent, "execute_skill(")
	doneLine := lineOf(t, dapParent, `emit(text="done`)
	bps := c.ok("setBreakpoints", map[string]any{
		"source": map[string]any{"path": prog},
		"breakpoints": []map[string]any{
			{"line": blank},
			{"line": emitT, "condition": `${T} == "b"`},
			{"line": execLine},
			{"line": doneLine, "logMessage": "R is ${R.outputs.text}, owner ${OWNER}"},
		},
	}).(*godap.SetBreakpointsResponse)
	got := bps.Body.Breakpoints
	if len(got) != 4 || !got[0].Verified || got[0].Line != forLine || got[1].Line != emitT || !got[1].Verified || !got[3].Verified {
		t.Fatalf("breakpoints = %+v; want the blank line %d moved to the foreach on %d", got, blank, forLine)
	}
	c.ok("configurationDone", nil)

	var out []string
	reason, frames := c.stopped(&out)
	if reason != "breakpoint" || frames[0].Line != forLine || frames[0].Name != "triage › lookup" {
		t.Fatalf("first stop: %s at %+v", reason, frames[0])
	}
	// the target chain: lookup runs because notify needs it
	if len(frames) != 2 || frames[1].Name != "triage › notify (needs)" || frames[1].Line != lineOf(t, dapParent, "notify: lookup") {
		t.Errorf("stack = %+v, want lookup then notify", frames)
	}
	v := c.vars(frames[0].Id)
	if v["Vars"]["OWNER"] != `"sre"` || v["Vars"]["TICKETS"] != `["a","b","c"]` {
		t.Errorf("Vars = %v", v["Vars"])
	}
	if v["Bound"]["COUNT"] != `"2"` {
		t.Errorf("COUNT = %q, want \"2\" (from the mocked result)", v["Bound"]["COUNT"])
	}
	if v["Bound"]["AUTH"] != "{{secret}}" || v["Bound"]["FOUND"] != "{{secret}}" {
		t.Errorf("secret-holding variables shown as %q and %q, want {{secret}}", v["Bound"]["AUTH"], v["Bound"]["FOUND"])
	}
	if e := c.evaluate(frames[0].Id, "TICKETS|length"); e != "3" {
		t.Errorf("evaluate TICKETS|length = %q", e)
	}
	if e := c.evaluate(frames[0].Id, "owner=${OWNER} n=${COUNT}"); e != "owner=sre n=2" {
		t.Errorf("evaluate text = %q", e)
	}
	if e := c.evaluate(frames[0].Id, "AUTH"); e != "{{secret}}" {
		t.Errorf("evaluate AUTH = %q, want {{secret}}", e)
	}
	if r := c.request("evaluate", map[string]any{"expression": "NOPE", "frameId": frames[0].Id}); r.GetResponse().Success {
		t.Errorf("evaluating an unbound name succeeded")
	}

	// the conditional breakpoint stops only for T == "b"
	c.ok("continue", map[string]any{"threadId": 1})
	reason, frames = c.stopped(&out)
	if reason != "breakpoint" || frames[0].Line != emitT {
		t.Fatalf("second stop: %s at %+v", reason, frames[0])
	}
	if v := c.vars(frames[0].Id); v["Loop"]["T"] != `"b"` {
		t.Errorf("Loop = %v, want T = \"b\"", v["Loop"])
	}
	if !slicesContain(out, "ticket a") || slicesContain(out, "ticket b") {
		t.Errorf("output before the stop = %v", out)
	}

	c.ok("continue", map[string]any{"threadId": 1})
	reason, frames = c.stopped(&out)
	if reason != "breakpoint" || frames[0].Line != execLine {
		t.Fatalf("third stop: %s at %+v", reason, frames[0])
	}
	// step into the child skill of execute_skill
	c.ok("stepIn", map[string]any{"threadId": 1})
	reason, frames = c.stopped(&out)
	if reason != "step" || !strings.HasPrefix(frames[0].Name, "child") || frames[1].Name != "triage › notify (execute_skill)" || frames[1].Line != execLine {
		t.Fatalf("after stepIn: %s, stack %+v", reason, frames)
	}
	c.ok("next", map[string]any{"threadId": 1})
	reason, frames = c.stopped(&out)
	if reason != "step" || frames[0].Line != lineOf(t, dapChild, "$set GREETING") {
		t.Fatalf("after next in the child: %s at %+v", reason, frames[0])
	}
	if v := c.vars(frames[0].Id); v["Vars"]["who"] != `"sre"` {
		t.Errorf("child Vars = %v", v["Vars"])
	}
	if frames[0].Source == nil || frames[0].Source.Path != filepath.Join(dir, "child.skill.md") {
		t.Errorf("child frame source = %+v", frames[0].Source)
	}
	c.ok("next", map[string]any{"threadId": 1})
	c.stopped(&out)
	c.ok("stepOut", map[string]any{"threadId": 1})
	reason, frames = c.stopped(&out)
	if reason != "step" || frames[0].Line != doneLine || len(frames) != 1 {
		t.Fatalf("after stepOut: %s, stack %+v", reason, frames)
	}
	c.ok("continue", map[string]any{"threadId": 1})
	exited := c.event("exited", &out).(*godap.ExitedEvent)
	c.event("terminated", &out)
	if exited.Body.ExitCode != 0 {
		t.Errorf("exit code %d, output %v", exited.Body.ExitCode, out)
	}
	if !slicesContain(out, "R is hello sre, owner sre") || !slicesContain(out, "done hello sre") {
		t.Errorf("output = %v, want the logpoint and the final emit", out)
	}
	c.ok("disconnect", nil)
	if bytes.Contains(c.raw.Bytes(), []byte("s3cr3t-value-42")) {
		t.Errorf("the secret's value reached the client:\n%s", c.raw)
	}
}

func slicesContain(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// TestDAPEntryPauseTerminate: stopOnEntry stops before the first target;
// a pause requested while the run loops stops it; terminate ends it; a
// run without mocks is mechanical.
func TestDAPEntryPauseTerminate(t *testing.T) {
	dir := t.TempDir()
	var items []string
	for i := range 60 {
		items = append(items, fmt.Sprint(i))
	}
	list := "[" + strings.Join(items, ", ") + "]"
	src := "# Skill: loop\n# Status: Approved\n# Vars: N=" + list + "\n\nspin:\n    foreach A in ${N}:\n        foreach B in ${N}:\n            $set X = \"${A}-${B}\"\n    $ tracker.create title=\"real effect\" -> T\n\ndefault: spin\n"
	prog := filepath.Join(dir, "loop.skill.md")
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startDAP(t, dir, "SKILLSCRIPT_HOME="+filepath.Join(dir, "home"))
	c.ok("initialize", map[string]any{"adapterID": "skillc"})
	c.ok("launch", map[string]any{"program": prog, "stopOnEntry": true})
	setLine := lineOf(t, src, "$set X")
	c.ok("setBreakpoints", map[string]any{"source": map[string]any{"path": prog},
		"breakpoints": []map[string]any{{"line": setLine, "logMessage": "at ${A}-${B}"}}})
	c.ok("configurationDone", nil)
	var out []string
	reason, frames := c.stopped(&out)
	if reason != "entry" || frames[0].Line != lineOf(t, src, "spin:") {
		t.Fatalf("entry stop: %s at %+v", reason, frames[0])
	}
	if !slicesContain(out, `no mock file: running mechanically (no effect is performed); give "mocks" or set "realEffects": true`) {
		t.Errorf("no note about the mechanical run in %v", out)
	}
	c.ok("continue", map[string]any{"threadId": 1})
	// the logpoint's first line says the loop runs; the adapter cannot get
	// far ahead while this client does not read (the pipe fills up)
	c.eventOutput("at 0-0")
	c.ok("pause", map[string]any{"threadId": 1})
	reason, frames = c.stopped(&out)
	if reason != "pause" || frames[0].Line != setLine {
		t.Fatalf("pause stop: %s at %+v", reason, frames[0])
	}
	c.ok("terminate", nil)
	exited := c.event("exited", &out).(*godap.ExitedEvent)
	c.event("terminated", nil)
	if exited.Body.ExitCode != 1 || !slicesContainPrefix(out, "RunCancelled") {
		t.Errorf("terminated run: exit %d, output %v", exited.Body.ExitCode, out)
	}
	c.ok("disconnect", nil)
}

// eventOutput reads events until an output event whose text is s.
func (c *dapClient) eventOutput(s string) {
	c.t.Helper()
	for {
		var out []string
		c.event("output", &out)
		if slicesContain(out, s) {
			return
		}
	}
}

func slicesContainPrefix(list []string, p string) bool {
	for _, e := range list {
		if strings.Contains(e, p) {
			return true
		}
	}
	return false
}

// replayServer is an MCP server over stdio (newline JSON-RPC) that logs
// each tool call to the file named in its first argument: lookup answers
// a ticket, page fails with a tool error.
const replayServer = `import json, sys
log = sys.argv[1]
for line in sys.stdin:
    req = json.loads(line)
    if "id" not in req:
        continue
    m = req.get("method")
    if m == "initialize":
        res = {"protocolVersion": req["params"].get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}}, "serverInfo": {"name": "t", "version": "1"}}
    elif m == "tools/list":
        res = {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in ("lookup", "page")]}
    elif m == "tools/call":
        name = req["params"]["name"]
        with open(log, "a") as f:
            f.write(name + "\n")
        if name == "lookup":
            res = {"content": [{"type": "text", "text": json.dumps({"severity": "high", "owner": "kim"})}]}
        else:
            res = {"content": [{"type": "text", "text": "pager quota exceeded"}], "isError": True}
    else:
        res = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": res}) + "\n")
    sys.stdout.flush()
`

const replaySkill = `# Skill: incident
# Status: Approved
# Vars: ID=T-0

fetch:
    $ srv.lookup id="${ID}" -> R
    $set SEV = "${R.severity}"
    if ${SEV} == "high":
        $ srv.page who="${R.owner}" -> P

default: fetch
`

// TestDAPReplayServeTrace: a real skillc serve runs a skill whose second
// connector call fails; skillc dap replays that trace: it stops at a
// breakpoint with the recorded results bound, reproduces the failure on
// the same line, and calls no connector.
func TestDAPReplayServeTrace(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	home := t.TempDir()
	calls := filepath.Join(home, "calls.log")
	srv := filepath.Join(home, "srv.py")
	if err := os.WriteFile(srv, []byte(replayServer), 0o644); err != nil {
		t.Fatal(err)
	}
	conns, _ := json.Marshal(map[string]any{"srv": map[string]any{"class": "RemoteMcpConnector",
		"config": map[string]any{"command": py, "args": []string{srv, calls}, "framing": "newline"}}})
	if err := os.WriteFile(filepath.Join(home, "connectors.json"), conns, 0o644); err != nil {
		t.Fatal(err)
	}
	writeSkill(t, home, "incident", replaySkill)
	p := startServe(t, home, nil)
	cs := connect(t, p.url, nil)
	var ex struct {
		Status  string `json:"status"`
		TraceID string `json:"trace_id"`
	}
	callJSON(t, cs, "execute_skill", map[string]any{"name": "incident", "inputs": map[string]any{"ID": "T-9"}}, &ex)
	if ex.Status != "failed" || ex.TraceID == "" {
		t.Fatalf("serve run = %+v, want a failed run with a trace", ex)
	}
	if err := p.stop(t); err != nil {
		t.Fatalf("skillc serve: %v", err)
	}
	st, err := trace.Open(filepath.Join(home, "traces", trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := st.Get(context.Background(), ex.TraceID)
	st.Close()
	if err != nil || len(rec.Errors) != 1 || rec.Errors[0].Range == nil {
		t.Fatalf("recorded run: %+v, %v", rec, err)
	}
	recorded := fmt.Sprintf("line %d: %s: %s", rec.Errors[0].Range.Line, rec.Errors[0].Kind, rec.Errors[0].Message)
	before := readCalls(t, calls)
	if len(before) != 2 {
		t.Fatalf("the served run made calls %v, want lookup and page", before)
	}

	prog := filepath.Join(home, "skills", "incident.skill.md")
	c := startDAP(t, home, "SKILLSCRIPT_HOME="+home)
	c.ok("initialize", map[string]any{"adapterID": "skillc"})
	c.ok("launch", map[string]any{"trace": ex.TraceID, "program": prog})
	pageLine := lineOf(t, replaySkill, "$ srv.page")
	c.ok("setBreakpoints", map[string]any{"source": map[string]any{"path": prog}, "breakpoints": []map[string]any{{"line": pageLine}}})
	c.ok("configurationDone", nil)
	var out []string
	reason, frames := c.stopped(&out)
	if reason != "breakpoint" || frames[0].Line != pageLine {
		t.Fatalf("replay stop: %s at %+v (output %v)", reason, frames[0], out)
	}
	v := c.vars(frames[0].Id)
	if v["Bound"]["R"] != `{"owner":"kim","severity":"high"}` || v["Bound"]["SEV"] != `"high"` || v["Vars"]["ID"] != `"T-9"` {
		t.Errorf("replayed variables = %v", v)
	}
	if !slicesContainPrefix(out, "replaying trace "+ex.TraceID) {
		t.Errorf("no replay note in %v", out)
	}
	c.ok("continue", map[string]any{"threadId": 1})
	exited := c.event("exited", &out).(*godap.ExitedEvent)
	if exited.Body.ExitCode != 1 || !slicesContain(out, recorded) || recorded != fmt.Sprintf("line %d: ToolError: tool srv.page returned an error: pager quota exceeded", pageLine) {
		t.Errorf("replay end: exit %d, output %v; want the recorded failure %q", exited.Body.ExitCode, out, recorded)
	}
	c.ok("disconnect", nil)
	if after := readCalls(t, calls); len(after) != len(before) {
		t.Errorf("the replay called the connector: calls %v -> %v", before, after)
	}
}

func readCalls(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// TestNeovimDAPSession runs editors/nvim/test/dap_session.lua in headless
// Neovim: the adapter and launch configuration of lua/skillc/dap.lua
// driven by a scripted DAP client against the real `skillc dap`.
func TestNeovimDAPSession(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("nvim is not installed")
		}
		t.Skip("nvim not installed")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "editors", "nvim", "test", "sessions", "debug.skill.md"))
	if err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(dir, "debug.skill.md")
	if err := os.WriteFile(skill, src, 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "editors", "nvim", "test", "dap_session.lua"))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SKILLC_DAP_SKILL="+skill, "SKILLSCRIPT_HOME="+filepath.Join(dir, "home"),
		"HOME="+dir, "XDG_STATE_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: neovim dap session passed") {
		t.Fatalf("neovim dap session failed: %v\n%s", err, out)
	}
}
