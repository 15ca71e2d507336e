package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// serveProc is a real `skillc serve` process started by a test.
type serveProc struct {
	cmd    *exec.Cmd
	url    string // http://host:port
	stderr *strings.Builder
	done   chan error
}

var listenLine = regexp.MustCompile(`listening on (http://[^/\s]+)/mcp`)

// startServe runs `skillc serve --port 0 args...` with SKILLSCRIPT_HOME
// set to home and waits for its listening line.
func startServe(t testing.TB, home string, env []string, args ...string) *serveProc {
	t.Helper()
	return startServeIn(t, "", home, env, args...)
}

// startServeIn is startServe with the working directory dir (the project
// whose .agents/skills is scanned); "" keeps the test's.
func startServeIn(t testing.TB, dir, home string, env []string, args ...string) *serveProc {
	t.Helper()
	cmd := exec.Command("skillc", append([]string{"serve", "--port", "0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SKILLSCRIPT_HOME="+home), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProc{cmd: cmd, stderr: &strings.Builder{}, done: make(chan error, 1)}
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			p.stderr.WriteString(line + "\n")
			if m := listenLine.FindStringSubmatch(line); m != nil {
				urlc <- m[1]
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
	})
	select {
	case p.url = <-urlc:
	case err := <-p.done:
		t.Fatalf("skillc serve exited early: %v\n%s", err, p.stderr)
	case <-time.After(20 * time.Second):
		t.Fatalf("skillc serve did not start:\n%s", p.stderr)
	}
	return p
}

// stop sends SIGTERM and waits for the process to exit.
func (p *serveProc) stop(t *testing.T) error {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("skillc serve did not exit after SIGTERM:\n%s", p.stderr)
	}
	return nil
}

// headerTransport adds fixed headers to every request.
type headerTransport struct{ h http.Header }

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.h {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an MCP session over Streamable HTTP, sending headers.
func connect(t testing.TB, url string, headers map[string]string) *mcp.ClientSession {
	t.Helper()
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	tr := &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: headerTransport{h}}, DisableStandaloneSSE: true}
	c := mcp.NewClient(&mcp.Implementation{Name: "skillc-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callJSON calls a tool and decodes its JSON text content into out; it
// checks the text and structuredContent agree on success.
func callJSON(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError {
		sc, _ := json.Marshal(res.StructuredContent)
		var a, b any
		_ = json.Unmarshal(sc, &a)
		_ = json.Unmarshal([]byte(text), &b)
		if !jsonEqual(a, b) {
			t.Errorf("%s: structuredContent %s differs from text %s", name, sc, text)
		}
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s: text %q: %v", name, text, err)
		}
	}
	return res
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func writeSkill(t testing.TB, home, name, body string) {
	t.Helper()
	dir := filepath.Join(home, "skills")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".skill.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writePackage writes an Agent Skills package: files by relative path.
func writePackage(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const helloSkill = "# Skill: hello\n# Status: Approved\n# Vars: WHO=\"world\"\n\nHello, ${WHO}!\n"

var wantTools = []string{
	"blocked_shell_attempts", "compile_skill", "data_read", "execute_skill", "fires", "health_metrics", "help",
	"lint_skill", "list_triggers", "register_trigger", "runtime_capabilities", "set_trigger_enabled",
	"skill_list", "skill_preflight", "skill_read", "skill_status", "skill_write", "skills_attach", "skills_discover",
	"skills_instructions", "skills_list", "skills_load", "skills_read", "skills_run", "skills_unload", "unregister_trigger",
}

func TestServeHTTP(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "hello", helloSkill)
	p := startServe(t, home, []string{"SKILLSCRIPT_MCP_CALLER_IDENTITY_HEADER=X-Agent-Id"})
	cs := connect(t, p.url, map[string]string{"X-Agent-Id": "alice"})

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema == nil || tl.OutputSchema == nil {
			t.Errorf("tool %s lacks an input or output schema", tl.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, wantTools) {
		t.Errorf("tools = %v\nwant %v", names, wantTools)
	}

	var ex struct {
		TraceID        string `json:"trace_id"`
		Status, Output string
		Result         map[string]any
	}
	callJSON(t, cs, "execute_skill", map[string]any{"name": "hello", "inputs": map[string]any{"WHO": "serve"}}, &ex)
	if ex.Status != "ok" || ex.Output != "Hello, serve!" || ex.TraceID == "" {
		t.Errorf("execute_skill = %+v", ex)
	}

	t.Run("invalid params", func(t *testing.T) { testInvalidParams(t, cs) })
	t.Run("authoring", func(t *testing.T) { testAuthoring(t, cs) })
	t.Run("traces", func(t *testing.T) { testTraceTools(t, cs, ex.TraceID) })
	t.Run("http routes", func(t *testing.T) { testRoutes(t, p.url) })
	if err := p.stop(t); err != nil {
		t.Errorf("exit after SIGTERM: %v\n%s", err, p.stderr)
	}
}

func testInvalidParams(t *testing.T, cs *mcp.ClientSession) {
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"name": "hello", "inputs": "x"}, "inputs"},
		{map[string]any{"name": "hello", "bogus": 1}, "bogus"},
		{map[string]any{}, "name or source"},
		{map[string]any{"name": 3}, "name"},
	} {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "execute_skill", Arguments: tc.args})
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams || !strings.Contains(we.Message, tc.want) {
			t.Errorf("execute_skill %v: err = %v, want -32602 naming %q", tc.args, err, tc.want)
		}
	}
	var body struct{ Error, Message string }
	res := callJSON(t, cs, "execute_skill", map[string]any{"name": "missing"}, &body)
	if !res.IsError || body.Error != "SkillNotFound" {
		t.Errorf("missing skill: isError=%v %+v", res.IsError, body)
	}
}

