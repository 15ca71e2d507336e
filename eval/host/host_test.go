package host_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/internal/leaf/config"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseInputs(t *testing.T) {
	cases := []struct {
		name, file, text string
		pairs            []string
		want             map[string]any
	}{
		{"pairs only", "", "", []string{"A=1", " B =x=y"}, map[string]any{"A": "1", "B": "x=y"}},
		{"json file, pair wins", "v.json", `{"A": "file", "N": 3}`, []string{"A=flag"}, map[string]any{"A": "flag", "N": float64(3)}},
		{"yaml file", "v.yaml", "A: a\nL: [1, 2]\n", nil, map[string]any{"A": "a", "L": []any{float64(1), float64(2)}}},
		{"lines file", "v.env", "# comment\n\nA=1\nB = two\n", nil, map[string]any{"A": "1", "B": " two"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := ""
			if c.file != "" {
				path = writeFile(t, c.file, c.text)
			}
			got, err := host.ParseInputs(c.pairs, path)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("inputs (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseInputsErrors(t *testing.T) {
	bad := writeFile(t, "v.env", "A=1\nnot a pair\n")
	cases := []struct {
		pairs []string
		file  string
		want  string
	}{
		{[]string{"novalue"}, "", `--var "novalue": want NAME=VALUE`},
		{[]string{"=x"}, "", `--var "=x": want NAME=VALUE`},
		{nil, bad, bad + ":2: want NAME=VALUE"},
		{nil, filepath.Join(t.TempDir(), "missing.json"), "vars file: open"},
		{nil, writeFile(t, "v.json", "{not: [json"), "v.json: "},
	}
	for _, c := range cases {
		_, err := host.ParseInputs(c.pairs, c.file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseInputs(%q, %q) = %v, want an error containing %q", c.pairs, c.file, err, c.want)
		}
	}
}

func TestLoad(t *testing.T) {
	f, info, err := host.Load(context.Background(), "child", []byte("# Skill: child\n\ndefault: main\n\nmain:\n    emit(text=\"hi\")\n"))
	if err != nil || f == nil || info == nil {
		t.Fatalf("Load = %v, %v, %v; want a checked file", f, info, err)
	}
	_, _, err = host.Load(context.Background(), "broken", []byte("# Skill: broken\n\nmain:\n    emit(text=\n"))
	var ds ast.Diagnostics
	if !errors.As(err, &ds) || !ds.HasErrors() {
		t.Fatalf("Load of a broken skill: %v, want its parse diagnostics", err)
	}
}

// TestNewRunnerRunsChildSkills runs a parent that calls a stored child
// through a host runner: the registry's skill store and the host loader.
func TestNewRunnerRunsChildSkills(t *testing.T) {
	dir := t.TempDir()
	child := "# Skill: child\n# Returns: GREETING\n\ndefault: main\n\nmain:\n    $set GREETING = \"hello\"\n"
	if err := os.WriteFile(filepath.Join(dir, "child.skill.md"), []byte(child), 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) {
		return home, k == "SKILLSCRIPT_HOME"
	}})
	r, closeReg, err := host.NewRunner(context.Background(), host.Options{Config: cfg, SkillsDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer closeReg()
	parent := "# Skill: parent\n\ndefault: main\n\nmain:\n    execute_skill(name=\"child\") -> C\n    emit(text=\"${C.GREETING}\")\n"
	res, err := host.RunSource(context.Background(), r, "parent.skill.md", []byte(parent), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed() || res.Outputs.Text != "hello" {
		t.Errorf("output %q, errors %v; want hello", res.Outputs.Text, res.Errors)
	}
}

func TestNewRunnerNeedsConfig(t *testing.T) {
	if _, _, err := host.NewRunner(context.Background(), host.Options{}); err == nil {
		t.Fatal("NewRunner without a configuration succeeded")
	}
}

// TestBareRunnerRefusesChildSkills: without a loader the evaluator has no
// way to compile a child and says so.
func TestBareRunnerRefusesChildSkills(t *testing.T) {
	dir := t.TempDir()
	store, err := skillstore.NewFS(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "child.skill.md"), []byte("# Skill: child\n\ndefault: main\n\nmain:\n    emit(text=\"x\")\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &eval.Runner{Registry: &contract.Registry{Skills: store}}
	res, err := host.RunSource(context.Background(), r, "p.skill.md", []byte("# Skill: p\n\ndefault: main\n\nmain:\n    execute_skill(name=\"child\") -> C\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed() || len(res.Errors) == 0 || !strings.Contains(res.Errors[0].Message, "no skill loader") {
		t.Errorf("errors %v; want the missing loader reported", res.Errors)
	}
}

// TestEvalLeavesTheHostOut pins the layering: the evaluator core links no
// substrate, no parser and no configuration.
func TestEvalLeavesTheHostOut(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "list", "-deps", "github.com/skillscript/skillc/eval").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{
			"modernc.org/", "github.com/modelcontextprotocol/", "go.yaml.in/", "gopkg.in/yaml",
			"github.com/skillscript/skillc/syntax", "github.com/skillscript/skillc/internal/leaf/config",
			"github.com/skillscript/skillc/eval/mock", "github.com/skillscript/skillc/eval/substrate/",
			"github.com/jackc/pgx", "go.opentelemetry.io/",
		} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("eval depends on %s", dep)
			}
		}
	}
}

// TestBoundDefaultsAgree keeps the configuration's documented defaults of
// the run's resource bounds equal to the evaluator's.
func TestBoundDefaultsAgree(t *testing.T) {
	if config.DefaultMaxValueBytes != eval.DefaultMaxValueBytes || config.DefaultMaxOps != eval.DefaultMaxOps || config.DefaultMaxMemoryBytes != eval.DefaultMaxMemoryBytes {
		t.Errorf("config defaults %d/%d/%d, eval defaults %d/%d/%d", config.DefaultMaxValueBytes, config.DefaultMaxOps, config.DefaultMaxMemoryBytes,
			eval.DefaultMaxValueBytes, eval.DefaultMaxOps, eval.DefaultMaxMemoryBytes)
	}
}

// TestLoadSharesCompiledUnits: Load hands out the cached compiled unit of
// a child (the same tree for the same source), and runs sharing that tree
// at once stay correct (the race detector watches for a write to it).
func TestLoadSharesCompiledUnits(t *testing.T) {
	dir := t.TempDir()
	child := "# Skill: sharedchild\n# Vars: WHO=\"x\"\n# Returns: GREETING\n\ndefault: main\n\nmain:\n    $set GREETING = \"hello ${WHO}\"\n"
	if err := os.WriteFile(filepath.Join(dir, "sharedchild.skill.md"), []byte(child), 0o600); err != nil {
		t.Fatal(err)
	}
	f1, i1, err := host.Load(context.Background(), "sharedchild", []byte(child))
	if err != nil {
		t.Fatal(err)
	}
	f2, i2, err := host.Load(context.Background(), "sharedchild", []byte(child))
	if err != nil {
		t.Fatal(err)
	}
	if f1 != f2 || i1 != i2 {
		t.Fatal("Load compiled the same child source twice")
	}
	home := t.TempDir()
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { return home, k == "SKILLSCRIPT_HOME" }})
	r, closeReg, err := host.NewRunner(context.Background(), host.Options{Config: cfg, SkillsDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer closeReg()
	const n = 8
	errs := make(chan string, n)
	for i := range n {
		go func() {
			who := strings.Repeat("w", i+1)
			parent := "# Skill: parent\n\ndefault: main\n\nmain:\n    execute_skill(name=\"sharedchild\", inputs={\"WHO\": \"" + who + "\"}) -> C\n    emit(text=\"${C.GREETING}\")\n"
			res, err := host.RunSource(context.Background(), r, "parent.skill.md", []byte(parent), nil)
			switch {
			case err != nil:
				errs <- err.Error()
			case res.Failed() || res.Outputs.Text != "hello "+who:
				errs <- "output " + res.Outputs.Text + ", want hello " + who
			default:
				errs <- ""
			}
		}()
	}
	for range n {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
