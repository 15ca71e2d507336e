package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/toolcache"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/leaf/connectors"
)

func TestCheckConnectors(t *testing.T) {
	src := []byte(`{
  "gh": {"class": "HttpConector", "config": {"url": "https://x"}},
  "yt": {"class": "HttpMcpConnector", "config": {"url": "https://y", "allowed_tools": ["a"]}}
}`)
	_, probs := connectors.Parse(src, nil)
	fd := CheckConnectors("connectors.json", src, probs, lintOptions(config.LintSettings{}))
	lines := ast.NewLineTable(src)
	got := map[string]int{}
	for _, d := range fd.Diags {
		got[d.Rule] = lines.Position(d.Range.From).Line
	}
	if got["unknown-connector-class"] != 2 {
		t.Errorf("unknown-connector-class at line %d, want 2 (%v)", got["unknown-connector-class"], fd.Diags)
	}
	if got["invalid-connectors-config"] != 3 {
		t.Errorf("invalid-connectors-config at line %d, want 3 (%v)", got["invalid-connectors-config"], fd.Diags)
	}
}

// writeFiles creates files (path relative to dir → content).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadLintSettings(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		config.ConfigFileName: `{"lint": {"severity": {"undeclared-var": "info"}, "disable": ["orphan-target"], "ignore": ["gen/**"]}}`,
	})
	env := Load(dir, LoadOptions{Home: t.TempDir()})
	o := env.LintOptions
	if sev, on := o.Effective("undeclared-var", ast.Error); sev != ast.Info || !on {
		t.Errorf("undeclared-var: %s %v", sev, on)
	}
	if _, on := o.Effective("orphan-target", ast.Warning); on {
		t.Error("orphan-target should be off")
	}
	if !o.ReportUnusedSuppressions {
		t.Error("unused suppressions are not reported")
	}
	if !env.Ignored(filepath.Join(dir, "gen/a/b.skill.md")) || env.Ignored(filepath.Join(dir, "src/b.skill.md")) || env.Ignored("-") {
		t.Error("Ignored does not follow the ignore globs")
	}
	// The globs are relative to the configuration file's directory, not to
	// the current one: from gen/, "a/b.skill.md" is still gen/a/b.skill.md.
	if err := os.MkdirAll(filepath.Join(dir, "gen", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "gen"))
	if !env.Ignored("a/b.skill.md") || !env.Ignored("./a/b.skill.md") {
		t.Error("a relative path from a subdirectory is not matched against the configuration's directory")
	}
	t.Chdir(dir)
	if !env.Ignored("gen/a/b.skill.md") || env.Ignored("src/b.skill.md") {
		t.Error("Ignored does not follow the ignore globs from the configuration's directory")
	}
}

func TestLoadReportsConfigAndConnectorProblems(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		config.ConfigFileName:     `{"securedMode": "nope"}`,
		config.ConnectorsFileName: "{\n  \"gh\": {\"class\": \"HttpConector\", \"config\": {\"url\": \"https://x\"}}\n}",
	})
	env := Load(dir, LoadOptions{Home: t.TempDir()})
	cfgd := env.ConfigDiagnostics
	if len(cfgd) != 1 || cfgd[0].File != filepath.Join(dir, config.ConfigFileName) || len(cfgd[0].Diags) != 1 || !strings.Contains(cfgd[0].Diags[0].Message, "securedMode") {
		t.Errorf("config diagnostics = %+v", cfgd)
	}
	cd := env.ConnectorDiagnostics
	if cd.File != filepath.Join(dir, config.ConnectorsFileName) || len(cd.Diags) != 1 || cd.Diags[0].Rule != "unknown-connector-class" {
		t.Errorf("connector diagnostics = %+v", cd)
	}
	if env.Lint == nil || !env.Lint.ConnectorsKnown {
		t.Errorf("lint context does not know connectors.json was read: %+v", env.Lint)
	}
}

func TestCachedToolsReachTheLinter(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	writeFiles(t, dir, map[string]string{
		config.ConnectorsFileName: `{"gh": {"class": "HttpMcpConnector", "config": {"url": "http://127.0.0.1:1/mcp"}}}`,
	})
	cache := toolcache.Cache{Dir: cacheDir}
	if err := cache.Store(toolcache.Key("gh", "http", "u"), "gh", []contract.Tool{{Name: "create_issue", Mutating: true}}); err != nil {
		t.Fatal(err)
	}
	env := Load(dir, LoadOptions{Home: t.TempDir(), ToolCacheDir: cacheDir})
	c := env.Lint.Connectors["gh"]
	if c == nil || !c.ToolsKnown || c.Tools["create_issue"] == nil || !c.Tools["create_issue"].Mutating {
		t.Fatalf("lint connector = %+v", c)
	}
	tools, ok := env.Tools("gh")
	if !ok || len(tools) != 1 || tools[0].Name != "create_issue" {
		t.Errorf("Tools = %v, %v", tools, ok)
	}
	if _, ok := env.Tools("nope"); ok {
		t.Error("an unknown connector has tools")
	}
}

func TestWithRunFlags(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{config.ConfigFileName: `{"shellAllowlist": ["ls"]}`})
	env := Load(dir, LoadOptions{Home: t.TempDir(), ConfigPath: filepath.Join(dir, config.ConfigFileName)})
	run := env.WithRunFlags([]string{"jq"}, nil, true)
	if got := strings.Join(run.Lint.ShellAllowlist, ","); got != "ls,jq" || !run.Lint.UnsafeShell {
		t.Errorf("run context: allowlist %q, unsafe %v", got, run.Lint.UnsafeShell)
	}
	if got := strings.Join(env.Lint.ShellAllowlist, ","); got != "ls" || env.Lint.UnsafeShell {
		t.Errorf("WithRunFlags changed the original: %q %v", got, env.Lint.UnsafeShell)
	}
}