func testAuthoring(t *testing.T, cs *mcp.ClientSession) {
	draft := "# Skill: smoke\n# Status: Draft\n\nrun:\n    emit(text=\"hi\")\ndefault: run\n"
	var w struct{ Name, Status, Author string }
	callJSON(t, cs, "skill_write", map[string]any{"name": "smoke", "source": draft}, &w)
	if w.Author != "alice" || w.Status != "Draft" {
		t.Errorf("skill_write = %+v, want author alice, Draft", w)
	}
	var pf struct {
		Metadata struct{ Author string }
		Runnable bool
	}
	callJSON(t, cs, "skill_preflight", map[string]any{"name": "smoke"}, &pf)
	if pf.Metadata.Author != "alice" || !pf.Runnable {
		t.Errorf("skill_preflight of a pure draft = %+v", pf)
	}
	// the approval gate: a Draft that performs effects never runs when
	// reached through the host; a pure Draft runs; a mechanical walk runs
	effectful := "# Skill: fx\n# Status: Draft\n\nrun:\n    shell(command=\"echo hi\") -> R\ndefault: run\n"
	callJSON(t, cs, "skill_write", map[string]any{"name": "fx", "source": effectful}, nil)
	var body struct{ Error string }
	if res := callJSON(t, cs, "execute_skill", map[string]any{"name": "fx"}, &body); !res.IsError || body.Error != "DraftSkillError" {
		t.Errorf("effectful draft ran: %+v", body)
	}
	callJSON(t, cs, "skill_preflight", map[string]any{"name": "fx"}, &pf)
	if pf.Runnable {
		t.Errorf("skill_preflight of an effectful draft = %+v", pf)
	}
	var ex struct{ Status, Output string }
	callJSON(t, cs, "execute_skill", map[string]any{"name": "fx", "mechanical": true}, &ex)
	if ex.Status != "ok" {
		t.Errorf("mechanical draft run = %+v", ex)
	}
	callJSON(t, cs, "execute_skill", map[string]any{"name": "smoke"}, &ex)
	if ex.Status != "ok" || ex.Output != "hi" {
		t.Errorf("pure draft run = %+v", ex)
	}
	callJSON(t, cs, "skill_status", map[string]any{"name": "smoke", "status": "approved"}, nil)
	callJSON(t, cs, "execute_skill", map[string]any{"name": "smoke"}, &ex)
	if ex.Status != "ok" || ex.Output != "hi" {
		t.Errorf("approved run = %+v", ex)
	}
	bad := "# Skill: broken\n\nrun:\n    emit(text=\"${NOPE}\")\ndefault: run\n"
	var lerr struct {
		Error   string
		Details []struct {
			Rule         string
			Line, Column int
		}
	}
	if res := callJSON(t, cs, "skill_write", map[string]any{"name": "broken", "source": bad}, &lerr); !res.IsError || lerr.Error != "LintError" || len(lerr.Details) == 0 || lerr.Details[0].Line != 4 {
		t.Errorf("skill_write of a broken skill: %+v", lerr)
	}
	var lint struct {
		Diagnostics []struct {
			Rule                    string
			Line, Column, EndColumn int
		}
	}
	callJSON(t, cs, "lint_skill", map[string]any{"source": bad}, &lint)
	if len(lint.Diagnostics) == 0 || lint.Diagnostics[0].Line != 4 || lint.Diagnostics[0].Column == 0 {
		t.Errorf("lint_skill = %+v", lint)
	}
	var list struct {
		CatalogVersion string `json:"catalog_version"`
		NotModified    bool   `json:"not_modified"`
		Skills         []struct{ Name string }
	}
	callJSON(t, cs, "skill_list", map[string]any{"author": "alice", "name_prefix": "sm"}, &list)
	if len(list.Skills) != 1 || list.Skills[0].Name != "smoke" || list.CatalogVersion == "" {
		t.Errorf("skill_list author=alice: %+v", list)
	}
	v := list.CatalogVersion
	callJSON(t, cs, "skill_list", map[string]any{"author": "alice", "name_prefix": "sm", "if_none_match": v}, &list)
	if !list.NotModified {
		t.Errorf("skill_list if_none_match: %+v", list)
	}
}

