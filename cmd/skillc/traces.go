package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/footprint"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// traceFlag is --trace on|off of skillc run.
func traceFlag() cli.Flag {
	return &cli.StringFlag{Name: "trace", Usage: "record the run in $SKILLSCRIPT_HOME/traces (on|off)", Value: "on"}
}

// traceCommands are the commands reading the trace store.
func traceCommands(s *streams) []*cli.Command {
	return []*cli.Command{firesCommand(s), healthCommand(s), replayCommand(s), shellAuditCommand(s)}
}

// databaseFlag is --database of the trace commands (skillcli.DatabaseFlag).
func databaseFlag() cli.Flag { return skillcli.DatabaseFlag() }

// runTraced runs src with r, recording it unless --trace off or no
// trace directory is known.
// parsedSkill is a source already parsed and checked.
type parsedSkill struct {
	f    *ast.File
	info *check.Info
	hash string // contract.ContentHashOf of the source (the unit's Hash)
}

func runTraced(ctx context.Context, c *cli.Context, h *ihost.Host, r eval.Runner, name string, src []byte, pre *parsedSkill, inputs map[string]any) (*eval.Result, error) {
	mode := c.String("trace")
	if mode != "on" && mode != "off" {
		return nil, fmt.Errorf("--trace %q: want on or off", mode)
	}
	var st trace.Recording = (*trace.Store)(nil)
	if mode == "on" && h.TracesConfigured() {
		rec, err := h.Recorder(ctx)
		if err != nil {
			// a trace store that cannot be opened (a read-only home) must
			// not stop a run; say so and run unrecorded
			fmt.Fprintf(c.App.ErrWriter, "skillc: note: not recording this run: %v (--trace off silences this)\n", err)
		} else {
			st = rec
		}
	}
	r.Env.TriggerType = contract.TriggerCLI
	meta := trace.Run{Trigger: contract.TriggerCLI, TriggerName: name}
	if pre == nil {
		u := workspace.Parse(name, src)
		pre = &parsedSkill{u.File, u.Info, u.Hash()}
	}
	meta.ContentHash = pre.hash // hashed with the parse; the trace need not hash the source again
	res, _, err := st.ExecParsed(ctx, r, meta, name, src, pre.f, pre.info, inputs, secretEnv())
	if sp, ok := st.(*trace.Spool); ok && sp.Crowded(spoolImportAt) {
		// nobody has read the traces for a long time: import the spool
		// into the trace store now (opening it imports) so that it stays
		// bounded; the store is closed with the host
		if _, ierr := h.Traces(ctx, true); ierr != nil {
			fmt.Fprintf(c.App.ErrWriter, "skillc: note: the trace spool holds over %d runs and could not be imported: %v\n", spoolImportAt, ierr)
		}
	}
	return res, err
}

// spoolImportAt is trace.SpoolImportAt; tests lower it.
var spoolImportAt = trace.SpoolImportAt

func secretEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, config.SecretPrefix) && v != "" {
			out = append(out, v)
		}
	}
	return out
}

// cliConfig loads the configuration for the trace commands.
func cliConfig(c *cli.Context) *config.Config {
	return newEnvCache(c).forFile(".").Config
}

func firesCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "fires",
		Usage:     "list recorded runs, newest first",
		ArgsUsage: "[SKILL]",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "since", Usage: "RFC 3339 time or a duration like 24h"},
			&cli.IntFlag{Name: "limit", Value: 50},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			databaseFlag(),
		}, configFlags()...),
		Action: func(c *cli.Context) error {
			h := hostFor(c, cliConfig(c), "")
			defer h.Close()
			st, err := h.Traces(c.Context, false)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			since, err := trace.ParseSince(c.String("since"), time.Now())
			if err != nil {
				return cli.Exit("--since: "+err.Error(), exitUsage)
			}
			runs, err := st.Fires(c.Context, trace.Filter{Skill: c.Args().First(), Since: since, Limit: c.Int("limit")})
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			if c.Bool("json") {
				return printJSON(s.out, runs)
			}
			return printFires(s.out, runs)
		},
	}
}

