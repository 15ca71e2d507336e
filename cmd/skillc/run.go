package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/mattn/go-isatty"
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// runCommand is "skillc run FILE": lint, then evaluate the skill.
func runCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "check and run a skill; print its output (exit 1 when the skill fails)",
		ArgsUsage: "FILE",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "var", Usage: "input NAME=VALUE (repeatable)"},
			&cli.StringFlag{Name: "vars-file", Usage: "inputs from a JSON/YAML mapping or NAME=VALUE lines"},
			&cli.BoolFlag{Name: "json", Usage: "print the full result as JSON"},
			&cli.BoolFlag{Name: "mechanical", Usage: "walk the whole graph without side effects"},
			&cli.StringSliceFlag{Name: "allow-shell", Usage: "add binaries to the shell allowlist"},
			&cli.StringSliceFlag{Name: "allow-fs", Usage: "add roots to the filesystem allowlist"},
			&cli.BoolFlag{Name: "unsafe-shell", Usage: "allow shell(..., unsafe=true)"},
			&cli.StringFlag{Name: "mock", Usage: "answer connectors, llm and stores from a YAML/JSON mock file"},
			&cli.BoolFlag{Name: "no-check", Usage: "run without linting first"},
			traceFlag(),
		}, append(configFlags(), toolFlags()...)...),
		Action: func(c *cli.Context) error { return runRun(c, s) },
	}
}

func runRun(c *cli.Context, s *streams) error {
	oneShotGC()
	if c.NArg() != 1 {
		return cli.Exit("run takes exactly one FILE", exitUsage)
	}
	path := c.Args().First()
	src := readSource(path, s.in)
	if src.Err != nil {
		return cli.Exit(fmt.Sprintf("%s: %v", src.Path, errNoFile(src.Err)), exitUsage)
	}
	inputs, err := host.ParseInputs(c.StringSlice("var"), c.String("vars-file"))
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	// One parse and one check serve the pre-check, the connector warm-up
	// and the run (a large skill is not parsed three times).
	u := workspace.Parse(src.Path, src.Src)
	f, info := u.File, u.Info
	envs := newEnvCache(c).withSkillDirStore()
	if !c.Bool("no-check") && c.String("mock") == "" {
		envs.withToolWarmup(c) // the pre-check sees the servers' tool schemas
		// ... of the servers this skill calls, and no others
		envs.warm.Connectors = usedConnectors(info)
	}
	env := withRunFlags(c, envs.forFile(path))
	for _, w := range envs.problems() {
		fmt.Fprintln(s.err, "skillc: warning:", w) // ignored project-local policy among them
	}
	printToolsUnverified(s, env)
	if !c.Bool("no-check") {
		// the same unit, with the run's lint context: parsed once
		if cu := env.Compile(src.Path, src.Src); refuseOnErrors(c, s, src.Path, src.Src, cu.Diags) {
			return cli.Exit("", exitFindings)
		}
	}
	res, err := evaluate(c, s, env, src.Path, src.Src, &parsedSkill{f, info, u.Hash()}, inputs)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if err := report(c, s, src.Path, src.Src, res); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if res.Failed() {
		return cli.Exit("", exitFindings)
	}
	return nil
}

// printToolsUnverified prints the info line of each MCP server that did
// not answer the pre-check's tools/list.
func printToolsUnverified(s *streams, env *workspace.Env) {
	fd := env.ConnectorDiagnostics
	fd.Diags = nil
	for _, d := range env.ConnectorDiagnostics.Diags {
		if d.Rule == workspace.RuleToolsUnverified {
			fd.Diags = append(fd.Diags, d)
		}
	}
	for _, line := range config.Format([]ast.FileDiagnostics{fd}) {
		fmt.Fprintln(s.err, "skillc:", line)
	}
}

// refuseOnErrors lints the skill like skillc check and prints the
// error-tier diagnostics, reporting whether there were any.
func refuseOnErrors(c *cli.Context, s *streams, name string, src []byte, diags ast.Diagnostics) bool {
	var errs ast.Diagnostics
	for _, d := range diags {
		if d.Severity == ast.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return false
	}
	if c.Bool("json") {
		// keep stdout a JSON object: the diagnostics, in skillc check's format
		_ = render.JSON(s.out, []ast.FileDiagnostics{{File: name, Src: src, Diags: errs}})
	}
	_ = render.Human(s.err, name, src, errs, render.HumanOptions{Color: colorAuto.enabled(s.err)})
	fmt.Fprintf(s.err, "skillc: not running %s: fix the errors above or pass --no-check\n", name)
	return true
}

// evaluate wires a runner from the configuration and flags and runs.
func evaluate(c *cli.Context, s *streams, env *workspace.Env, name string, src []byte, pre *parsedSkill, inputs map[string]any) (*eval.Result, error) {
	// SIGINT, SIGTERM and SIGHUP end the run the same way: the context
	// ends, the running shell op's process group is killed, and the MCP
	// servers are aborted below.
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	opts := hostOptions(c, s, env)
	opts.Approval = runPolicy(s, env)
	if !c.Bool("json") && isTerminal(s.err) {
		opts.Progress = progressPrinter(s.err)
	}
	h := hostFor(c, env.Config, "")
	defer h.Close() // closes the runner's servers gracefully, unless aborted below
	r, err := h.Runner(ctx, opts)
	if err != nil {
		return nil, err
	}
	res, err := runTraced(ctx, c, h, *r, name, src, pre, inputs)
	if ctx.Err() != nil || (res != nil && res.DeadlineExceeded) {
		// Cut off: kill the servers' process groups now rather than give
		// each its grace period, so shutdown stays within the deadline.
		_ = h.AbortRunner()
	}
	return res, err
}

