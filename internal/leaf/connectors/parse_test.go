package connectors

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillscript/skillc/ast"
)

func envMap(m map[string]string) EnvFunc {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

var fullEnv = envMap(map[string]string{
	"HOME_DIR": "/srv/ss", "YOUTRACK_TOKEN": "yt-secret",
	"MEMORY_ENDPOINT": "https://mem.example/mcp", "MEMORY_TOKEN": "m-tok",
})

func TestParseFull(t *testing.T) {
	data, err := os.ReadFile("testdata/full.json")
	if err != nil {
		t.Fatal(err)
	}
	f, probs := Parse(data, fullEnv)
	if len(probs) != 0 {
		t.Fatalf("unexpected problems: %v", probs)
	}
	yt := f.Connector("youtrack")
	if yt == nil || yt.Stdio == nil {
		t.Fatalf("youtrack not parsed as stdio: %+v", yt)
	}
	wantArgs := []string{"mcp-remote", "https://example.youtrack.cloud/mcp", "--header", "Authorization:Bearer yt-secret"}
	if diff := cmp.Diff(wantArgs, yt.Stdio.Args); diff != "" {
		t.Errorf("args (env block joins the scope) mismatch (-want +got):\n%s", diff)
	}
	if yt.Stdio.Env["AUTH_HEADER"] != "Bearer yt-secret" || yt.Stdio.Framing != FramingNewline {
		t.Errorf("stdio config = %+v", yt.Stdio)
	}
	if diff := cmp.Diff([]string{"list_issues", "get_issue", "create_comment"}, yt.AllowedTools); diff != "" {
		t.Errorf("allowed_tools: %s", diff)
	}
	if len(yt.Tools) != 2 || yt.Tools[0].Name != "get_issue" || !strings.Contains(string(yt.Tools[0].InputSchema), `"required"`) || !yt.Tools[1].Mutating {
		t.Errorf("tools = %+v", yt.Tools)
	}
	if diff := cmp.Diff([]string{"create_comment"}, yt.MutatingTools); diff != "" {
		t.Errorf("mutating tools: %s", diff)
	}
	mem := f.Connector("memory")
	want := &HTTPConfig{URL: "https://mem.example/mcp", Headers: map[string]string{"Authorization": "Bearer m-tok"}, IdentityHeader: "X-Agent-Id", MaxPoolSize: 64}
	if diff := cmp.Diff(want, mem.HTTP); diff != "" {
		t.Errorf("http config mismatch:\n%s", diff)
	}
	if !mem.Mutating {
		t.Error("memory should be mutating")
	}
	if f.Substrate.SkillStore.Type != "sqlite" || f.Substrate.DataStore.ConfigString("dbPath") != "/srv/ss/data.db" {
		t.Errorf("substrate = %+v", f.Substrate)
	}
	if !f.Substrate.AgentConnector.Set || !f.Substrate.AgentConnector.Null {
		t.Errorf("agent_connector should be explicit null: %+v", f.Substrate.AgentConnector)
	}
	if f.DefaultModel != "default" || f.Model("default").Model != "gemma2:9b" || f.Model("qwen").Model != "qwen2.5:7b" {
		t.Errorf("models = %v default %q", f.Models, f.DefaultModel)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "  \n", "{}"} {
		f, probs := Parse([]byte(in), nil)
		if len(probs) != 0 || len(f.Connectors) != 0 || f.Substrate.DataStore.Set {
			t.Errorf("Parse(%q) = %+v, %v", in, f, probs)
		}
	}
}

func TestParseProblems(t *testing.T) {
	tests := []struct {
		name, in string
		kind     string
		line     int
		col      int
		msg      string
	}{
		{"syntax", "{\n  \"a\": {\"class\": }\n}", kindSyntax, 2, 0, "invalid JSON"},
		{"unknown class", "{\n  \"gh\": {\"class\": \"RemoteMcpConector\", \"config\": {}}\n}", kindUnknownConnectorClass, 2, 19, `did you mean "RemoteMcpConnector"`},
		{"allowed_tools in config", "{\"gh\": {\"class\": \"RemoteMcpConnector\",\n \"config\": {\"command\": \"x\", \"framing\": \"newline\",\n   \"allowed_tools\": [\"a\"]}}}", kindAllowedToolsInConfig, 3, 4, "top level"},
		{"missing env", "{\"gh\": {\"class\": \"HttpMcpConnector\", \"config\": {\"endpoint\": \"${NOPE}\"}}}", kindMissingEnv, 1, 0, "NOPE is not set"},
		{"missing class", `{"gh": {"config": {}}}`, kindMissingField, 1, 2, `no "class"`},
		{"missing command", `{"gh": {"class": "RemoteMcpConnector", "config": {"framing": "lsp"}}}`, kindMissingField, 1, 0, "config.command"},
		{"bad framing", `{"gh": {"class": "RemoteMcpConnector", "config": {"command": "x", "framing": "crlf"}}}`, kindInvalidValue, 1, 0, "framing"},
		{"framing unset", `{"gh": {"class": "RemoteMcpConnector", "config": {"command": "x"}}}`, kindFramingUnset, 1, 0, "framing"},
		{"bad allowed_tools", `{"gh": {"class": "HttpMcpConnector", "config": {"url": "http://x"}, "allowed_tools": "all"}}`, kindInvalidValue, 1, 0, "array of strings"},
		{"entry not object", `{"gh": 3}`, kindInvalidValue, 1, 8, "must be an object"},
		{"bare ollama", `{"substrate": {"local_model": "ollama"}}`, kindUnknownSubstrateType, 1, 0, "object form"},
		{"ollama without tag", `{"substrate": {"local_model": {"type": "ollama", "config": {}}}}`, kindMissingField, 1, 0, "defaultModelTag"},
		{"unknown slot", `{"substrate": {"vector_store": "x"}}`, kindUnknownField, 1, 16, "unknown substrate slot"},
		{"unknown type", `{"substrate": {"data_store": {"type": "postgres"}}}`, kindUnknownSubstrateType, 1, 0, "postgres"},
		{"custom without module", `{"substrate": {"agent_connector": {"type": "custom"}}}`, kindMissingField, 1, 0, "module"},
		{"duplicate", "{\"a\": {\"class\": \"HttpMcpConnector\", \"config\": {\"url\": \"u\"}},\n\"a\": {}}", kindDuplicateKey, 2, 1, "duplicate"},
		{"bad schema", `{"gh": {"class": "HttpMcpConnector", "config": {"url": "u"}, "tools": [{"name": "t", "inputSchema": "x"}]}}`, kindInvalidValue, 1, 0, "input schema"},
		{"tool without name", `{"gh": {"class": "HttpMcpConnector", "config": {"url": "u"}, "tools": [{}]}}`, kindMissingField, 1, 0, "name"},
		{"bad pool", `{"gh": {"class": "HttpMcpConnector", "config": {"url": "u", "maxPoolSize": -1}}}`, kindInvalidValue, 1, 0, "non-negative"},
		{"unknown entry field", `{"gh": {"class": "HttpMcpConnector", "config": {"url": "u"}, "allowedTools": []}}`, kindUnknownField, 1, 0, "unknown field"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := Parse([]byte(tc.in), fullEnv)
			p := findProblem(probs, ruleOf(tc.kind), tc.msg)
			if p == nil {
				t.Fatalf("no %s problem (%s) in %v", tc.kind, ruleOf(tc.kind), probs)
			}
			pos := ast.NewLineTable([]byte(tc.in)).Position(p.Range.From)
			if pos.Line != tc.line || (tc.col != 0 && pos.Column != tc.col) {
				t.Errorf("position = %d:%d, want %d:%d (%v)", pos.Line, pos.Column, tc.line, tc.col, p)
			}
			if !strings.Contains(p.Message, tc.msg) {
				t.Errorf("message %q does not contain %q", p.Message, tc.msg)
			}
			if p.Message != strings.ToLower(p.Message[:1])+p.Message[1:] {
				t.Errorf("message should start lower-case: %q", p.Message)
			}
		})
	}
}

