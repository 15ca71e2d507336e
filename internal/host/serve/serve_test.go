package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/host/trigger"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/workspace"
)

// newHost builds an in-process host on a temp SKILLSCRIPT_HOME with a
// real runner, trace store and trigger queue.
func newHost(t testing.TB, set Settings, skills map[string]string) *Host {
	t.Helper()
	home := t.TempDir()
	for name, body := range skills {
		if err := os.MkdirAll(filepath.Join(home, "skills"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "skills", name+".skill.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"SKILLSCRIPT_HOME": home}
	ws := workspace.Load("", workspace.LoadOptions{Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	cfg := ws.Config
	ctx := context.Background()
	r, closeReg, err := host.NewRunner(ctx, host.Options{Config: cfg, SkillsDir: cfg.SkillsDir})
	if err != nil {
		t.Fatal(err)
	}
	traces, err := trace.Open(filepath.Join(cfg.TraceDir, trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if set.Grace == 0 {
		set.Grace = time.Second
	}
	h, err := New(Options{Workspace: ws, Settings: set, Runner: r, CloseRunner: closeReg, Traces: traces})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := trigger.Open(ctx, trigger.Options{Queue: trigger.QueueOptions{Home: home, FetchPollInterval: 10 * time.Millisecond},
		Skills: h.Skills(), Run: h.FireTrigger, PollInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	h.SetTriggers(svc)
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.Shutdown(nil)
		h.Close()
		traces.Close()
	})
	return h
}

func TestSettingsCheck(t *testing.T) {
	for _, tc := range []struct {
		set  Settings
		want string // "" means accepted
	}{
		{Settings{Host: "127.0.0.1", Port: 7878}, ""},
		{Settings{Host: "localhost", Port: 7878, EventIngress: true}, ""},
		{Settings{Host: "::1", Port: 0}, ""},
		{Settings{Host: "0.0.0.0", Port: 7878}, EnvAuthToken},
		{Settings{Host: "0.0.0.0", Port: 7878, AuthToken: "a", EventIngress: true}, EnvEventToken},
		{Settings{Host: "10.0.0.5", Port: 7878, AuthToken: "a"}, ""},
		{Settings{Host: "0.0.0.0", Port: 7878, AuthToken: "a", EventIngress: true, EventToken: "b"}, ""},
		{Settings{Host: "127.0.0.1", Port: 70000}, "out of range"},
		{Settings{Host: "", Port: 7878}, EnvAuthToken},
		{Settings{Host: "::", Port: 7878}, EnvAuthToken},
		{Settings{Host: "::ffff:0.0.0.0", Port: 7878}, EnvAuthToken},
		{Settings{Host: "127.0.0.2", Port: 7878, EventIngress: true}, ""},
	} {
		err := tc.set.Check()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Check(%+v) = %v, want %q", tc.set, err, tc.want)
		}
	}
}

func TestSettingsFromEnvironment(t *testing.T) {
	load := func(env map[string]string) (Settings, error) {
		cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		return SettingsFrom(cfg)
	}
	s, err := load(map[string]string{EnvIdentityHeader: "X-Agent-Id", EnvPollInterval: "5", EnvEventIngress: "true", "SKILLSCRIPT_PORT": "9000"})
	if err != nil || s.IdentityHeader != "X-Agent-Id" || s.PollInterval != 5*time.Second || !s.EventIngress || s.Port != 9000 || s.Host != "127.0.0.1" {
		t.Errorf("settings = %+v, %v", s, err)
	}
	// the configuration file is the layer below the environment
	path := filepath.Join(t.TempDir(), "skillscript.config.json")
	if err := os.WriteFile(path, []byte(`{"dashboard": {"mcpCallerIdentityHeader": "X-From-File"}, "pollIntervalSeconds": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _ := config.Load(config.LoadOptions{ConfigPath: path})
	if s, err := SettingsFrom(cfg); err != nil || s.IdentityHeader != "X-From-File" || s.PollInterval != 7*time.Second {
		t.Errorf("from the config file: %+v %v", s, err)
	}
	s, err = load(map[string]string{EnvAllowedHosts: "skillc.internal, ,ops.internal", EnvAllowedOrigins: "https://ops.example",
		EnvReadTimeout: "2.5", EnvIdleTimeout: "60", EnvMaxSessions: "0", EnvSessionIdle: "90", EnvEventRate: "0.5", EnvEventBurst: "3",
		EnvTriggerRegisterRate: "0", EnvTriggerRegisterBurst: "4"})
	want := HTTPSettings{AllowedHosts: []string{"skillc.internal", "ops.internal"}, AllowedOrigins: []string{"https://ops.example"},
		ReadTimeout: 2500 * time.Millisecond, IdleTimeout: time.Minute, MaxSessions: 0, SessionIdle: 90 * time.Second,
		EventRate: 0.5, EventBurst: 3, TriggerRegisterRate: 0, TriggerRegisterBurst: 4}
	if err != nil || fmt.Sprint(s.HTTP) != fmt.Sprint(want) {
		t.Errorf("HTTP settings = %+v, %v\nwant %+v", s.HTTP, err, want)
	}
	if s, _ := load(nil); s.HTTP.MaxSessions != DefaultMaxSessions || s.HTTP.EventRate != DefaultEventRate || s.HTTP.SessionIdle != DefaultSessionIdle {
		t.Errorf("default HTTP settings = %+v", s.HTTP)
	}
	for env, want := range map[string]string{EnvPollInterval: "positive number", EnvEventIngress: "true or false",
		EnvReadTimeout: "positive number of seconds", EnvMaxSessions: "whole number", EnvEventRate: "requests per second"} {
		if _, err := load(map[string]string{env: "nope"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=nope: %v", env, err)
		}
	}
}

func TestBearerAndBodyLimit(t *testing.T) {
	h := newHost(t, Settings{AuthToken: "s3cret", MaxBody: 1024}, nil)
	srv, err := h.NewMCPServer()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h.Handler(srv))
	defer ts.Close()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	do := func(token, body string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := do("", init); c != http.StatusUnauthorized {
		t.Errorf("no token = %d", c)
	}
	if c := do("wrong", init); c != http.StatusUnauthorized {
		t.Errorf("wrong token = %d", c)
	}
	if c := do("s3cret", init); c != http.StatusOK {
		t.Errorf("right token = %d", c)
	}
	if c := do("s3cret", `{"pad":"`+strings.Repeat("x", 2048)+`"}`); c != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body = %d", c)
	}
}

// eventCodes are the only statuses /event may answer with a valid
// configuration.
var eventCodes = map[int]bool{200: true, 400: true, 404: true}

// FuzzEventBody posts arbitrary bodies to /event: every answer is one of
// the contract's statuses with a JSON body, never a panic or a 5xx, and a
// 200 always names a run.
func FuzzEventBody(f *testing.F) {
	for _, seed := range []string{
		`{"event_name":"prox","params":{"ROOM":"k"}}`, `{"name":"PROX","payload":{"ROOM":1}}`, `{"event":"prox"}`,
		`{"event_name":"prox","params":{"ROOM":"k","X":1}}`, `{"event_name":""}`, `[]`, `null`, `{"event_name":"nope"}`,
		`{"event_name":"prox","params":{"ROOM":"k"},"extra":1}`, `{"event_name":"prox","params":[1,2]}`, "\x00\xff",
	} {
		f.Add(seed)
	}
	h := newHost(f, Settings{EventIngress: true}, map[string]string{
		"prox": "# Skill: prox\n# Status: Approved\n# Triggers: event: prox\n# Vars: ROOM\n\n${ROOM}\n",
	})
	handler := http.HandlerFunc(h.serveEvent)
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/event", strings.NewReader(body)))
		if !eventCodes[rec.Code] {
			t.Fatalf("POST %q = %d %s", body, rec.Code, rec.Body)
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("POST %q: body %q is not JSON", body, rec.Body)
		}
		if rec.Code == 200 && out["run_id"] == "" {
			t.Fatalf("200 without run_id: %v", out)
		}
	})
}

// FuzzToolArguments checks the schema validation of execute_skill's
// arguments against Go's decoding: whatever passes validation decodes
// into ExecuteInput, and every refusal is a -32602 error.
func FuzzToolArguments(f *testing.F) {
	for _, seed := range []string{
		`{"name":"hello"}`, `{"source":"# Skill: x\n"}`, `{"name":"a","inputs":{"X":[1,{"y":null}]}}`, `{"name":1}`,
		`{"bogus":true}`, `{"mechanical":"yes"}`, `{"inputs":"x"}`, `[]`, `null`, `"str"`, `{`, ``,
	} {
		f.Add(seed)
	}
	ts, err := newToolSet(newHost(f, Settings{}, nil))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := ts.validate("execute_skill", json.RawMessage(raw))
		if err != nil {
			var we *jsonrpc.Error
			if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams {
				t.Fatalf("validate(%q) = %v, want -32602", raw, err)
			}
			return
		}
		var in ExecuteInput
		if raw != "" && raw != "null" {
			if err := json.Unmarshal([]byte(raw), &in); err != nil {
				t.Fatalf("validate accepted %q but it does not decode: %v", raw, err)
			}
		}
	})
}