// hostOptions are the runner options of the configuration plus the
// command-line overrides shared by skillc run and skillc test.
func hostOptions(c *cli.Context, s *streams, env *workspace.Env) host.Options {
	return host.Options{
		Config: env.Config, AllowShell: splitList(c.StringSlice("allow-shell")), AllowFS: splitList(c.StringSlice("allow-fs")),
		UnsafeShell: c.Bool("unsafe-shell"), MockFile: c.String("mock"), SkillsDir: runSkillsDir(c, env), WriteSkillsDir: runWriteDir(c, env),
		Mechanical: c.Bool("mechanical"), Log: s.err, BaseEnv: os.Environ(), User: os.Getenv("USER"),
		Direct: true, // a person runs the skill (DECISIONS 26)
		// servers start when the skill first calls them, never unasked
		LazyConnectors: true,
	}
}

// runSkillsDir is the skill store of the run: --skills, else the skill's
// own directory when nothing configures a store (as skillc test does).
func runSkillsDir(c *cli.Context, env *workspace.Env) string {
	if d := c.String("skills"); d != "" {
		return d
	}
	if env.Config.Origins["skills_dir"] == workspace.OriginSkillDir {
		return env.Config.SkillsDir
	}
	return ""
}

// runWriteDir is where $ skill_write writes when the run reads its
// siblings from the skill's own folder: the configured store
// ($SKILLSCRIPT_HOME/skills), never the folder itself; "" otherwise.
func runWriteDir(c *cli.Context, env *workspace.Env) string {
	if c.String("skills") != "" || env.Config.Origins["skills_dir"] != workspace.OriginSkillDir || env.Config.Home == "" {
		return ""
	}
	return filepath.Join(env.Config.Home, "skills")
}

// report prints the result: JSON, or the canonical output on stdout and
// notices and errors (with their source range) on stderr.
func report(c *cli.Context, s *streams, name string, src []byte, res *eval.Result) error {
	if c.Bool("json") {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	}
	if res.Outputs.Text != "" && !onlyNone(res.Outputs.Kinds) {
		fmt.Fprintln(s.out, res.Outputs.Text)
	}
	for _, n := range res.Notices {
		fmt.Fprintln(s.err, "skillc: note:", n)
	}
	for _, fb := range res.Fallbacks {
		fmt.Fprintf(s.err, "%s: fallback: %s: %s\n", where(name, fb.Range), fb.Op, fb.Reason)
	}
	for _, e := range res.Errors {
		printError(s.err, name, e, "")
	}
	for _, child := range draftChildren(res.Errors) {
		if path := siblingSkill(childDir(c, name), child); path != "" {
			if rel, err := filepath.Rel(".", path); err == nil {
				path = rel
			}
			fmt.Fprintf(s.err, "skillc: hint: approve %s from here with: skillc approve %s\n", child, path)
		}
	}
	return nil
}

// draftMsg names the child in a DraftSkillError's message.
var draftMsg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^skill "([^"]+)" is Draft`) })

// draftChildren lists the Draft children a run was refused, nested
// errors included, once each.
func draftChildren(es []eval.ErrorInfo) []string {
	var out []string
	seen := map[string]bool{}
	var walk func([]eval.ErrorInfo)
	walk = func(es []eval.ErrorInfo) {
		for _, e := range es {
			if m := draftMsg().FindStringSubmatch(e.Message); e.Kind == "DraftSkillError" && m != nil && !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, m[1])
			}
			walk(e.Nested)
		}
	}
	walk(es)
	return out
}

// childDir is where a run's child skills are found: --skills, else the
// skill's own folder.
func childDir(c *cli.Context, name string) string {
	if d := c.String("skills"); d != "" {
		return d
	}
	return filepath.Dir(name)
}

func printError(w io.Writer, name string, e eval.ErrorInfo, indent string) {
	msg := e.Message
	if e.Target != "" {
		msg = fmt.Sprintf("%s (target %s)", msg, e.Target)
	}
	fmt.Fprintf(w, "%s%s: error %s: %s\n", indent, where(name, e.Range), e.Kind, msg)
	for _, n := range e.Nested {
		printError(w, "  (child)", n, indent+"  ")
	}
}

func where(name string, sp *eval.Span) string {
	if sp == nil {
		return name
	}
	return fmt.Sprintf("%s:%d:%d", name, sp.Line, sp.Column)
}

func onlyNone(kinds []string) bool {
	for _, k := range kinds {
		if k != "none" {
			return false
		}
	}
	return len(kinds) > 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// progressPrinter shows targets and ops as they run.
func progressPrinter(w io.Writer) func(eval.Event) {
	return func(ev eval.Event) {
		pad := strings.Repeat("  ", ev.Depth)
		switch ev.Kind {
		case "target":
			fmt.Fprintf(w, "%s▸ %s/%s\n", pad, ev.Skill, ev.Target)
		case "op":
			fmt.Fprintf(w, "%s  %s (line %d)\n", pad, ev.Op, ev.Line)
		case "fallback", "else", "error":
			fmt.Fprintf(w, "%s  %s: %s\n", pad, ev.Kind, firstLine(ev.Detail))
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// usedConnectors lists the connectors the skill's own "$ conn.tool" ops
// name (never nil: an empty list warms no server). Connectors of child
// skills start when a child first calls them.
func usedConnectors(info *check.Info) []string {
	out := []string{}
	for _, op := range info.Ops {
		if d, ok := op.Stmt.(*ast.DispatchStmt); ok && d.Connector != nil && !slices.Contains(out, d.Connector.Name) {
			out = append(out, d.Connector.Name)
		}
	}
	return out
}
