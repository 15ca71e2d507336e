package eval

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/fsgate"
	"github.com/skillscript/skillc/eval/mock"
	"github.com/skillscript/skillc/eval/shellexec"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/eval/substrate/wire"
	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/config"
	"github.com/skillscript/skillc/syntax"
	"go.yaml.in/yaml/v3"
)

// HostOptions configure a Runner for a host process (skillc run, the
// language server's previews, the runtime host) from the operator's
// configuration plus command-line overrides.
type HostOptions struct {
	Config      *config.Config // resolved configuration (required)
	AllowShell  []string       // binaries added to the shell allowlist
	AllowFS     []string       // roots added to the filesystem allowlist
	UnsafeShell bool           // enable shell(..., unsafe=true)
	MockFile    string         // --mock: every connector answered from this file
	SkillsDir   string         // --skills: the skill store for execute_skill and inline
	Mechanical  bool
	Log         io.Writer   // wiring warnings; nil discards
	Progress    func(Event) // live progress; nil for none
	BaseEnv     []string    // the environment child processes start from (os.Environ())
	User        string      // ${USER}
}

// NewHostRunner wires a Runner: the registry from connectors.json (or the
// embedded defaults: SQLite data store and filesystem skill store under
// $SKILLSCRIPT_HOME) or from the mock file, the shell and filesystem gates
// from the allowlists, and secrets from SKILLSCRIPT_SECRET_*. The returned
// close function releases the registry.
func NewHostRunner(ctx context.Context, o HostOptions) (*Runner, func() error, error) {
	cfg := o.Config
	if cfg == nil {
		return nil, nil, fmt.Errorf("eval: host needs a configuration")
	}
	reg, err := hostRegistry(ctx, o)
	if err != nil {
		return nil, nil, err
	}
	gate, err := fsgate.New("", append(append([]string(nil), cfg.FSAllowlist...), o.AllowFS...))
	if err != nil {
		reg.Close()
		return nil, nil, err
	}
	r := &Runner{
		Registry: reg, FS: gate, Secrets: cfg.Secret, Mechanical: o.Mechanical,
		MaxDepth: cfg.MaxRecursionDepth, DefaultTimeout: cfg.AbsoluteTimeout, MaxDeadline: cfg.MaxDeadline,
		Progress: o.Progress, Env: Env{User: o.User},
		Shell: &shellexec.Runner{
			Allowlist:    append(append([]string(nil), cfg.ShellAllowlist...), o.AllowShell...),
			EnableUnsafe: cfg.EnableUnsafeShell || o.UnsafeShell,
			Env:          cfg.Environ(o.BaseEnv),
		},
	}
	return r, reg.Close, nil
}

// hostRegistry builds the registry from the mock file or connectors.json.
func hostRegistry(ctx context.Context, o HostOptions) (*contract.Registry, error) {
	cfg := o.Config
	var reg *contract.Registry
	dir := o.SkillsDir
	if o.MockFile != "" {
		m, err := mock.Load(o.MockFile)
		if err != nil {
			return nil, err
		}
		reg = m.Registry()
		if dir == "" && !m.Handles(mock.OpSkillRead) && !m.Handles(mock.OpSkillWrite) {
			dir = cfg.SkillsDir // the mock answers no skill ops: keep the real store
		}
	} else {
		var err error
		if reg, err = wireRegistry(ctx, o); err != nil {
			return nil, err
		}
	}
	if dir != "" {
		store, err := skillstore.NewFS(dir, nil)
		if err != nil {
			reg.Close()
			return nil, err
		}
		reg.Skills = store
	}
	return reg, nil
}

func wireRegistry(ctx context.Context, o HostOptions) (*contract.Registry, error) {
	cfg := o.Config
	home := cfg.Home
	if home == "" {
		home = wire.DefaultHome(cfg.Getenv)
	}
	s := wire.Settings{Home: home, Env: cfg.Getenv, Log: o.Log}
	if cfg.ConnectorsPath != "" {
		return wire.Load(ctx, cfg.ConnectorsPath, s)
	}
	return wire.Build(ctx, nil, s)
}

// RunSource parses, checks and runs a skill source with r.
func (r *Runner) RunSource(ctx context.Context, name string, src []byte, inputs map[string]any) (*Result, error) {
	f, _ := syntax.Parse(name, src)
	return r.Run(ctx, f, check.Check(f), inputs)
}

// ParseInputs builds run inputs from a vars file (a JSON or YAML mapping,
// or KEY=VALUE lines) and then --var KEY=VALUE pairs, which win.
func ParseInputs(pairs []string, varsFile string) (map[string]any, error) {
	in := map[string]any{}
	if varsFile != "" {
		if err := readVarsFile(varsFile, in); err != nil {
			return nil, err
		}
	}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--var %q: want NAME=VALUE", p)
		}
		in[strings.TrimSpace(k)] = v
	}
	return in, nil
}

func readVarsFile(path string, in map[string]any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("vars file: %w", err)
	}
	text := strings.TrimSpace(string(data))
	if strings.HasPrefix(text, "{") || filepath.Ext(path) == ".yaml" || filepath.Ext(path) == ".yml" || filepath.Ext(path) == ".json" {
		var m map[string]any
		if err := yaml.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("vars file %s: %v", path, err)
		}
		for k, v := range m {
			in[k] = value.Normalize(v)
		}
		return nil
	}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("vars file %s:%d: want NAME=VALUE", path, i+1)
		}
		in[strings.TrimSpace(k)] = v
	}
	return nil
}
