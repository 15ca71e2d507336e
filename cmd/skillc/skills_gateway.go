package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/skillcli"
)

// gatewayFlags are the flags of the gateway subcommands beyond the
// registry's.
func gatewayFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "gateway-config", Usage: "JSON file of ranking weights and limits over the defaults (env " + "SKILLSCRIPT_GATEWAY_CONFIG" + ")", EnvVars: []string{"SKILLSCRIPT_GATEWAY_CONFIG"}},
	}
}

// execFlags are the run and attach flags: inputs, the artifact root and
// the runner's command-line overrides (as skillc run).
func execFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "var", Aliases: []string{"v"}, Usage: "input NAME=VALUE (repeatable)"},
		&cli.StringFlag{Name: "vars-file", Usage: "inputs from a JSON, YAML or NAME=VALUE file"},
		&cli.StringFlag{Name: "artifacts", Usage: "directory artifact targets are resolved in (env SKILLSCRIPT_ARTIFACT_ROOT)", EnvVars: []string{"SKILLSCRIPT_ARTIFACT_ROOT"}},
		&cli.StringFlag{Name: "trace-id", Usage: "record the run under this trace id"},
		&cli.StringFlag{Name: "mock", Usage: "answer every connector from this mock file"},
		&cli.StringSliceFlag{Name: "allow-shell", Usage: "binaries added to the shell allowlist"},
		&cli.StringSliceFlag{Name: "allow-fs", Usage: "roots added to the filesystem allowlist"},
	}
}

// gatewaySubcommands are skills discover, attach and run (list is
// extended in skills.go).
func gatewaySubcommands(s *streams, flags []cli.Flag) []*cli.Command {
	gf := append([]cli.Flag(nil), flags...)
	return []*cli.Command{
		{Name: "discover", Usage: "rank the skills that solve a job, with score breakdowns and reasons", ArgsUsage: "INTENT...",
			Flags: append(gf,
				&cli.StringSliceFlag{Name: "domain", Usage: "keep skills of this domain (metadata domain or tag; repeatable)"},
				&cli.StringFlag{Name: "role", Usage: "procedure, utility or sidecar"},
				&cli.IntFlag{Name: "limit", Usage: "results (default 10, at most 100)"},
				&cli.BoolFlag{Name: "include-unavailable", Usage: "keep skills whose connectors are not wired, flagged"}),
			Action: func(c *cli.Context) error { return skillsDiscover(c, s) }},
		{Name: "attach", Usage: "apply an attach|both skill to a recorded run, its output or transcript, or an artifact", ArgsUsage: "SKILL",
			Flags: append(append(gf, execFlags()...),
				&cli.StringFlag{Name: "target-type", Usage: "run, output, transcript, artifact or task", Required: true},
				&cli.StringFlag{Name: "target-ref", Usage: "a trace id, or an artifact path under --artifacts", Required: true}),
			Action: func(c *cli.Context) error { return skillsAttach(c, s) }},
		{Name: "run", Usage: "run a skill directly (skillscripts are traced; packages print their load receipt)", ArgsUsage: "SKILL",
			Flags:  append(gf, execFlags()...),
			Action: func(c *cli.Context) error { return skillsRun(c, s) }},
	}
}

// openGateway builds the gateway over the registry; with exec set it also
// wires a runner and the trace store.
func openGateway(c *cli.Context, s *streams, exec bool) (*gateway.Gateway, func(), error) {
	env, err := openRegistry(c, s)
	if err != nil {
		return nil, nil, err
	}
	o := gateway.Options{IndexCache: env.indexCache}
	if e := env.cfg.Embeddings; e != nil {
		emb, err := skillcli.Embedder(e, env.ws.Connectors)
		if err != nil {
			return nil, nil, cli.Exit(err.Error(), exitUsage)
		}
		o.Embedder = emb
		if env.indexCache != "" {
			// the skill vectors, next to the index, by content digest
			o.VectorCache = strings.TrimSuffix(env.indexCache, ".idx") + ".vec"
		}
	}
	if exec {
		ws := env.ws
		// recorded where skillc run records: the shared Postgres store when
		// SKILLSCRIPT_DATABASE_URL names one, else traces.db; the runner and
		// the store come from the registry's assembly, which closes them
		asm := env.asm
		if asm.TracesConfigured() {
			if st, err := asm.Traces(c.Context, true); err == nil {
				o.Traces = st
			} else {
				fmt.Fprintf(s.err, "skillc: note: no trace store: %v\n", err)
			}
		}
		opts := hostOptions(c, s, ws)
		opts.Approval = runPolicy(s, ws)
		r, err := asm.Runner(c.Context, opts)
		if err != nil {
			_ = asm.Close()
			return nil, nil, err
		}
		o.Executor = &gateway.TracedExecutor{Runner: r, Traces: o.Traces, Secrets: secretEnv()}
		o.ArtifactRoot = c.String("artifacts")
	}
	g := env.asm.Gateway(o)
	return g, func() { _ = env.asm.Close() }, nil
}

// gatewayErr turns a refusal into exit status 1 with its reason; other
// errors are returned as they are.
func gatewayErr(c *cli.Context, s *streams, err error) error {
	r, ok := gateway.ReasonOf(err)
	if !ok {
		return err
	}
	if c.Bool("json") {
		name := "RequestError"
		var ave *gateway.AttachValidationError
		if errors.As(err, &ave) {
			name = "AttachValidationError"
		}
		_ = writeJSON(s, map[string]any{"error": name, "reason": r})
	}
	return cli.Exit(fmt.Sprintf("%s: %s", r.Code, r.Message), exitFindings)
}