// findProblem returns the first problem of rule whose message contains msg.
func findProblem(ps ast.Diagnostics, rule, msg string) *ast.Diagnostic {
	for _, p := range ps {
		if p.Rule == rule && strings.Contains(p.Message, msg) {
			return p
		}
	}
	return nil
}

func TestAllowedToolsStates(t *testing.T) {
	in := `{
	"all": {"class": "HttpMcpConnector", "config": {"url": "u"}},
	"none": {"class": "HttpMcpConnector", "config": {"url": "u"}, "allowed_tools": []},
	"null": {"class": "HttpMcpConnector", "config": {"url": "u"}, "allowed_tools": null}
	}`
	f, probs := Parse([]byte(in), nil)
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	if f.Connector("all").AllowedTools != nil || f.Connector("null").AllowedTools != nil {
		t.Error("absent/null allowed_tools should allow all (nil)")
	}
	if a := f.Connector("none").AllowedTools; a == nil || len(a) != 0 {
		t.Errorf("[] should be empty non-nil, got %#v", a)
	}
}

func TestLocalModelsAndTimeouts(t *testing.T) {
	in := `{"localModels": {
		"fast": {"type": "OllamaLocalModel", "model": "phi3:mini", "timeoutMs": 1500},
		"gpt": {"type": "openai", "model": "gpt-4o-mini", "apiKey": "${KEY}", "maxTokens": 50}
	}}`
	f, probs := Parse([]byte(in), envMap(map[string]string{"KEY": "sk-1"}))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	if f.DefaultModel != "fast" {
		t.Errorf("default = %q, want first model", f.DefaultModel)
	}
	fast, gpt := f.Model("fast"), f.Model("gpt")
	if fast.Type != "ollama" || fast.Timeout != 1500*time.Millisecond {
		t.Errorf("fast = %+v", fast)
	}
	if gpt.Type != "openai" || gpt.APIKey != "sk-1" || gpt.MaxTokens != 50 {
		t.Errorf("gpt = %+v", gpt)
	}
}

