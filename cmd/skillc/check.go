package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
	"github.com/skillscript/skillc/internal/baseline"
	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/urfave/cli/v2"
)

func checkCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "parse and lint skills; exit 1 when any has errors",
		ArgsUsage: "[PATH...]  (files, SKILL.md packages, directories searched for both, quoted glob patterns such as 'skills/**/*.skill.md', or - for stdin; default .)",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "human", Usage: "output format: human, json, sarif, github or gitlab"},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "lowest severity that fails the check: error, warning or info"},
			&cli.BoolFlag{Name: "fix", Usage: "apply machine-applicable fixes to the files"},
			&cli.BoolFlag{Name: "diff", Usage: "print the fixes as a unified diff on stdout (the diagnostics go to stderr) instead of applying them"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print the diagnostics only: no summary, notes or progress"},
			colorFlag(),
			&cli.BoolFlag{Name: "no-color", Hidden: true, Usage: "same as --color=never"},
			stdinFilenameFlag(),
			&cli.StringFlag{Name: "baseline", Usage: "report only findings not recorded in this baseline file"},
			&cli.StringFlag{Name: "write-baseline", Usage: "record every current finding in this baseline file and exit 0"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print the throughput (files/s, lines/s, workers) on stderr"},
		}, append(append(skillMDFlags(), configFlags()...), toolFlags()...)...),
		Action: func(c *cli.Context) error { return runCheck(c, s) },
	}
}

// checkOptions are the parsed flags of skillc check.
type checkOptions struct {
	format    string
	failOn    ast.Severity
	fix       bool
	diff      bool
	quiet     bool
	stdinName string              // the name standard input is checked under
	pkg       agentskills.Options // validation of SKILL.md packages
}

func parseCheckOptions(c *cli.Context) (o checkOptions, err error) {
	o = checkOptions{format: c.String("format"), fix: c.Bool("fix"), diff: c.Bool("diff"), quiet: c.Bool("quiet"), stdinName: stdinDisplayName(c)}
	switch o.format {
	case "human", "json", "sarif", "github", "gitlab":
	default:
		return o, cli.Exit(fmt.Sprintf("unknown --format %q: want human, json, sarif, github or gitlab", o.format), exitUsage)
	}
	sev, ok := ast.ParseSeverity(c.String("fail-on"))
	if !ok || sev == 0 {
		return o, cli.Exit(fmt.Sprintf("unknown --fail-on %q: want error, warning or info", c.String("fail-on")), exitUsage)
	}
	o.failOn = sev
	if _, err := colorMode(c); err != nil {
		return o, err
	}
	if c.String("baseline") != "" && c.String("write-baseline") != "" {
		return o, cli.Exit("--baseline and --write-baseline exclude each other", exitUsage)
	}
	o.pkg, err = skillMDOptions(c)
	return o, err
}

func runCheck(c *cli.Context, s *streams) error {
	oneShotGC()
	opts, err := parseCheckOptions(c)
	if err != nil {
		return err
	}
	args := c.Args().Slice()
	implicit := len(args) == 0
	if implicit {
		args = []string{"."}
	}
	in, err := collectInputs(args, true)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	// A path the user gave that matches nothing is a mistake (exit 2); the
	// implicit "." of a directory without skills is only worth a warning.
	unmatched := warnUnmatched(s, in) && !implicit
	// The store the run would use: the skill's own directory unless
	// --skills or the configuration names one (decision C13).
	env := newEnvCache(c).withSkillDirStore().withToolWarmup(c).withFileProbe().withListings(in.listed).withSharedSources()
	start := time.Now()
	results, ioErr := checkAll(in, s, env, opts)
	env.sources.Done() // --fix may rewrite the files: later reads see the disk
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
		if err := applyFixes(results, opts, s, recheck); err != nil {
			return err
		}
	}
	if path := c.String("write-baseline"); path != "" {
		n, err := baseline.Write(path, results)
		if err != nil {
			return cli.Exit(fmt.Sprintf("--write-baseline: %v", err), exitUsage)
		}
		if !opts.quiet {
			fmt.Fprintf(s.err, "skillc: recorded %d finding(s) in %s\n", n, path)
		}
		return nil
	}
	if path := c.String("baseline"); path != "" {
		bl, err := baseline.Load(path)
		if err != nil {
			if os.IsNotExist(err) {
				err = fmt.Errorf("%s: no such file or directory", path)
			}
			return cli.Exit(fmt.Sprintf("--baseline: %v", err), exitUsage)
		}
		if n := bl.Filter(results); n > 0 && !opts.quiet {
			fmt.Fprintf(s.err, "skillc: %d finding(s) recorded in %s not shown\n", n, path)
		}
	}
	// With --diff the patch alone goes to stdout; the report to stderr.
	out := s.out
	if opts.diff {
		out = s.err
	}
	colour, _ := colorMode(c)
	if err := writeReport(s, out, results, opts, colour.enabled(out)); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if ioErr != nil {
		return cli.Exit(ioErr.Error(), exitUsage)
	}
	if unmatched {
		return cli.Exit("", exitUsage)
	}
	if failing(results, opts.failOn) {
		return cli.Exit("", exitFindings)
	}
	return nil
}

