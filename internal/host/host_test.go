package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	evalhost "github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/skillrt"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/leaf/config"
)

func TestResolvePrecedence(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Layers
		want string
		src  Source
	}{
		{"all set: the flag wins", Layers{Flag: "f", FlagSet: true, Env: "e", EnvSet: true, Config: "c", Default: "d"}, "f", FromFlag},
		{"a flag given empty clears", Layers{Flag: "", FlagSet: true, Env: "e", EnvSet: true, Config: "c", Default: "d"}, "", FromFlag},
		{"no flag: the environment", Layers{Env: "e", EnvSet: true, Config: "c", Default: "d"}, "e", FromEnv},
		{"an empty environment variable is unset", Layers{Env: "", EnvSet: true, Config: "c", Default: "d"}, "c", FromConfig},
		{"the flag's value without FlagSet is its default, not a choice", Layers{Flag: "x", Config: "c", Default: "d"}, "c", FromConfig},
		{"nothing set: the default", Layers{Default: "d"}, "d", FromDefault},
		{"nothing at all", Layers{}, "", FromDefault},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, src := Resolve(tc.l)
			if got != tc.want || src != tc.src {
				t.Errorf("Resolve(%+v) = %q, %s; want %q, %s", tc.l, got, src, tc.want, tc.src)
			}
		})
	}
}

// The trace store is opened once, only when asked, and a reader never
// creates it; what the spool holds counts as recorded.
func TestHostTracesOnceAndLazily(t *testing.T) {
	dir := t.TempDir()
	h := Open(Config{TraceDir: dir, HostName: "h1"})
	if _, err := os.Stat(filepath.Join(dir, trace.FileName)); err == nil {
		t.Fatal("Open created the trace store")
	}
	if _, err := h.Traces(context.Background(), false); !errors.Is(err, ErrNoTraces) {
		t.Fatalf("reading an empty trace directory = %v, want ErrNoTraces", err)
	}
	if _, err := os.Stat(filepath.Join(dir, trace.FileName)); err == nil {
		t.Fatal("a reader created the trace store")
	}
	if _, err := trace.OpenSpool(dir); err != nil {
		t.Fatal(err)
	}
	a, err := h.Traces(context.Background(), false)
	if err != nil {
		t.Fatalf("with a spool: %v", err)
	}
	b, err := h.Traces(context.Background(), true)
	if err != nil || a != b {
		t.Errorf("second Traces = %p, %v; want the same store %p", b, err, a)
	}
	if err := h.Close(); err != nil {
		t.Error(err)
	}
}

// Registry, Skills and Gateway are built once over one registry.
func TestHostSkillsShareOneRegistry(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "hello")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: hello\ndescription: Says hello when asked to greet someone.\n---\n\nSay hello.\n"
	if err := os.WriteFile(filepath.Join(pkg, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	h := Open(Config{Registry: registry.Options{Roots: []registry.Root{{Dir: root, Origin: "project"}}}})
	defer h.Close()
	reg := h.Registry()
	if reg != h.Registry() {
		t.Error("Registry built twice")
	}
	if _, ok := reg.Lookup("hello"); !ok {
		t.Fatalf("registry names = %v, want hello", reg.Names())
	}
	if h.Skills() != h.Skills() {
		t.Error("Skills built twice")
	}
	if out, err := h.Skills().Load("t", skillrt.LoadInput{Names: []string{"hello"}}); err != nil || len(out.ActiveSkills) != 1 {
		t.Errorf("Skills().Load(hello) = %v, %v", out, err)
	}
	if g := h.Gateway(gateway.Options{}); g != h.Gateway(gateway.Options{}) {
		t.Error("Gateway built twice")
	}
}

// The runner is built once, on first use, whatever later callers pass,
// and Close closes it (once). (The trigger service and the dashboard:
// internal/host/service.)
func TestHostRunnerOnce(t *testing.T) {
	ctx := context.Background()
	home, store := t.TempDir(), t.TempDir()
	child := "# Skill: child\n# Returns: GREETING\n\ndefault: main\n\nmain:\n    $set GREETING = \"hello\"\n"
	if err := os.WriteFile(filepath.Join(store, "child.skill.md"), []byte(child), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { return home, k == "SKILLSCRIPT_HOME" }})
	h := Open(Config{TraceDir: t.TempDir(), HostName: "h1"})

	r, err := h.Runner(ctx, evalhost.Options{Config: cfg, SkillsDir: store})
	if err != nil {
		t.Fatal(err)
	}
	// a second caller gets the same runner, even with options that could
	// not build one
	if r2, err := h.Runner(ctx, evalhost.Options{}); err != nil || r2 != r {
		t.Fatalf("second Runner = %p, %v; want the first (%p)", r2, err, r)
	}
	parent := "# Skill: parent\n\ndefault: main\n\nmain:\n    execute_skill(name=\"child\") -> C\n    emit(text=\"${C.GREETING}\")\n"
	res, err := evalhost.RunSource(ctx, r, "parent.skill.md", []byte(parent), nil)
	if err != nil || res.Failed() || res.Outputs.Text != "hello" {
		t.Fatalf("run through the host's runner: %v %v %q", err, res.Errors, res.Outputs.Text)
	}

	if err := h.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// AbortRunner kills the runner's connectors; Close then leaves it alone.
func TestHostAbortRunner(t *testing.T) {
	ctx := context.Background()
	h := Open(Config{})
	if err := h.AbortRunner(); err != nil {
		t.Fatalf("AbortRunner without a runner: %v", err)
	}
	home := t.TempDir()
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { return home, k == "SKILLSCRIPT_HOME" }})
	if _, err := h.Runner(ctx, evalhost.Options{Config: cfg, SkillsDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if err := h.AbortRunner(); err != nil {
		t.Fatalf("AbortRunner: %v", err)
	}
	if h.closeRunner != nil {
		t.Fatal("after AbortRunner, Close would close the runner a second time")
	}
	if err := h.Close(); err != nil {
		t.Fatalf("Close after AbortRunner: %v", err)
	}
}
