package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"time"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/skilltest"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// testCommand is "skillc test [PATH...]": run the # Tests: blocks.
func testCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run the # Tests: cases of skills in a sandbox (exit 1 when a case fails)",
		ArgsUsage: "[PATH...]",
		Description: "PATH is a .skill.md file or a directory searched recursively (default: the current directory).\n" +
			"Connectors and llm are answered by <name>.mock.yaml next to the skill, else by --mock FILE;\n" +
			"data and skill stores are scratch copies per case. See docs/testing-skills.md.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "run", Usage: "run only the cases whose name matches this regular expression"},
			&cli.StringFlag{Name: "mock", Usage: "mock file for skills without a <name>.mock.yaml of their own"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as JSON"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show every assertion count, duration and run notice"},
			&cli.StringSliceFlag{Name: "allow-shell", Usage: "add binaries to the shell allowlist"},
			&cli.StringSliceFlag{Name: "allow-fs", Usage: "add roots to the filesystem allowlist"},
			&cli.BoolFlag{Name: "unsafe-shell", Usage: "allow shell(..., unsafe=true)"},
		}, configFlags()...),
		Action: func(c *cli.Context) error { return runTests(c, s) },
	}
}

// fileReport is the outcome of one file, as printed by --json.
type fileReport struct {
	File     string                 `json:"file"`
	Mock     string                 `json:"mock,omitempty"`
	Policy   string                 `json:"test_policy,omitempty"`
	Problems []skilltest.Failure    `json:"problems"`
	Cases    []skilltest.CaseResult `json:"cases"`
	Error    string                 `json:"error,omitempty"`
}

// testSession is one skillc test invocation.
type testSession struct {
	c       *cli.Context
	s       *streams
	envs    *envCache
	filter  *regexp.Regexp
	mock    *skilltest.MockFile
	scratch string // holds the empty mock the base runners are wired to
	ioErr   bool
}

func runTests(c *cli.Context, s *streams) error {
	ts, err := newTestSession(c, s)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	defer os.RemoveAll(ts.scratch)
	args := c.Args().Slice()
	implicit := len(args) == 0
	if implicit {
		args = []string{"."}
	}
	in, err := collectPaths(args)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if !implicit && warnUnmatched(s, in) {
		ts.ioErr = true
	}
	paths := in.paths
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	var reports []fileReport
	for _, p := range paths {
		if r, ok := ts.file(ctx, p); ok {
			reports = append(reports, r)
		}
	}
	return ts.finish(reports)
}

func newTestSession(c *cli.Context, s *streams) (*testSession, error) {
	ts := &testSession{c: c, s: s, envs: newEnvCache(c).withSkillDirStore()}
	if pat := c.String("run"); pat != "" {
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("--run: %v", err)
		}
		ts.filter = re
	}
	if m := c.String("mock"); m != "" {
		mf, err := skilltest.LoadMock(m)
		if err != nil {
			return nil, err
		}
		ts.mock = mf
	}
	dir, err := os.MkdirTemp("", "skillc-test-")
	if err != nil {
		return nil, err
	}
	ts.scratch = dir
	return ts, os.WriteFile(ts.emptyMock(), []byte("mocks: []\n"), 0o644)
}

func (ts *testSession) emptyMock() string { return filepath.Join(ts.scratch, "empty.mock.yaml") }

// file runs the cases of one skill file; ok is false for files without
// a # Tests: block.
func (ts *testSession) file(ctx context.Context, path string) (fileReport, bool) {
	rep := fileReport{File: path, Problems: []skilltest.Failure{}, Cases: []skilltest.CaseResult{}}
	src := readSource(path, ts.s.in)
	if src.Err != nil {
		return ts.fileError(rep, errNoFile(src.Err)), true
	}
	rep.File = src.Path
	f := workspace.Parse(src.Path, src.Src).File
	var err error
	if !skilltest.HasTests(f) {
		if ts.c.Bool("verbose") && !ts.c.Bool("json") {
			fmt.Fprintf(ts.s.out, "skip  %s: no # Tests: block\n", src.Path)
		}
		return rep, false
	}
	var pol *skilltest.TestPolicy
	if path != "-" {
		if pp := skilltest.SidecarTestPolicy(path); pp != "" {
			if pol, err = skilltest.LoadTestPolicy(pp); err != nil {
				return ts.fileError(rep, err), true
			}
			rep.Policy = pp
		}
	}
	env := ts.envWithPolicy(path, pol)
	diags := analyze(src.Path, src.Src, env)
	rep.Problems = append(rep.Problems, skilltest.Problems(f, diags)...)
	mock, err := ts.mockFor(path)
	if err != nil {
		return ts.fileError(rep, err), true
	}
	if mock != nil {
		rep.Mock = mock.Name
	}
	base, closeBase, err := ts.baseRunner(ctx, env, pol)
	if err != nil {
		return ts.fileError(rep, err), true
	}
	defer closeBase()
	if base.Shell != nil && path != "-" {
		// shell commands run in the skill's folder, as its sibling skills
		// resolve from there, whatever folder skillc test started in
		sh := *base.Shell
		if abs, err := filepath.Abs(filepath.Dir(path)); err == nil {
			sh.Dir = abs
		}
		base.Shell = &sh
	}
	opts := skilltest.Options{Diagnostics: diags, Filter: ts.filter, Mock: mock, SkillsDir: ts.skillsDir(path)}
	newRunner := func() *eval.Runner { cp := *base; return &cp }
	if cases := skilltest.Run(ctx, f, check.Check(f), newRunner, opts); cases != nil {
		rep.Cases = cases
	}
	ts.print(rep)
	return rep, true
}

