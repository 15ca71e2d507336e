package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/agent"
	"github.com/skillscript/skillc/eval/substrate/datastore"
	"github.com/skillscript/skillc/eval/substrate/model"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/internal/leaf/connectors"
)

var serverDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wiretest")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serverDir = dir
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "skillc-mcptestserver"), "../mcp/internal/testserver/cmd/mcptestserver").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build test server: %v\n%s", err, out)
		os.Exit(1)
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func env(m map[string]string) connectors.EnvFunc {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func build(t *testing.T, json string, s Settings) (*contract.Registry, error) {
	t.Helper()
	if s.Home == "" {
		s.Home = filepath.Join(t.TempDir(), "home")
	}
	path := filepath.Join(t.TempDir(), "connectors.json")
	if json != "" {
		os.WriteFile(path, []byte(json), 0o644)
	}
	r, err := Load(context.Background(), path, s)
	if r != nil {
		t.Cleanup(func() { r.Close() })
	}
	return r, err
}

func TestDefaultsWithNoConfig(t *testing.T) {
	home := filepath.Join(t.TempDir(), "ss")
	var log bytes.Buffer
	r, err := build(t, "", Settings{Home: home, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Data.(*datastore.Store); !ok {
		t.Errorf("data store = %T", r.Data)
	}
	if fs, ok := r.Skills.(*skillstore.FS); !ok || fs.Dir() != filepath.Join(home, "skills") {
		t.Errorf("skill store = %T", r.Skills)
	}
	if _, err := os.Stat(filepath.Join(home, "data.db")); err != nil {
		t.Errorf("data.db not created: %v", err)
	}
	if len(r.Agents) != 1 {
		t.Fatalf("agents = %v", r.Agents)
	}
	if _, ok := r.Agents[0].(*agent.NoOp); !ok {
		t.Errorf("agent = %T", r.Agents[0])
	}
	m, err := r.Model("")
	if _, ok := m.(*model.Ollama); !ok || err != nil {
		t.Errorf("default model = %T, %v", m, err)
	}
	// The data-store round trip the corpus example performs, on the defaults.
	ctx := context.Background()
	w, err := r.Data.Write(ctx, contract.WriteRequest{Content: "probe-42 adopter dogfood probe record", Tags: []string{"phase1", "probe"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Data.Query(ctx, contract.Query{Mode: "fts", Text: "probe-42", Limit: 5})
	if err != nil || len(got) != 1 || got[0].ID != w.ID {
		t.Errorf("round trip = %v, %v", got, err)
	}
	// The skill-store round trip.
	if _, err := r.Skills.Write(ctx, "hello-child", "# Skill: hello-child\n# Status: Draft\nrun:\n    emit(text=\"hi\")\n", "tester"); err != nil {
		t.Fatal(err)
	}
	if rec, err := r.Skills.Get(ctx, "hello-child"); err != nil || rec == nil || rec.Author != "tester" {
		t.Errorf("skill read = %+v, %v", rec, err)
	}
	rec, _ := r.Agents[0].Deliver(ctx, "alice", contract.DeliveryPayload{Kind: "augment", Content: "x", Meta: contract.DeliveryMeta{DispatchID: "d"}})
	if !rec.DeliverySkipped || !strings.Contains(log.String(), "no agent connector") {
		t.Errorf("noop receipt %+v, log %q", rec, log.String())
	}
}

func TestFullConfig(t *testing.T) {
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer receiver.Close()
	ollama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"models":[{"name":"gemma2:9b"}],"response":"ok"}`))
	}))
	defer ollama.Close()
	dbDir := t.TempDir()
	cfg := `{
	  "substrate": {
	    "skill_store": {"type": "sqlite", "config": {"dbPath": "` + dbDir + `/skills.db"}},
	    "data_store": {"type": "sqlite", "config": {"dbPath": "${DB_DIR}/d.db"}},
	    "local_model": {"type": "ollama", "config": {"defaultModelTag": "gemma2:9b", "models": {"qwen": "qwen2.5:7b"}}},
	    "agent_connector": {"type": "webhook", "config": {"agents": {"alice": {"url": "` + receiver.URL + `"}}, "hmac_secret": "${SECRET}"}}
	  },
	  "tools": {
	    "class": "RemoteMcpConnector",
	    "config": {"command": "skillc-mcptestserver", "framing": "newline"},
	    "allowed_tools": ["echo", "add"],
	    "mutating": ["add"],
	    "tools": [{"name": "echo", "description": "declared"}]
	  }
	}`
	r, err := build(t, cfg, Settings{Env: env(map[string]string{"DB_DIR": dbDir, "SECRET": "k", "OLLAMA_BASE_URL": ollama.URL}), CheckModels: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Skills.(*skillstore.SQLite); !ok {
		t.Errorf("skill store = %T", r.Skills)
	}
	if _, err := os.Stat(filepath.Join(dbDir, "d.db")); err != nil {
		t.Errorf("data store not at configured path: %v", err)
	}
	if _, ok := r.Agents[0].(*agent.Webhook); !ok {
		t.Errorf("agent = %T", r.Agents[0])
	}
	e, err := r.Connector("tools", "echo")
	if err != nil {
		t.Fatal(err)
	}
	if !e.IsMutating("add") || e.IsMutating("echo") {
		t.Error("mutating flags lost")
	}
	if _, err := r.Connector("tools", "fail"); !errors.As(err, new(*contract.ToolNotAllowedError)) {
		t.Errorf("disallowed tool: %v", err)
	}
	got, err := e.Connector.Call(context.Background(), "echo", map[string]any{"text": "wired"})
	if err != nil || got != "wired" {
		t.Errorf("call = %v, %v", got, err)
	}
	if q, err := r.Model("qwen"); err != nil || q == nil {
		t.Errorf("alias qwen: %v", err)
	}
	if r.DefaultModel != "default" {
		t.Errorf("default model = %q", r.DefaultModel)
	}
	if _, err := r.Model("nope"); !errors.As(err, new(*contract.ModelNotFoundError)) {
		t.Errorf("unknown model: %v", err)
	}
}

func TestHealthCheckFailsAtStartup(t *testing.T) {
	tests := []struct{ name, cfg, want string }{
		{"missing command", `{"gh": {"class": "RemoteMcpConnector", "config": {"command": "skillc-definitely-missing", "framing": "newline"}}}`, `connector "gh" failed its health check`},
		{"dead webhook", `{"substrate": {"agent_connector": {"type": "webhook", "config": {"agents": {"a": {"url": "http://127.0.0.1:1/"}}}}}}`, "agent connector 0 failed its health check"},
		{"webhook without agents", `{"substrate": {"agent_connector": {"type": "webhook", "config": {}}}}`, "needs config.agents"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := build(t, tc.cfg, Settings{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// The same configuration loads when health checks are skipped (lint).
	if _, err := build(t, tests[0].cfg, Settings{SkipHealthCheck: true}); err != nil {
		t.Errorf("SkipHealthCheck: %v", err)
	}
}

// TestLazyDataStore: run and test (LazyConnectors) do not open the data
// store at start-up; a store that cannot be opened fails the first op
// that reaches it, naming the file, while serve's eager check refuses
// to start.
func TestLazyDataStore(t *testing.T) {
	dir := t.TempDir() // a directory where the database file should be
	cfg := `{"substrate": {"data_store": {"type": "sqlite", "config": {"dbPath": ` + strconv.Quote(dir) + `}}}}`
	if _, err := build(t, cfg, Settings{}); err == nil || !strings.Contains(err.Error(), "data store "+dir) {
		t.Fatalf("eager check: err = %v, want the data store named", err)
	}
	r, err := build(t, cfg, Settings{LazyConnectors: true})
	if err != nil {
		t.Fatalf("lazy: %v", err)
	}
	_, err = r.Data.Write(context.Background(), contract.WriteRequest{Content: "x"})
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("first write: err = %v, want an error naming %s", err, dir)
	}
}

func TestConfigErrorsCarryPositions(t *testing.T) {
	_, err := build(t, "{\n  \"gh\": {\"class\": \"StdioMcp\", \"config\": {}}\n}", Settings{})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "connectors.json:2:") || !strings.Contains(err.Error(), "unknown connector class") {
		t.Errorf("err = %v", err)
	}
}

func TestNullSlotsAndCustom(t *testing.T) {
	var log bytes.Buffer
	r, err := build(t, `{"substrate": {"local_model": null, "data_store": null, "agent_connector": {"type": "custom", "module": "./x.js"}}}`, Settings{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if r.Data != nil || len(r.Models) != 0 {
		t.Errorf("null slots wired: data %v models %v", r.Data, r.Models)
	}
	if _, err := r.Model(""); err == nil || !strings.Contains(err.Error(), "no local model") {
		t.Errorf("model with null slot: %v", err)
	}
	if !strings.Contains(log.String(), "custom cannot be loaded") {
		t.Errorf("custom slot not warned: %q", log.String())
	}
}
