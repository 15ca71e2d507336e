package spectest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/wantmark"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/syntax"
)

const specDir = "../../../testdata/spec"

// ignoredRules are left out of the comparison: unbounded-no-deadline is an
// advisory on almost every external op of the spec's examples (which carry
// no timeouts); testdata/lint/unbounded-no-deadline pins it.
var ignoredRules = map[string]bool{"unbounded-no-deadline": true}

// skipMarker matches "# spec-skip: reason": a known bug outside this
// package's reach (see README.md); the file is skipped with the reason.
var skipMarker = regexp.MustCompile(`#\s*spec-skip:\s*(.+)`)

func specFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(specDir, "*.skill.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no spec examples in %s: %v", specDir, err)
	}
	return files
}

// loadConfig resolves a configuration with no config files, SKILLSCRIPT_HOME
// in a scratch directory, the given extra environment (secrets) and the
// spec skill store.
func loadConfig(t *testing.T, env map[string]string) *config.Config {
	t.Helper()
	home := t.TempDir()
	lookup := func(k string) (string, bool) {
		if k == "SKILLSCRIPT_HOME" {
			return home, true
		}
		v, ok := env[k]
		return v, ok
	}
	cfg, probs := config.Load(config.LoadOptions{Env: lookup})
	if config.HasErrors(probs) {
		t.Fatalf("config: %v", probs)
	}
	abs, err := filepath.Abs(filepath.Join(specDir, "skills"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.SkillsDir = abs
	if cfg.Origins == nil {
		cfg.Origins = map[string]string{}
	}
	cfg.Origins["skills_dir"] = "test: testdata/spec/skills" // an explicit store (decision F6)
	return cfg
}

// TestSpecDiagnostics lints every example and compares the (line, rule)
// pairs of its diagnostics, every severity, with its markers; a file
// without markers must be diagnostic-free.
func TestSpecDiagnostics(t *testing.T) {
	cfg := loadConfig(t, nil)
	for _, path := range specFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if m := skipMarker.FindSubmatch(src); m != nil {
				t.Skip(string(m[1]))
			}
			ctx := workspace.ContextFrom(cfg, nil, path)
			f, _, ds := lint.Check(path, src, ctx, lint.Options{ReportUnusedSuppressions: true, Rules: rulesets.All()})
			var got []string
			for _, d := range ds {
				if !ignoredRules[d.Rule] {
					got = append(got, fmt.Sprintf("%d %s", f.Lines.Position(d.Range.From).Line, d.Rule))
				}
			}
			sort.Strings(got)
			if want := wantmark.Expectations(src); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("diagnostics differ\n got: %v\nwant: %v\n%s", got, want, describe(f.Lines, ds))
			}
		})
	}
}

func describe(lt *ast.LineTable, ds ast.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		pos := lt.Position(d.Range.From)
		fmt.Fprintf(&b, "  %d:%d %s %s: %s\n", pos.Line, pos.Column, d.Severity, d.Rule, d.Message)
	}
	return b.String()
}

// runSpec is a parsed NN-name.run sidecar.
type runSpec struct {
	mock       string
	inputs     []string
	allowShell []string
	allowFS    []string
	fakes      map[string]string // binary name → fixture file
	secrets    map[string]string
	unsafe     bool
	mechanical bool
	user       string
	status     string
}

func parseRunSpec(t *testing.T, path string) *runSpec {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rs := &runSpec{fakes: map[string]string{}, secrets: map[string]string{}, status: "ok"}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s:%d: want key: value", path, i+1)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if err := rs.set(k, v); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
	}
	return rs
}