func TestCustomSlot(t *testing.T) {
	in := `{"substrate": {"agent_connector": {"type": "custom", "module": "./a.js", "config": {"endpoint": "${EP}", "n": 3}}}}`
	f, probs := Parse([]byte(in), envMap(map[string]string{"EP": "https://a"}))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	s := f.Substrate.AgentConnector
	if s.Type != "custom" || s.Module != "./a.js" || s.Export != "default" || s.ConfigString("endpoint") != "https://a" || s.Config["n"] != int64(3) {
		t.Errorf("slot = %+v", s)
	}
}

func TestUnderscoreKeysIgnored(t *testing.T) {
	f, probs := Parse([]byte(`{"_comment": 1, "_note": {"class": "Bogus"}}`), nil)
	if len(probs) != 0 || len(f.Connectors) != 0 {
		t.Errorf("got %v %v", f.Connectors, probs)
	}
}

func FuzzParse(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if data, err := os.ReadFile("testdata/" + e.Name()); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"a": {"class": "RemoteMcpConnector", "config": {"command": "${X}"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, probs := Parse(data, fullEnv)
		if file == nil {
			t.Fatal("nil file")
		}
		for _, p := range probs {
			if !p.Range.IsValid() || p.Range.To.Offset() > len(data) || (p.Rule != RuleInvalidConnectorsConfig && p.Rule != RuleUnknownConnectorClass) {
				t.Fatalf("problem out of range or without its rule: %+v (len %d)", p, len(data))
			}
		}
	})
}