func testTraceTools(t *testing.T, cs *mcp.ClientSession, traceID string) {
	var fires struct {
		Runs []struct {
			TraceID string `json:"trace_id"`
			Skill   string
			Status  string
			Trigger string `json:"trigger_kind"`
			Caller  string `json:"caller_agent_id"`
			Inputs  map[string]any
		}
	}
	callJSON(t, cs, "fires", map[string]any{"trace_id": traceID}, &fires)
	if len(fires.Runs) != 1 || fires.Runs[0].Skill != "hello" || fires.Runs[0].Caller != "alice" || fires.Runs[0].Trigger != "agent" || fires.Runs[0].Inputs["WHO"] != "serve" {
		t.Errorf("fires = %+v", fires)
	}
	var health struct {
		Skills []struct {
			Skill string
			Runs  int
			OK    int
		}
	}
	callJSON(t, cs, "health_metrics", map[string]any{"skill": "hello"}, &health)
	if len(health.Skills) != 1 || health.Skills[0].OK != 1 {
		t.Errorf("health_metrics = %+v", health)
	}
}

func testRoutes(t *testing.T, url string) {
	for path, want := range map[string]string{"/healthz": `"ok"`, "/readyz": `"ready":true`, "/metrics": `skillc_runs_total{status="ok",trigger="agent"}`} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s = %d %s, want %s", path, resp.StatusCode, b, want)
		}
	}
	resp, err := http.Post(url+"/event", "application/json", strings.NewReader(`{"event_name":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST /event with ingress off = %d, want 404", resp.StatusCode)
	}
}

func TestServeStdio(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "hello", helloSkill)
	cmd := exec.Command("skillc", "serve", "--stdio")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home)
	c := mcp.NewClient(&mcp.Implementation{Name: "skillc-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ex struct{ Status, Output string }
	callJSON(t, cs, "execute_skill", map[string]any{"name": "hello"}, &ex)
	if ex.Status != "ok" || ex.Output != "Hello, world!" {
		t.Errorf("execute_skill over stdio = %+v", ex)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

func TestServeRefusesOpenBind(t *testing.T) {
	cmd := exec.Command("skillc", "serve", "--host", "0.0.0.0", "--port", "0")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "SKILLSCRIPT_EVENT_INGRESS_ENABLED=true")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
		t.Fatalf("err = %v, output %s", err, out)
	}
	for _, want := range []string{"refusing to listen on non-loopback address 0.0.0.0:0", "SKILLSCRIPT_DASHBOARD_AUTH_TOKEN", "SKILLSCRIPT_EVENT_INGRESS_AUTH_TOKEN"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func post(t testing.TB, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/event", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// waitRun polls fires until the trace exists and is finished.
func waitRun(t *testing.T, cs *mcp.ClientSession, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fires", Arguments: map[string]any{"trace_id": id}})
		if err == nil && !res.IsError {
			var out struct{ Runs []map[string]any }
			_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)
			if len(out.Runs) == 1 && out.Runs[0]["status"] != "running" {
				return out.Runs[0]
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("run %s did not finish", id)
	return nil
}

func TestServeEventIngress(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "prox", "# Skill: prox\n# Status: Approved\n# Triggers: event: prox\n# Vars: ROOM, USER\n\n${USER} entered ${ROOM}\n")
	p := startServe(t, home, []string{"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_INGRESS_AUTH_TOKEN=tok"})
	for _, tc := range []struct {
		token, body string
		want        int
	}{
		{"", `{"event_name":"prox","params":{"ROOM":"k","USER":"a"}}`, 401},
		{"wrong", `{"event_name":"prox","params":{"ROOM":"k","USER":"a"}}`, 401},
		{"tok", `not json`, 400},
		{"tok", `{"params":{}}`, 400},
		{"tok", `{"event_name":"prox","params":{"ROOM":"k"}}`, 400},
		{"tok", `{"event_name":"prox","params":{"ROOM":"k","USER":"a","X":1}}`, 400},
		{"tok", `{"event_name":"nope","params":{}}`, 404},
	} {
		if code, body := post(t, p.url, tc.token, tc.body); code != tc.want {
			t.Errorf("POST %s (token %q) = %d %v, want %d", tc.body, tc.token, code, body, tc.want)
		}
	}
	resp, err := http.Get(p.url + "/event")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /event = %d", resp.StatusCode)
	}
	code, body := post(t, p.url, "tok", `{"event_name":"PROX","params":{"ROOM":"kitchen","USER":"alice"}}`)
	id, _ := body["run_id"].(string)
	if code != 200 || id == "" || !strings.HasPrefix(body["durability"].(string), "durable") {
		t.Fatalf("POST /event = %d %v", code, body)
	}
	cs := connect(t, p.url, nil)
	run := waitRun(t, cs, id)
	if run["status"] != "ok" || run["trigger_kind"] != "event" || run["output"] != "alice entered kitchen" {
		t.Errorf("event run = %v", run)
	}
	resp, err = http.Get(p.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`skillc_trigger_fires_total{kind="event"} 1`, `skillc_event_requests_total{code="200"} 1`,
		`skillc_event_requests_total{code="401"} 2`, `skillc_runs_total{status="ok",trigger="event"} 1`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	var trig struct {
		Trigger struct{ ID, Kind, Spec string }
	}
	callJSON(t, cs, "register_trigger", map[string]any{"skill": "prox", "kind": "cron", "schedule": "0 9 * * *", "timezone": "Europe/Paris"}, &trig)
	var list struct {
		Triggers []struct{ ID, Kind, Source string }
	}
	callJSON(t, cs, "list_triggers", map[string]any{"skill": "prox"}, &list)
	if len(list.Triggers) != 2 {
		t.Errorf("list_triggers = %+v", list)
	}
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "register_trigger", Arguments: map[string]any{"skill": "prox", "kind": "cron", "schedule": "61 * * * *"}})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("bad cron: %v", err)
	}
}

// SIGTERM: intake stops, an in-flight run that outlives the grace period
// is cut off (its shell child killed) and recorded aborted; the trace
// survives a restart.
func TestServeShutdown(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "slow", "# Skill: slow\n# Status: Approved\n\nrun:\n    shell(command=\"sleep 37.25\") -> R\ndefault: run\n")
	env := []string{"SKILLSCRIPT_SHELL_ALLOWLIST=sleep"}
	p := startServe(t, home, env, "--grace", "300ms")
	cs := connect(t, p.url, nil)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "execute_skill", Arguments: map[string]any{"name": "slow"}})
		done <- err
	}()
	waitFor(t, func() bool { return len(sleepers()) > 0 })
	if err := p.stop(t); err != nil {
		t.Errorf("exit after SIGTERM: %v\n%s", err, p.stderr)
	}
	if s := sleepers(); len(s) > 0 {
		t.Errorf("orphaned shell children: %v", s)
	}
	p2 := startServe(t, home, env)
	cs2 := connect(t, p2.url, nil)
	var fires struct {
		Runs []struct {
			Status      string
			AbortReason string `json:"abort_reason"`
		}
	}
	callJSON(t, cs2, "fires", map[string]any{"skill": "slow"}, &fires)
	if len(fires.Runs) != 1 || fires.Runs[0].Status != "aborted" || fires.Runs[0].AbortReason == "" {
		t.Errorf("after restart: %+v", fires)
	}
	<-done
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 300; i++ {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("condition not reached")
}

// sleepers returns the pids of running "sleep 37.25" processes.
func sleepers() []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), "37.25") && strings.HasPrefix(string(b), "sleep") {
			out = append(out, p)
		}
	}
	return out
}

// kill -9 loses no trigger and no committed trace: the restarted host
// still has the registered trigger and the finished run, closes the run
// the dead host left running as aborted, and no shell child survives.
func TestServeKill9(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "hello", helloSkill)
	writeSkill(t, home, "slow", "# Skill: slow\n# Status: Approved\n\nrun:\n    shell(command=\"sleep 37.25\") -> R\ndefault: run\n")
	env := []string{"SKILLSCRIPT_SHELL_ALLOWLIST=sleep"}
	p := startServe(t, home, env)
	cs := connect(t, p.url, nil)
	var ex struct {
		TraceID string `json:"trace_id"`
	}
	callJSON(t, cs, "execute_skill", map[string]any{"name": "hello"}, &ex)
	var trig struct{ Trigger struct{ ID string } }
	callJSON(t, cs, "register_trigger", map[string]any{"skill": "hello", "kind": "cron", "schedule": "*/5 * * * *"}, &trig)
	go func() {
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "execute_skill", Arguments: map[string]any{"name": "slow"}})
	}()
	waitFor(t, func() bool { return len(sleepers()) > 0 })
	_ = p.cmd.Process.Kill()
	<-p.done
	waitFor(t, func() bool { return len(sleepers()) == 0 })

	p2 := startServe(t, home, env)
	cs2 := connect(t, p2.url, nil)
	var list struct{ Triggers []struct{ ID string } }
	callJSON(t, cs2, "list_triggers", map[string]any{"skill": "hello"}, &list)
	if len(list.Triggers) != 1 || list.Triggers[0].ID != trig.Trigger.ID {
		t.Errorf("triggers after kill -9: %+v, want %s", list, trig.Trigger.ID)
	}
	run := waitRun(t, cs2, ex.TraceID)
	if run["status"] != "ok" {
		t.Errorf("committed run after kill -9: %v", run)
	}
	var fires struct{ Runs []struct{ Status string } }
	callJSON(t, cs2, "fires", map[string]any{"skill": "slow"}, &fires)
	if len(fires.Runs) != 1 || fires.Runs[0].Status != "aborted" {
		t.Errorf("interrupted run after restart: %+v", fires)
	}
}

// The caller identity rides deliveries through composition: cc calls
// bob's parent skill, which composes alice's child; the child's notify
// carries origin skill_name child, entry_skill_name parent, trigger_kind
// agent and caller_agent_id cc, and files are snake_case throughout.
func TestServeDeliveryEnvelope(t *testing.T) {
	home := t.TempDir()
	outbox := filepath.Join(home, "outbox")
	conns := `{"substrate": {"agent_connector": {"type": "filedrop", "config": {"dir": "` + outbox + `"}}}}`
	if err := os.WriteFile(filepath.Join(home, "connectors.json"), []byte(conns), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, home, []string{"SKILLSCRIPT_MCP_CALLER_IDENTITY_HEADER=X-Agent-Id"})
	alice := connect(t, p.url, map[string]string{"X-Agent-Id": "alice"})
	bob := connect(t, p.url, map[string]string{"X-Agent-Id": "bob"})
	cc := connect(t, p.url, map[string]string{"X-Agent-Id": "cc"})
	child := "# Skill: child\n# Status: Approved\n\nrun:\n    notify(agent=\"bob\", message=\"hi\") -> A\n    notify(agent=\"bob@tab-3\", message=\"wake up\") -> B\ndefault: run\n"
	parent := "# Skill: parent\n# Status: Approved\n\nrun:\n    execute_skill(name=\"child\") -> R\ndefault: run\n"
	callJSON(t, alice, "skill_write", map[string]any{"name": "child", "source": child}, nil)
	callJSON(t, bob, "skill_write", map[string]any{"name": "parent", "source": parent}, nil)
	var ex struct{ Status string }
	callJSON(t, cc, "execute_skill", map[string]any{"name": "parent"}, &ex)
	if ex.Status != "ok" {
		t.Fatalf("parent run = %+v", ex)
	}
	deliver, wake := readDrops(t, outbox)
	origin := map[string]any{"skill_name": "child", "entry_skill_name": "parent", "trigger_kind": "agent", "caller_agent_id": "cc"}
	for name, rec := range map[string]map[string]any{"deliver": deliver, "wake": wake} {
		meta := rec["payload"].(map[string]any)["meta"].(map[string]any)
		if !jsonEqual(meta["origin"], origin) {
			t.Errorf("%s origin = %v, want %v", name, meta["origin"], origin)
		}
		if meta["dispatch_id"] == "" || meta["sent_at"] == nil {
			t.Errorf("%s meta = %v", name, meta)
		}
	}
	if w := wake["wake"]; !jsonEqual(w, map[string]any{"context": "wake up"}) {
		t.Errorf("wake options = %v, want snake_case {context}", w)
	}
	if deliver["payload"].(map[string]any)["meta"].(map[string]any)["dispatch_id"] == wake["payload"].(map[string]any)["meta"].(map[string]any)["dispatch_id"] {
		t.Error("two notify calls share a dispatch_id")
	}
}

// readDrops returns the file-drop records of one deliver and one wake.
func readDrops(t *testing.T, dir string) (deliver, wake map[string]any) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(filepath.Base(f), "wake-") {
			wake = rec
		} else {
			deliver = rec
		}
	}
	if deliver == nil || wake == nil {
		t.Fatalf("drops in %s: %v", dir, files)
	}
	return deliver, wake
}

// TestNodeMCPClient runs the official Node MCP SDK client against a real
// skillc serve over stdio and Streamable HTTP.
func TestNodeMCPClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node not installed")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "..", "internal", "host", "serve", "testdata", "nodeclient"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("run npm ci in %s: %v", dir, err)
		}
		t.Skip("node client dependencies not installed (npm ci in internal/host/serve/testdata/nodeclient)")
	}
	home := t.TempDir()
	writeSkill(t, home, "hello", helloSkill)
	writePackage(t, filepath.Join(home, "skills", "pdf-tools"), map[string]string{
		"SKILL.md":            "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\n---\n\nRead references/guide.md.\n",
		"references/guide.md": "the guide\n",
	})
	p := startServe(t, home, []string{"SKILLSCRIPT_MCP_CALLER_IDENTITY_HEADER=X-Agent-Id", "HOME=" + t.TempDir()})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "mcp_client.test.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SKILLC_HOME="+home, "SKILLC_URL="+p.url)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: node mcp client passed") {
		t.Fatalf("node MCP client failed: %v\n%s", err, out)
	}
}

func TestServeSupervisorNeedsTraces(t *testing.T) {
	cmd := exec.Command("skillc", "serve", "--port", "0", "--trace", "off")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "SKILLSCRIPT_SUPERVISOR_SKILL=sup")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(string(out), "needs run tracing") {
		t.Fatalf("err = %v, output %s", err, out)
	}
}

// Agent Skills packages next to the skillscripts are served by the
// skills_* tools, keyed by the MCP session.
func TestServeAgentSkills(t *testing.T) {
	home := t.TempDir()
	pkg := filepath.Join(home, "skills", "pdf-tools")
	if err := os.MkdirAll(filepath.Join(pkg, "references"), 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: pdf-tools\ndescription: Fill and merge PDF forms. Use when the user mentions PDFs.\n---\n\nUse the guide in references/guide.md.\n"
	for path, body := range map[string]string{"SKILL.md": md, "references/guide.md": "the guide"} {
		if err := os.WriteFile(filepath.Join(pkg, path), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := startServe(t, home, []string{"HOME=" + t.TempDir()})
	cs := connect(t, p.url, nil)
	res := callJSON(t, cs, "skills_load", map[string]any{"names": []string{"pdf-tools"}}, nil)
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(text, "references/guide.md") {
		t.Fatalf("skills_load = %s", text)
	}
	var read struct{ Content string }
	callJSON(t, cs, "skills_read", map[string]any{"path": "references/guide.md"}, &read)
	if read.Content != "the guide" {
		t.Errorf("skills_read = %+v", read)
	}
	// A package added while the host runs is indexed (hot reload).
	writePackage(t, filepath.Join(home, "skills", "csv-tools"), map[string]string{
		"SKILL.md": "---\nname: csv-tools\ndescription: Clean CSV files.\n---\n\nUse pandas.\n",
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skills_load", Arguments: map[string]any{"names": []string{"csv-tools"}, "mode": "add"}})
		if err == nil && !res.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a package added at run time was not indexed: %v %+v\n%s", err, res, p.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Two skillc serve processes on one Postgres database share the queue,
// the trigger registry and the trace store: a cron trigger due once
// fires exactly once, on one of them, and is recorded once; a run
// executed on host A is visible through host B's fires and
// health_metrics tools and through skillc fires/health --database.
func TestServeTwoHostsPostgres(t *testing.T) {
	url := pgtest.Start(t)
	tick := "# Skill: tick\n# Status: Approved\n# Triggers: cron: 0 0 1 1 *\n\ntick\n"
	hello := "# Skill: hello\n# Status: Approved\n# Vars: WHO\n\nrun:\n    emit(text=\"Hello, ${WHO}!\")\ndefault: run\n"
	var homes []string
	var hosts []*serveProc
	for i := 0; i < 2; i++ {
		home := t.TempDir()
		writeSkill(t, home, "tick", tick)
		writeSkill(t, home, "hello", hello)
		hosts = append(hosts, startServe(t, home, nil, "--database", url, "--poll-interval", "200ms"))
		homes = append(homes, home)
	}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	// make the yearly trigger due now (both hosts synced the same row)
	tag, err := pool.Exec(ctx, `UPDATE skillc_triggers SET next_fire = $1 WHERE skill = 'tick'`, time.Now().Add(-time.Second).UnixMilli())
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("make due: %v (%d rows)", err, tag.RowsAffected())
	}
	jobs := func() (total, done int) {
		_ = pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE state = 'completed') FROM river_job WHERE kind = 'skillc_fire'`).Scan(&total, &done)
		return total, done
	}
	waitFor(t, func() bool { _, done := jobs(); return done >= 1 })
	time.Sleep(time.Second) // several more ticks on both hosts
	if total, done := jobs(); total != 1 || done != 1 {
		t.Errorf("jobs = %d (completed %d), want exactly 1", total, done)
	}
	// the one fire is one row of the shared store, seen alike by both hosts
	a, b := connect(t, hosts[0].url, nil), connect(t, hosts[1].url, nil)
	type fires struct {
		Runs []struct {
			TraceID string `json:"trace_id"`
			Status  string
			Trigger string `json:"trigger_kind"`
			Host    string
		}
	}
	var fa, fb fires
	callJSON(t, a, "fires", map[string]any{"skill": "tick"}, &fa)
	callJSON(t, b, "fires", map[string]any{"skill": "tick"}, &fb)
	if len(fa.Runs) != 1 || len(fb.Runs) != 1 || fa.Runs[0].TraceID != fb.Runs[0].TraceID || fa.Runs[0].Trigger != "cron" {
		t.Errorf("tick fires: host A %+v, host B %+v; want the same single cron run", fa.Runs, fb.Runs)
	}
	var rows int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE skill = 'tick'`).Scan(&rows); err != nil || rows != 1 {
		t.Errorf("trace rows of tick in Postgres = %d, %v; want 1", rows, err)
	}
	for _, home := range homes {
		if _, err := os.Stat(filepath.Join(home, "traces", trace.FileName)); err == nil {
			t.Errorf("host with --database postgres:// also wrote a SQLite trace store in %s", home)
		}
	}
	// a run on host A, read through host B
	var ex struct {
		TraceID string `json:"trace_id"`
		Status  string
	}
	callJSON(t, a, "execute_skill", map[string]any{"name": "hello", "inputs": map[string]any{"WHO": "A"}}, &ex)
	if ex.Status != "ok" || ex.TraceID == "" {
		t.Fatalf("execute_skill on host A = %+v", ex)
	}
	run := waitRun(t, b, ex.TraceID)
	if host, _ := run["host"].(string); run["status"] != "ok" || run["output"] != "Hello, A!" || !strings.HasSuffix(host, ":"+homes[0]) {
		t.Errorf("host B's view of host A's run = %v", run)
	}
	var health struct {
		Skills []struct {
			Skill    string
			Runs, OK int
		}
	}
	callJSON(t, b, "health_metrics", map[string]any{"skill": "hello"}, &health)
	if len(health.Skills) != 1 || health.Skills[0].Runs != 1 || health.Skills[0].OK != 1 {
		t.Errorf("host B's health_metrics of hello = %+v", health.Skills)
	}
	// the CLI reads the same store with --database
	cmd := exec.Command("skillc", "fires", "--json", "--database", url)
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir())
	out, err := cmd.Output()
	var cli []map[string]any
	if err != nil || json.Unmarshal(out, &cli) != nil || len(cli) != 2 {
		t.Errorf("skillc fires --database: %v\n%s", err, out)
	}
	cmd = exec.Command("skillc", "health", "--json", "--skill", "tick")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "SKILLSCRIPT_DATABASE_URL="+url)
	out, err = cmd.Output()
	var hs []map[string]any
	if err != nil || json.Unmarshal(out, &hs) != nil || len(hs) != 1 || hs[0]["runs"] != 1.0 {
		t.Errorf("skillc health with SKILLSCRIPT_DATABASE_URL: %v\n%s", err, out)
	}
}

// lint_skill reports exactly what skillc check reports for the same
// stored skill.
func TestServeLintMatchesCheck(t *testing.T) {
	home := t.TempDir()
	src := "# Skill: messy\n# Status: Draft\n# Vars: UNUSED\n\nrun:\n    shell(command=\"curl -s ${URL}\") -> R\n    emit(text=\"${R|nosuchfilter}\")\ndefault: run\n"
	writeSkill(t, home, "messy", src)
	cmd := exec.Command("skillc", "check", "--format", "json", filepath.Join(home, "skills", "messy.skill.md"))
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home, "NO_COLOR=1")
	out, _ := cmd.Output()
	type diag struct {
		Line, Column, EndLine, EndColumn int
		Severity, Rule, Message          string
	}
	var check struct {
		Diagnostics []struct {
			diag
			EndLine   int `json:"end_line"`
			EndColumn int `json:"end_column"`
		}
	}
	if err := json.Unmarshal(out, &check); err != nil || len(check.Diagnostics) < 3 {
		t.Fatalf("skillc check: %v\n%s", err, out)
	}
	p := startServe(t, home, nil)
	var lint struct {
		Diagnostics []struct {
			diag
			EndLine   int `json:"end_line"`
			EndColumn int `json:"end_column"`
		}
	}
	callJSON(t, connect(t, p.url, nil), "lint_skill", map[string]any{"name": "messy"}, &lint)
	norm := func(ds []struct {
		diag
		EndLine   int `json:"end_line"`
		EndColumn int `json:"end_column"`
	}) []diag {
		var out []diag
		for _, d := range ds {
			d.diag.EndLine, d.diag.EndColumn = d.EndLine, d.EndColumn
			out = append(out, d.diag)
		}
		return out
	}
	if got, want := norm(lint.Diagnostics), norm(check.Diagnostics); !jsonEqual(got, want) {
		t.Errorf("lint_skill:\n%+v\nskillc check:\n%+v", got, want)
	}
}
