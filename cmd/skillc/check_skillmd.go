package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint/skillmd"
	"github.com/urfave/cli/v2"
)

// skillMDFlags are the flags choosing how SKILL.md packages are validated.
func skillMDFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "strict", Usage: "validate SKILL.md packages strictly (the specification and its reference validator) instead of compat"},
		&cli.StringFlag{Name: "profile", Usage: "SKILL.md validation profile: compat (default), strict, claude, or strict,claude"},
		&cli.BoolFlag{Name: "unicode-names", Usage: "accept lowercase Unicode letters in SKILL.md names"},
	}
}

// skillMDOptions reads the SKILL.md validation flags.
func skillMDOptions(c *cli.Context) (agentskills.Options, error) {
	o, err := agentskills.ParseProfile(c.String("profile"))
	if err != nil {
		return o, cli.Exit(err.Error(), exitUsage)
	}
	if c.Bool("strict") {
		o.Mode = agentskills.Strict
	}
	o.UnicodeNames = c.Bool("unicode-names")
	return o, nil
}

// isSkillMD reports whether path names a package file (SKILL.md in any
// case); everything else is checked as skillscript.
func isSkillMD(path string) bool {
	return strings.EqualFold(filepath.Base(path), agentskills.FileName)
}

// packageFile returns the package file of directory dir ("" when dir is
// not a package).
func packageFile(dir string) string {
	for _, name := range []string{agentskills.FileName, strings.ToLower(agentskills.FileName)} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return filepath.Join(dir, name)
		}
	}
	return ""
}

// checkSkillMD validates one package file with the configuration's lint
// options (severity overrides, disabled rules) and suppression comments.
func checkSkillMD(path string, env *workspace.Env, pkg agentskills.Options) (ast.FileDiagnostics, error) {
	s, ds, err := skillmd.Check(path, pkg, env.LintOptions)
	if err != nil {
		return ast.FileDiagnostics{}, fmt.Errorf("%s: %v", path, errNoFile(err))
	}
	return ast.FileDiagnostics{File: path, Src: s.Src, Diags: ds}, nil
}

// recheckSkillMD validates fixed package-file bytes for the --fix loop.
func recheckSkillMD(path string, src []byte, env *workspace.Env, pkg agentskills.Options) ast.Diagnostics {
	dir := filepath.Dir(path)
	abs, _ := filepath.Abs(dir)
	in := agentskills.Input{Path: path, DirName: filepath.Base(abs), Src: src}
	if root, err := os.OpenRoot(dir); err == nil {
		defer root.Close()
		in.Exists = func(rel string) bool { _, err := root.Stat(rel); return err == nil }
	}
	s, ds := agentskills.Parse(in, pkg)
	return skillmd.Finish(s, ds, env.LintOptions)
}