func (rs *runSpec) set(k, v string) error {
	switch k {
	case "mock":
		rs.mock = filepath.Join(specDir, v)
	case "var":
		rs.inputs = append(rs.inputs, v)
	case "allow-shell":
		rs.allowShell = append(rs.allowShell, v)
	case "allow-fs":
		rs.allowFS = append(rs.allowFS, v)
	case "fake":
		name, fixture, ok := strings.Cut(v, "=")
		if !ok {
			return fmt.Errorf("fake: want BINARY=FIXTURE")
		}
		rs.fakes[name] = filepath.Join(specDir, fixture)
	case "secret":
		name, val, ok := strings.Cut(v, "=")
		if !ok {
			return fmt.Errorf("secret: want NAME=VALUE")
		}
		rs.secrets[name] = val
	case "unsafe":
		rs.unsafe = v == "true"
	case "mechanical":
		rs.mechanical = v == "true"
	case "user":
		rs.user = v
	case "status":
		rs.status = v
	default:
		return fmt.Errorf("unknown key %q", k)
	}
	return nil
}

// installFakes puts a fake of every named binary first on PATH: a fixture
// that starts with "#!" is the fake itself, anything else is what the fake
// prints.
func installFakes(t *testing.T, fakes map[string]string) {
	t.Helper()
	if len(fakes) == 0 {
		return
	}
	dir := t.TempDir()
	for name, fixture := range fakes {
		data, err := os.ReadFile(fixture)
		if err != nil {
			t.Fatal(err)
		}
		script := data
		if !strings.HasPrefix(string(data), "#!") {
			abs, _ := filepath.Abs(fixture)
			script = []byte("#!/bin/sh\ncat '" + abs + "'\n")
		}
		if err := os.WriteFile(filepath.Join(dir, name), script, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestSpecRuns runs every example that has a .run sidecar and compares its
// canonical output with the .out file. Secret values given in the sidecar
// must not appear anywhere in the result. The tests share PATH (fake
// binaries), so they run one after another.
func TestSpecRuns(t *testing.T) {
	runs, err := filepath.Glob(filepath.Join(specDir, "*.run"))
	if err != nil || len(runs) == 0 {
		t.Fatalf("no runnable spec examples: %v", err)
	}
	for _, runPath := range runs {
		base := strings.TrimSuffix(runPath, ".run")
		t.Run(filepath.Base(base), func(t *testing.T) { runExample(t, base) })
	}
}

func runExample(t *testing.T, base string) {
	rs := parseRunSpec(t, base+".run")
	src, err := os.ReadFile(base + ".skill.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(base + ".out")
	if err != nil {
		t.Fatal(err)
	}
	installFakes(t, rs.fakes)
	env := map[string]string{}
	for k, v := range rs.secrets {
		env[config.SecretPrefix+k] = v
	}
	cfg := loadConfig(t, env)
	inputs, err := host.ParseInputs(rs.inputs, "")
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, cfg, rs, base+".skill.md", src, inputs)
	if got := strings.TrimSuffix(res.Outputs.Text, "\n"); got != strings.TrimSuffix(string(want), "\n") {
		t.Errorf("output differs\n got: %q\nwant: %q\nerrors: %v", got, strings.TrimSuffix(string(want), "\n"), res.Errors)
	}
	if res.Status != rs.status {
		t.Errorf("status %s, want %s; errors: %v", res.Status, rs.status, res.Errors)
	}
	blob, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for name, secret := range rs.secrets {
		if strings.Contains(string(blob), secret) {
			t.Errorf("the value of secret %s leaked into the result: %s", name, blob)
		}
	}
}

func run(t *testing.T, cfg *config.Config, rs *runSpec, name string, src []byte, inputs map[string]any) *eval.Result {
	t.Helper()
	ctx := context.Background()
	r, closeReg, err := host.NewRunner(ctx, host.Options{
		Config: cfg, AllowShell: rs.allowShell, AllowFS: rs.allowFS, UnsafeShell: rs.unsafe,
		MockFile: rs.mock, SkillsDir: cfg.SkillsDir, Mechanical: rs.mechanical,
		BaseEnv: []string{"PATH=" + os.Getenv("PATH")}, User: rs.user,
		Direct: true, // as skillc run: a person runs the example
	})
	if err != nil {
		t.Fatal(err)
	}
	defer closeReg()
	f, ds := syntax.Parse(name, src)
	if ds.HasErrors() {
		t.Fatalf("parse errors: %v", ds)
	}
	res, err := r.Run(ctx, f, check.Check(f), inputs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