// fileError records a problem that kept a file from running (exit 2).
func (ts *testSession) fileError(rep fileReport, err error) fileReport {
	ts.ioErr = true
	rep.Error = err.Error()
	if !ts.c.Bool("json") {
		fmt.Fprintf(ts.s.err, "skillc: %s: %v\n", rep.File, err)
	}
	return rep
}

// envWithPolicy is the environment of the skill at path with the shell
// and filesystem grants of the command line and of its test policy file
// (pol, when not nil), so that check's policy rules agree with the run.
func (ts *testSession) envWithPolicy(path string, pol *skilltest.TestPolicy) *workspace.Env {
	shell, fs, unsafe := splitList(ts.c.StringSlice("allow-shell")), splitList(ts.c.StringSlice("allow-fs")), ts.c.Bool("unsafe-shell")
	if pol != nil {
		shell, fs, unsafe = append(shell, pol.AllowShell...), append(fs, pol.AllowFS...), unsafe || pol.UnsafeShell
	}
	return ts.envs.forFile(path).WithRunFlags(shell, fs, unsafe)
}

// mockFor picks the mock of a skill: its sidecar file, else --mock.
func (ts *testSession) mockFor(path string) (*skilltest.MockFile, error) {
	if path == "-" {
		return ts.mock, nil
	}
	if side := skilltest.SidecarMock(path); side != "" {
		return skilltest.LoadMock(side)
	}
	return ts.mock, nil
}

// skillsDir seeds the sandbox skill store: --skills, else the skill's
// own directory.
func (ts *testSession) skillsDir(path string) string {
	if d := ts.c.String("skills"); d != "" {
		return d
	}
	if path == "-" {
		return ""
	}
	return filepath.Dir(path)
}

// baseRunner wires a runner from the configuration and flags exactly as
// skillc run does (shell and filesystem allowlists, secrets, limits), but
// against an empty mock so that no connectors.json, store or agent is
// opened; skilltest then gives every case its own sandboxed registry.
func (ts *testSession) baseRunner(ctx context.Context, env *workspace.Env, pol *skilltest.TestPolicy) (*eval.Runner, func() error, error) {
	opts := hostOptions(ts.c, ts.s, env)
	if pol != nil {
		opts.AllowShell = append(opts.AllowShell, pol.AllowShell...)
		opts.AllowFS = append(opts.AllowFS, pol.AllowFS...)
		opts.UnsafeShell = opts.UnsafeShell || pol.UnsafeShell
	}
	cfg := *env.Config
	cfg.SkillsDir = ""
	opts.Config, opts.MockFile, opts.SkillsDir, opts.Mechanical = &cfg, ts.emptyMock(), "", false
	return host.NewRunner(ctx, opts)
}

// print writes the PASS/FAIL lines of one file (not with --json).
func (ts *testSession) print(rep fileReport) {
	if ts.c.Bool("json") {
		return
	}
	out, verbose := ts.s.out, ts.c.Bool("verbose")
	if verbose && rep.Policy != "" {
		fmt.Fprintf(out, "policy  %s: %s\n", rep.File, rep.Policy)
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(out, "FAIL  %s: # Tests:\n", rep.File)
		fmt.Fprintf(out, "%s:%d: # Tests: %s\n", rep.File, p.Line, p.Message)
	}
	for _, cr := range rep.Cases {
		status := "PASS"
		if !cr.Passed {
			status = "FAIL"
		}
		if verbose {
			fmt.Fprintf(out, "%s  %s: %s (%d assertion(s), %s)\n", status, rep.File, cr.Name, cr.Assertions, cr.Duration.Round(10*time.Microsecond))
		} else {
			fmt.Fprintf(out, "%s  %s: %s\n", status, rep.File, cr.Name)
		}
		for _, fl := range cr.Failures {
			fmt.Fprintf(out, "%s:%d: %s: %s\n", rep.File, cr.Line, cr.Name, fl.Message)
		}
		if verbose && cr.Result != nil {
			for _, n := range cr.Result.Notices {
				fmt.Fprintf(out, "    note: %s\n", n)
			}
		}
	}
}

// finish prints the summary (or the JSON report) and picks the exit
// status: 2 when a file could not be run, 1 when a case failed.
func (ts *testSession) finish(reports []fileReport) error {
	passed, failed := 0, 0
	for _, r := range reports {
		failed += len(r.Problems)
		for _, cr := range r.Cases {
			if cr.Passed {
				passed++
			} else {
				failed++
			}
		}
	}
	if ts.c.Bool("json") {
		if reports == nil {
			reports = []fileReport{}
		}
		enc := json.NewEncoder(ts.s.out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any{"files": reports, "passed": passed, "failed": failed}); err != nil {
			return cli.Exit(err.Error(), exitUsage)
		}
	} else {
		if passed+failed == 0 && !ts.ioErr {
			fmt.Fprintln(ts.s.err, "skillc: no test cases found (add a # Tests: block to a skill)")
		}
		fmt.Fprintf(ts.s.out, "%d passed, %d failed\n", passed, failed)
	}
	switch {
	case ts.ioErr:
		return cli.Exit("", exitUsage)
	case failed > 0:
		return cli.Exit("", exitFindings)
	}
	return nil
}