func printFires(w io.Writer, runs []trace.Run) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STARTED\tTRACE\tSKILL\tTRIGGER\tSTATUS\tMS\tCALLER")
	for _, r := range runs {
		status := r.Status
		if r.DeadlineExceeded {
			status += " (deadline)"
		}
		if len(r.UncertainEffects) > 0 {
			status += " (uncertain)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.StartedAt.Format(time.RFC3339), r.ID, r.Skill, r.Trigger, status, r.DurationMS, r.Caller)
	}
	return tw.Flush()
}

func healthCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "health",
		Usage: "per-skill run health from the trace store",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "skill", Usage: "one skill only"},
			&cli.StringFlag{Name: "since", Usage: "RFC 3339 time or a duration", Value: "24h"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			databaseFlag(),
		}, configFlags()...),
		Action: func(c *cli.Context) error {
			h := hostFor(c, cliConfig(c), "")
			defer h.Close()
			st, err := h.Traces(c.Context, false)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			since, err := trace.ParseSince(c.String("since"), time.Now())
			if err != nil {
				return cli.Exit("--since: "+err.Error(), exitUsage)
			}
			hs, err := st.Health(c.Context, c.String("skill"), since)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			if c.Bool("json") {
				return printJSON(s.out, hs)
			}
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SKILL\tRUNS\tOK\tFAILED\tABORTED\tREFUSED\tDEADLINE\tUNCERTAIN\tREFUSED_OPS\tP50_MS\tP99_MS\tLAST")
			for _, h := range hs {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", h.Skill, h.Runs, h.OK, h.Failed, h.Aborted, h.Refused,
					h.DeadlineExceeded, h.Uncertain, h.Refusals, h.P50MS, h.P99MS, h.LastStatus)
			}
			return tw.Flush()
		},
	}
}

func replayCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "re-run a recorded run mechanically (no side effects) with its recorded source and inputs",
		ArgsUsage: "TRACE-ID",
		Flags:     append([]cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"}, traceFlag(), databaseFlag()}, configFlags()...),
		Action:    func(c *cli.Context) error { return runReplay(c, s) },
	}
}

func runReplay(c *cli.Context, s *streams) error {
	if c.NArg() != 1 {
		return cli.Exit("replay takes exactly one TRACE-ID", exitUsage)
	}
	env := newEnvCache(c).forFile(".")
	h := hostFor(c, env.Config, "")
	defer h.Close()
	st, err := h.Traces(c.Context, false)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	rec, src, err := st.Get(c.Context, c.Args().First())
	if err != nil {
		return cli.Exit(fmt.Sprintf("trace %s: %v", c.Args().First(), err), exitUsage)
	}
	if src == "" {
		return cli.Exit(fmt.Sprintf("trace %s: its source was not recorded", rec.ID), exitUsage)
	}
	for k, v := range rec.Inputs {
		if v == trace.Redacted {
			fmt.Fprintf(s.err, "skillc: note: input %s was redacted in the trace; replaying with the placeholder\n", k)
		}
	}
	opts := hostOptions(c, s, env)
	opts.Mechanical = true
	r, err := h.Runner(c.Context, opts) // h.Close closes it
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	r.Env.TriggerType = "replay"
	res, err := runTraced(c.Context, c, h, *r, rec.Skill, []byte(src), nil, rec.Inputs)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	fmt.Fprintf(s.err, "skillc: replay of %s (%s, originally %s)\n", rec.ID, rec.Skill, rec.Status)
	if err := report(c, s, rec.Skill, []byte(src), res); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if res.Failed() {
		return cli.Exit("", exitFindings)
	}
	return nil
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// auditReport is the JSON output of skillc shell-audit.
type auditReport struct {
	SkillsDir string              `json:"skills_dir"`
	Scanned   int                 `json:"scanned"`
	Binaries  map[string][]string `json:"binaries"`
	Dynamic   []string            `json:"dynamic_shell"`
	Allowlist string              `json:"allowlist"`
	Blocked   map[string]int      `json:"blocked_attempts"`
}

func shellAuditCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "shell-audit",
		Usage: "list the shell binaries the skill store uses (a ready-to-paste SKILLSCRIPT_SHELL_ALLOWLIST) and the refused attempts recorded in traces",
		Flags: append([]cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}, databaseFlag()}, configFlags()...),
		Action: func(c *cli.Context) error {
			cfg := cliConfig(c)
			h := hostFor(c, cfg, "")
			defer h.Close()
			rep, err := shellAudit(c.Context, cfg, h)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			if c.Bool("json") {
				return printJSON(s.out, rep)
			}
			printAudit(s.out, rep)
			return nil
		},
	}
}