func skillsDiscover(c *cli.Context, s *streams) error {
	heapFloorGC(100) // a second discover's heap stays under the floor (DS4)
	g, done, err := openGateway(c, s, false)
	if err != nil {
		return err
	}
	defer done()
	resp, err := g.Discover(c.Context, gateway.DiscoverRequest{Intent: strings.Join(c.Args().Slice(), " "), Domain: c.StringSlice("domain"),
		RoleFilter: c.String("role"), Limit: c.Int("limit"), IncludeUnavailable: c.Bool("include-unavailable")})
	if err != nil {
		return gatewayErr(c, s, err)
	}
	if c.Bool("json") {
		return writeJSON(s, resp)
	}
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCORE\tSKILL\tKIND\tROLE\tEFFECT\tSTATUS\tWHY")
	for _, r := range resp.Results {
		fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Score, r.SkillID, r.Kind, dash(r.Role), dash(r.EffectMode), dash(r.Status), r.Reason)
	}
	tw.Flush()
	if len(resp.Results) == 0 {
		fmt.Fprintln(s.err, "skillc: no skill matches; try other words, --role sidecar, or an attach intent")
	}
	return nil
}

func dash(v string) string {
	if v == "" {
		return "-"
	}
	return v
}

// listAll pages through the gateway's list.
func listAll(ctx context.Context, g *gateway.Gateway, req gateway.ListRequest, paged bool) (*gateway.ListResponse, error) {
	if paged {
		return g.List(ctx, req)
	}
	req.Limit = g.Config().MaxLimit
	out := &gateway.ListResponse{Skills: []gateway.SkillSummary{}}
	for {
		page, err := g.List(ctx, req)
		if err != nil {
			return nil, err
		}
		out.Skills = append(out.Skills, page.Skills...)
		out.Total, out.Truncated, out.Warnings = page.Total, page.Truncated, page.Warnings
		if page.NextOffset == 0 {
			return out, nil
		}
		req.Offset = page.NextOffset
	}
}

func inputsOf(c *cli.Context) (map[string]any, error) {
	in, err := host.ParseInputs(c.StringSlice("var"), c.String("vars-file"))
	if err != nil {
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	if len(in) == 0 {
		return nil, nil
	}
	return in, nil
}

func gatewaySkillArg(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", cli.Exit(c.Command.Name+" takes one skill id or name", exitUsage)
	}
	return c.Args().First(), nil
}

func skillsRun(c *cli.Context, s *streams) error {
	return withGatewayCall(c, s, func(ctx context.Context, g *gateway.Gateway, id string, in map[string]any, opts gateway.RunOptions) error {
		resp, err := g.Run(ctx, gateway.RunRequest{SkillID: id, Inputs: in, Options: opts})
		if err != nil {
			return gatewayErr(c, s, err)
		}
		if c.Bool("json") {
			return writeJSON(s, resp)
		}
		return printExecution(c, s, resp.SkillID, resp.Execution)
	})
}

func skillsAttach(c *cli.Context, s *streams) error {
	return withGatewayCall(c, s, func(ctx context.Context, g *gateway.Gateway, id string, in map[string]any, opts gateway.RunOptions) error {
		res, err := g.Attach(ctx, gateway.AttachRequest{SkillID: id, TargetType: c.String("target-type"), TargetRef: c.String("target-ref"),
			Inputs: in, Options: opts})
		if err != nil {
			return gatewayErr(c, s, err)
		}
		if c.Bool("json") {
			return writeJSON(s, res)
		}
		fmt.Fprintf(s.err, "skillc: attached %s to %s %s at %s\n", res.SkillID, res.TargetType, res.TargetRef, res.AttachedAt)
		return printExecution(c, s, res.SkillID, res.Execution)
	})
}

// withGatewayCall does what run and attach share: the skill id argument,
// the --var inputs, the gateway and a context cancelled by an interrupt.
func withGatewayCall(c *cli.Context, s *streams, call func(ctx context.Context, g *gateway.Gateway, id string, in map[string]any, opts gateway.RunOptions) error) error {
	id, err := gatewaySkillArg(c)
	if err != nil {
		return err
	}
	in, err := inputsOf(c)
	if err != nil {
		return err
	}
	g, done, err := openGateway(c, s, true)
	if err != nil {
		return err
	}
	defer done()
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	return call(ctx, g, id, in, gateway.RunOptions{TraceID: c.String("trace-id")})
}

// printExecution prints a run: a skillscript's output (errors on stderr,
// exit 1 when it failed), or a package's instructions.
func printExecution(_ *cli.Context, s *streams, id string, ex gateway.Execution) error {
	if ex.Kind != "skillscript" {
		fmt.Fprintf(s.err, "skillc: %s is a package: its instructions follow (digest %s)\n", id, ex.Receipt.Digest)
		fmt.Fprint(s.out, ex.Instructions)
		return nil
	}
	if ex.Output != "" {
		fmt.Fprintln(s.out, ex.Output)
	}
	for _, e := range ex.Errors {
		fmt.Fprintf(s.err, "%s: line %d: error %s: %s\n", id, e.Line, e.Kind, e.Message)
	}
	fmt.Fprintf(s.err, "skillc: trace %s (%s)\n", ex.TraceID, ex.Status)
	if ex.Status != "ok" {
		return cli.Exit("", exitFindings)
	}
	return nil
}
