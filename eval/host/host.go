// Package host wires an eval.Runner for a host process (skillc run and
// test, the runtime host): the registry from connectors.json or a mock
// file, the skill store, the shell and filesystem gates from the
// allowlists, secrets and limits from the configuration, and the loader
// that compiles child skills. Package eval is the language and knows none
// of this; only hosts and tests import this package.
package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/fsgate"
	"github.com/skillscript/skillc/eval/mock"
	"github.com/skillscript/skillc/eval/shellexec"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/eval/substrate/wire"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/workspace"
)

// Options configure a Runner for a host process (skillc run, the
// language server's previews, the runtime host) from the operator's
// configuration plus command-line overrides.
type Options struct {
	Config      *config.Config // resolved configuration (required)
	AllowShell  []string       // binaries added to the shell allowlist
	AllowFS     []string       // roots added to the filesystem allowlist
	UnsafeShell bool           // enable shell(..., unsafe=true)
	MockFile    string         // --mock: every connector answered from this file
	SkillsDir   string         // --skills: the skill store for execute_skill and inline
	// WriteSkillsDir, when set, is where $ skill_write writes while
	// SkillsDir (the skill's own folder) is only read (skillstore.Overlay).
	WriteSkillsDir string
	Mechanical     bool
	Log            io.Writer        // wiring warnings; nil discards
	Progress       func(eval.Event) // live progress; nil for none
	BaseEnv        []string         // the environment child processes start from (os.Environ())
	User           string           // ${USER}
	// Approval is the approval posture root and child skills are gated
	// with; nil resolves it from Config (see Policy).
	Approval *approval.Policy
	// LazyConnectors skips the start-up health check of MCP connectors:
	// a server starts only when the skill first calls one of its tools
	// (skillc run and test never spawn servers a skill does not use);
	// the embedded data store is likewise opened by its first op.
	LazyConnectors bool
	// Direct says a person runs the root skill (skillc run, skillc test);
	// otherwise (triggers, MCP, events) the root is gated like a composed
	// skill: a Draft that performs effects is refused (DECISIONS 26).
	Direct bool
}

// NewRunner wires an eval.Runner: the registry from connectors.json (or the
// embedded defaults: SQLite data store and filesystem skill store under
// $SKILLSCRIPT_HOME) or from the mock file, the shell and filesystem gates
// from the allowlists, and secrets from SKILLSCRIPT_SECRET_*. The returned
// close function releases the registry.
func NewRunner(ctx context.Context, o Options) (*eval.Runner, func() error, error) {
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
	shellAllow := append(append([]string(nil), cfg.ShellAllowlist...), o.AllowShell...)
	if err := checkShellUnderFS(gate, shellAllow, os.Getenv("PATH")); err != nil {
		reg.Close()
		return nil, nil, err
	}
	policy := o.policy()
	r := &eval.Runner{
		Registry: reg, FS: gate, Secrets: cfg.Secret, Mechanical: o.Mechanical,
		MaxDepth: cfg.MaxRecursionDepth, DefaultTimeout: cfg.AbsoluteTimeout, MaxDeadline: cfg.MaxDeadline,
		MaxValueBytes: int64(cfg.MaxValueBytes), MaxOps: int64(cfg.MaxOps), MaxMemoryBytes: int64(cfg.MaxMemoryBytes),
		Progress: o.Progress, Env: eval.Env{User: o.User}, Load: GatedLoad(policy, o.Mechanical), Admit: Admit(policy, o.reach()),
		Shell: &shellexec.Runner{
			Allowlist:    shellAllow,
			EnableUnsafe: cfg.EnableUnsafeShell || o.UnsafeShell,
			Env:          cfg.Environ(o.BaseEnv),
		},
	}
	return r, reg.Close, nil
}

// hostRegistry builds the registry from the mock file or connectors.json.
func hostRegistry(ctx context.Context, o Options) (*contract.Registry, error) {
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
	if _, shared := reg.Skills.(*skillstore.Postgres); shared && filepath.Clean(dir) == filepath.Clean(cfg.SkillsDir) {
		dir = "" // a cluster's shared store replaces the home skill directory
	}
	if dir != "" {
		store, err := skillstore.NewFS(dir, nil)
		if err != nil {
			reg.Close()
			return nil, err
		}
		reg.Skills = store
		if w := o.WriteSkillsDir; w != "" && filepath.Clean(w) != filepath.Clean(dir) {
			ws, err := skillstore.NewFS(w, nil)
			if err != nil {
				reg.Close()
				return nil, err
			}
			reg.Skills = &skillstore.Overlay{Read: store, Target: ws, OnWrite: func(name string) {
				if o.Log != nil {
					fmt.Fprintf(o.Log, "skillc: note: $ skill_write stored %s in %s (the configured skill store; --skills DIR writes elsewhere)\n", name, w)
				}
			}}
		}
	}
	forceDraft(reg, cfg)
	return reg, nil
}

// reach is how the runner's root skills are reached.
func (o Options) reach() approval.Reach {
	if o.Direct {
		return approval.Direct
	}
	return approval.Composed
}

// policy is the approval posture of the runner.
func (o Options) policy() approval.Policy {
	if o.Approval != nil {
		return *o.Approval
	}
	p, _ := Policy(o.Config)
	return p
}

func wireRegistry(ctx context.Context, o Options) (*contract.Registry, error) {
	cfg := o.Config
	home := cfg.Home
	if home == "" {
		home = wire.DefaultHome(cfg.Getenv)
	}
	s := wire.Settings{Home: home, Env: cfg.Getenv, Log: o.Log, LazyConnectors: o.LazyConnectors}
	switch {
	case cfg.ConnectorsPath != "" && cfg.ConnectorsTrusted:
		return wire.Load(ctx, cfg.ConnectorsPath, s)
	case cfg.ConnectorsPath != "":
		// A connectors.json found next to the skill is not the operator's:
		// its commands never run (DECISIONS 25).
		if o.Log != nil {
			fmt.Fprintf(o.Log, "warning: %s is not used to run skills: connectors come only from --connectors or $SKILLSCRIPT_HOME/%s\n", cfg.ConnectorsPath, config.ConnectorsFileName)
		}
	}
	return wire.Build(ctx, nil, s)
}

// Load compiles a stored child skill: its compiled unit (workspace.Parse:
// tree and checker facts, cached by name and content hash, so a child
// called again is not parsed again). A source with parse errors is
// refused with its diagnostics. It is the eval.Loader every host runner
// uses. The evaluator only reads the tree and the facts (its per-run state
// is kept in maps of its own), so runs may share them.
func Load(_ context.Context, name string, src []byte) (*ast.File, *check.Info, error) {
	u := workspace.Parse(name+".skill.md", src)
	if u.HasErrors() {
		return nil, nil, u.ParsedCopy()
	}
	return u.File, u.Info, nil
}

// RunSource compiles (workspace.Parse) and runs a skill source with r.
func RunSource(ctx context.Context, r *eval.Runner, name string, src []byte, inputs map[string]any) (*eval.Result, error) {
	u := workspace.Parse(name, src)
	return r.Run(ctx, u.File, u.Info, inputs)
}