func shellAudit(ctx context.Context, cfg *config.Config, h *ihost.Host) (*auditReport, error) {
	rep := &auditReport{SkillsDir: cfg.SkillsDir, Binaries: map[string][]string{}, Dynamic: []string{}, Blocked: map[string]int{}}
	paths, _ := filepath.Glob(filepath.Join(cfg.SkillsDir, "*.skill.md"))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rep.Scanned++
		name := strings.TrimSuffix(filepath.Base(p), ".skill.md")
		fp := footprint.OfSource(string(src))
		for _, b := range fp.ShellBinaries {
			rep.Binaries[b] = append(rep.Binaries[b], name)
		}
		if fp.DynamicShell > 0 {
			rep.Dynamic = append(rep.Dynamic, name)
		}
	}
	bins := make([]string, 0, len(rep.Binaries))
	for b := range rep.Binaries {
		bins = append(bins, b)
	}
	sort.Strings(bins)
	rep.Allowlist = strings.Join(bins, ",")
	if st, err := h.Traces(ctx, false); err == nil {
		att, err := st.BlockedShell(ctx, time.Time{}, 0)
		if err != nil {
			return nil, err
		}
		for _, a := range att {
			rep.Blocked[a.Binary]++
		}
	}
	return rep, nil
}

func printAudit(w io.Writer, rep *auditReport) {
	fmt.Fprintf(w, "Scanned %d skill(s) under %s.\n\n", rep.Scanned, rep.SkillsDir)
	if len(rep.Binaries) == 0 {
		fmt.Fprintln(w, "No shell binaries used.")
	} else {
		fmt.Fprintln(w, "Binaries used:")
		for _, b := range strings.Split(rep.Allowlist, ",") {
			fmt.Fprintf(w, "  %s  (in: %s)\n", b, strings.Join(rep.Binaries[b], ", "))
		}
		fmt.Fprintf(w, "\nReady-to-paste .env entry:\n\n  SKILLSCRIPT_SHELL_ALLOWLIST=%s\n", rep.Allowlist)
		if _, ok := rep.Binaries["bash"]; ok {
			fmt.Fprintln(w, "\n  'bash' is listed because a skill uses shell(..., unsafe=true); that also needs SKILLSCRIPT_ENABLE_UNSAFE_SHELL=true.")
		}
	}
	if len(rep.Dynamic) > 0 {
		fmt.Fprintf(w, "\nSkills whose binary is only known at run time: %s\n", strings.Join(rep.Dynamic, ", "))
	}
	if len(rep.Blocked) > 0 {
		fmt.Fprintln(w, "\nRefused at run time (from traces):")
		keys := make([]string, 0, len(rep.Blocked))
		for b := range rep.Blocked {
			keys = append(keys, b)
		}
		sort.Strings(keys)
		for _, b := range keys {
			fmt.Fprintf(w, "  %s  %d attempt(s)\n", b, rep.Blocked[b])
		}
	}
}
