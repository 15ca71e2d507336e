package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/skilltest"
	"github.com/skillscript/skillc/internal/dap"
	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/workspace"
)

// dapCommand is `skillc dap`: the Debug Adapter Protocol server on
// stdin/stdout. Only protocol frames go to stdout; the host's log goes to
// stderr.
func dapCommand() *cli.Command {
	return &cli.Command{
		Name:  "dap",
		Usage: "run the skillscript debugger (Debug Adapter Protocol) on stdin/stdout",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "stdio", Usage: "accepted for editor compatibility (stdio is the only transport)"},
		},
		Action: func(c *cli.Context) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			srv := dap.NewServer(dap.Config{Launch: func(ctx context.Context, a dap.LaunchArgs) (*dap.Program, error) {
				return dapLaunch(ctx, c, os.Stderr, a)
			}}, os.Stdin, os.Stdout)
			if err := srv.Serve(ctx); err != nil {
				return cli.Exit(fmt.Sprintf("skillc dap: %v", err), 1)
			}
			return nil
		},
	}
}

// dapLaunch builds the run of a launch request: the program with its
// mocks (or mechanically when it has none and real effects were not
// asked for), or the replay of a recorded trace.
func dapLaunch(ctx context.Context, c *cli.Context, logw io.Writer, a dap.LaunchArgs) (*dap.Program, error) {
	var program string
	if a.Program != "" {
		abs, err := filepath.Abs(a.Program)
		if err != nil {
			return nil, err
		}
		program = abs
	}
	env := newEnvCache(c).forFile(orDot(program))
	opts := host.Options{
		Config: env.Config, Log: logw, BaseEnv: os.Environ(), User: os.Getenv("USER"),
		Direct: true, LazyConnectors: true,
	}
	if program != "" {
		// child skills come from the program's folder, as in skillc test
		opts.SkillsDir = filepath.Dir(program)
	}
	if a.Trace != "" {
		return dapReplay(ctx, opts, program, a)
	}
	src, err := os.ReadFile(program)
	if err != nil {
		return nil, err
	}
	var notes []string
	opts.MockFile = a.Mocks
	if opts.MockFile == "" {
		opts.MockFile = skilltest.SidecarMock(program)
	}
	switch {
	case opts.MockFile != "":
		notes = append(notes, "connectors, models and stores answered from "+opts.MockFile)
	case !a.RealEffects:
		opts.Mechanical = true
		notes = append(notes, `no mock file: running mechanically (no effect is performed); give "mocks" or set "realEffects": true`)
	default:
		notes = append(notes, "running with real effects (realEffects is set)")
	}
	r, closeReg, err := host.NewRunner(ctx, opts)
	if err != nil {
		return nil, err
	}
	u := workspace.Parse(program, src)
	if u.Parsed.HasErrors() {
		closeReg()
		return nil, fmt.Errorf("%s does not parse: %s", program, u.Parsed[0].Message)
	}
	r.Env.TriggerType = contract.TriggerCLI
	return &dap.Program{Runner: r, File: u.File, Info: u.Info, Inputs: a.Inputs, Notes: notes, Close: func() { closeReg() }}, nil
}

// dapReplay builds the replay of the run recorded under a.Trace: its
// source and inputs, its connector and model results fed back; no
// connector is contacted, shell and file ops are refused.
func dapReplay(ctx context.Context, opts host.Options, program string, a dap.LaunchArgs) (*dap.Program, error) {
	env, envSet := os.LookupEnv(ihost.EnvDatabaseURL)
	db, _ := ihost.Resolve(ihost.Layers{Flag: a.Database, FlagSet: a.Database != "", Env: env, EnvSet: envSet})
	asm := ihost.Open(ihost.Config{TraceDir: opts.Config.TraceDir, DatabaseURL: db})
	defer asm.Close()
	st, err := asm.Traces(ctx, false)
	if err != nil {
		return nil, err
	}
	rec, src, err := st.Get(ctx, a.Trace)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", a.Trace, err)
	}
	if src == "" {
		return nil, fmt.Errorf("trace %s: its source was not recorded", rec.ID)
	}
	calls, err := st.ToolCalls(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	r, closeReg, err := host.NewRunner(ctx, opts)
	if err != nil {
		return nil, err
	}
	r.Registry = dap.NewReplay(calls).Registry(r.Registry)
	r.Shell, r.FS = nil, nil
	r.Env.TriggerType = "replay"
	name := rec.Skill
	notes := []string{fmt.Sprintf("replaying trace %s of %s (recorded %s, status %s): %d recorded tool result(s) fed back, no connector is called",
		rec.ID, rec.Skill, rec.StartedAt.Format("2006-01-02 15:04:05Z07:00"), rec.Status, len(calls))}
	if program != "" {
		if b, err := os.ReadFile(program); err == nil && contract.ContentHashOf(b) == rec.ContentHash {
			name = program // breakpoints set in the file apply
		} else {
			notes = append(notes, program+" differs from the recorded source: stepping through the recorded source")
		}
	}
	inputs := map[string]any{}
	for k, v := range rec.Inputs {
		if v == trace.Redacted {
			notes = append(notes, "input "+k+" was redacted in the trace; replaying with the placeholder")
		}
		inputs[k] = v
	}
	u := workspace.Parse(name, []byte(src))
	if u.Parsed.HasErrors() {
		closeReg()
		return nil, fmt.Errorf("the recorded source does not parse: %s", u.Parsed[0].Message)
	}
	return &dap.Program{Runner: r, File: u.File, Info: u.Info, Inputs: inputs, Notes: notes, Close: func() { closeReg() }}, nil
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}
