package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
	"github.com/skillscript/skillc/internal/render"
	"github.com/urfave/cli/v2"
)

func checkCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "parse and lint skills; exit 1 when any has errors",
		ArgsUsage: "[PATH...]  (files, SKILL.md packages, directories searched for both, or - for stdin; default .)",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "human", Usage: "output format: human, json, sarif or github"},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "lowest severity that fails the check: error, warning or info"},
			&cli.BoolFlag{Name: "fix", Usage: "apply machine-applicable fixes to the files"},
			&cli.BoolFlag{Name: "diff", Usage: "print the fixes as a unified diff instead of applying them"},
			&cli.BoolFlag{Name: "no-color", Usage: "never colour the output"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print the throughput (files/s, lines/s, workers) on stderr"},
		}, append(append(skillMDFlags(), configFlags()...), toolFlags()...)...),
		Action: func(c *cli.Context) error { return runCheck(c, s) },
	}
}

// checkOptions are the parsed flags of skillc check.
type checkOptions struct {
	format string
	failOn ast.Severity
	fix    bool
	diff   bool
	pkg    agentskills.Options // validation of SKILL.md packages
}

func parseCheckOptions(c *cli.Context) (o checkOptions, err error) {
	o = checkOptions{format: c.String("format"), fix: c.Bool("fix"), diff: c.Bool("diff")}
	switch o.format {
	case "human", "json", "sarif", "github":
	default:
		return o, cli.Exit(fmt.Sprintf("unknown --format %q: want human, json, sarif or github", o.format), exitUsage)
	}
	sev, ok := ast.ParseSeverity(c.String("fail-on"))
	if !ok || sev == 0 {
		return o, cli.Exit(fmt.Sprintf("unknown --fail-on %q: want error, warning or info", c.String("fail-on")), exitUsage)
	}
	o.failOn = sev
	o.pkg, err = skillMDOptions(c)
	return o, err
}

func runCheck(c *cli.Context, s *streams) error {
	opts, err := parseCheckOptions(c)
	if err != nil {
		return err
	}
	args := c.Args().Slice()
	if len(args) == 0 {
		args = []string{"."}
	}
	paths, err := collectInputs(args, true)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	env := newEnvCache(c).withToolWarmup(c)
	start := time.Now()
	results, ioErr := checkAll(paths, s, env, opts.pkg)
	if c.Bool("verbose") {
		printThroughput(s, results, time.Since(start))
	}
	for _, w := range env.problems() {
		fmt.Fprintln(s.err, "skillc: warning:", w)
	}
	if opts.fix || opts.diff {
		recheck := func(name string, src []byte) ast.Diagnostics {
			if isSkillMD(name) {
				return recheckSkillMD(name, src, env.forFile(name), opts.pkg)
			}
			return analyze(name, src, env.forFile(name))
		}
		if err := applyFixes(results, opts.diff, s, recheck); err != nil {
			return err
		}
	}
	if err := writeReport(s, results, opts.format, useColor(c, s)); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if ioErr != nil {
		return cli.Exit(ioErr.Error(), exitUsage)
	}
	if failing(results, opts.failOn) {
		return cli.Exit("", exitFindings)
	}
	return nil
}

// checkAll checks the files in parallel, keeping their order. Files the
// lint ignore globs match are skipped; the diagnostics of each
// connectors.json in use are added once.
func checkAll(paths []string, s *streams, env *envCache, pkg agentskills.Options) ([]ast.FileDiagnostics, error) {
	var todo []string
	for _, p := range paths {
		if !env.forFile(p).Ignored(p) {
			todo = append(todo, p)
		}
	}
	results := make([]ast.FileDiagnostics, len(todo))
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < checkWorkers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i], errs[i] = checkOne(todo[i], s, env, pkg)
			}
		}()
	}
	for i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()
	var first error
	var kept []ast.FileDiagnostics
	for i, r := range results {
		if errs[i] != nil {
			if first == nil {
				first = errs[i]
			}
			continue
		}
		kept = append(kept, r)
	}
	return append(kept, env.connectorResults()...), first
}

// checkWorkers is the size of checkAll's worker pool: one per usable core.
func checkWorkers() int { return runtime.GOMAXPROCS(0) }

// printThroughput writes one line on stderr: how many files and lines
// were checked in how long, per second, and by how many workers.
func printThroughput(s *streams, results []ast.FileDiagnostics, d time.Duration) {
	files, lines := 0, 0
	for _, r := range results {
		if r.Src == nil && r.File == "" {
			continue
		}
		files++
		lines += bytes.Count(r.Src, []byte("\n"))
	}
	secs := max(d.Seconds(), 1e-9)
	fmt.Fprintf(s.err, "skillc: checked %d file(s), %d line(s) in %s: %.0f files/s, %.0f lines/s (%d workers)\n",
		files, lines, d.Round(time.Millisecond), float64(files)/secs, float64(lines)/secs, checkWorkers())
}

func checkOne(path string, s *streams, env *envCache, pkg agentskills.Options) (ast.FileDiagnostics, error) {
	if isSkillMD(path) {
		return checkSkillMD(path, env.forFile(path), pkg)
	}
	src := readSource(path, s.in)
	if src.Err != nil {
		return ast.FileDiagnostics{}, fmt.Errorf("%s: %v", src.Path, errNoFile(src.Err))
	}
	ds := analyze(src.Path, src.Src, env.forFile(path))
	return ast.FileDiagnostics{File: src.Path, Src: src.Src, Diags: ds}, nil
}

func failing(results []ast.FileDiagnostics, failOn ast.Severity) bool {
	for _, r := range results {
		for _, d := range r.Diags {
			if d.Severity != 0 && d.Severity <= failOn {
				return true
			}
		}
	}
	return false
}

func useColor(c *cli.Context, s *streams) bool {
	if c.Bool("no-color") || os.Getenv("NO_COLOR") != "" || color.NoColor {
		return false
	}
	f, ok := s.out.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

func writeReport(s *streams, results []ast.FileDiagnostics, format string, colour bool) error {
	switch format {
	case "json":
		return render.JSON(s.out, results)
	case "sarif":
		return render.SARIF(s.out, results, toolInfo())
	case "github":
		return render.GitHub(s.out, results)
	}
	if err := render.HumanAll(s.out, results, render.HumanOptions{Color: colour, Context: true}); err != nil {
		return err
	}
	sum := render.Summarize(results)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d file(s) checked: %d error(s), %d warning(s), %d info(s)\n", sum.Files, sum.Errors, sum.Warnings, sum.Infos)
	_, err := s.err.Write(b.Bytes())
	return err
}