// checkAll checks the files in parallel, keeping their order. Files the
// lint ignore globs match are skipped; the diagnostics of each
// connectors.json in use are added once.
func checkAll(in inputs, s *streams, env *envCache, opts checkOptions) ([]ast.FileDiagnostics, error) {
	var todo []string
	for _, p := range in.paths {
		e := env.forFile(p)
		if !e.Ignored(p) {
			todo = append(todo, p)
			continue
		}
		if in.explicit[p] {
			if !opts.quiet {
				fmt.Fprintf(s.err, "skillc: note: %s matches lint.ignore in %s; checked because it was named explicitly\n", p, e.Config.ConfigPath)
			}
			todo = append(todo, p)
		}
	}
	results := make([]ast.FileDiagnostics, len(todo))
	errs := make([]error, len(todo))
	// The workers take the next file from a counter rather than a
	// channel, and the calling goroutine is one of them: no hand-off, no
	// wake-up per file (decision CF3).
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(todo) {
				return
			}
			results[i], errs[i] = checkOne(todo[i], s, env, opts)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < min(checkWorkers(), len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
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

func checkOne(path string, s *streams, env *envCache, opts checkOptions) (ast.FileDiagnostics, error) {
	if isSkillMD(path) {
		return checkSkillMD(path, env.forFile(path), opts.pkg)
	}
	src := env.readSource(path, s.in)
	envPath := path
	if path == "-" {
		src.Path = opts.stdinName
		if opts.stdinName != stdinName {
			envPath = opts.stdinName
		}
	}
	if src.Err != nil {
		return ast.FileDiagnostics{}, fmt.Errorf("%s: %v", src.Path, errNoFile(src.Err))
	}
	ds := analyze(src.Path, src.Src, env.forFile(envPath))
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

func writeReport(s *streams, out io.Writer, results []ast.FileDiagnostics, opts checkOptions, colour bool) error {
	// One write per buffer-full rather than one per line: a corpus of
	// small skills prints hundreds of lines (decision CF2).
	bw := bufio.NewWriterSize(out, 16<<10)
	if err := writeFindings(bw, results, opts, colour); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if opts.quiet || !humanFormat(opts.format) {
		return nil
	}
	sum := render.Summarize(results)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d file(s) checked: %d error(s), %d warning(s), %d info(s)\n", sum.Files, sum.Errors, sum.Warnings, sum.Infos)
	_, err := s.err.Write(b.Bytes())
	return err
}

// humanFormat reports whether format is the human one (any name not
// machine-readable), the only one followed by a summary line.
func humanFormat(format string) bool {
	switch format {
	case "json", "sarif", "github", "gitlab":
		return false
	}
	return true
}

// writeFindings writes the findings in the format of opts to out.
func writeFindings(out io.Writer, results []ast.FileDiagnostics, opts checkOptions, colour bool) error {
	switch opts.format {
	case "json":
		return render.JSON(out, results)
	case "sarif":
		return render.SARIF(out, results, toolInfo())
	case "github":
		return render.GitHub(out, results)
	case "gitlab":
		return render.GitLab(out, results)
	}
	return render.HumanAll(out, results, render.HumanOptions{Color: colour, Context: true, RuleDoc: ruleDocHints()})
}

// ruleDocHints returns ruleDocHint remembering each rule's line: a report
// names the same few rules over and over. The renderer calls it from one
// goroutine.
func ruleDocHints() func(string) string {
	seen := map[string]string{}
	return func(rule string) string {
		h, ok := seen[rule]
		if !ok {
			h = ruleDocHint(rule)
			seen[rule] = h
		}
		return h
	}
}

// ruleDocHint is the documentation pointer printed under a diagnostic of
// a lint rule: the explain command and the rule's page.
func ruleDocHint(rule string) string {
	if rulesets.All().Lookup(rule) == nil {
		return ""
	}
	return "skillc explain " + rule + " · " + lint.DocURL(rule)
}
