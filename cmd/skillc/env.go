package main

import (
	"github.com/skillscript/skillc/internal/discovery"
	"os"
	"sort"
	"strings"

	"github.com/skillscript/skillc/internal/render"
	"path/filepath"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/config"
	"github.com/skillscript/skillc/internal/connectors"
	"github.com/skillscript/skillc/lint"
	"github.com/urfave/cli/v2"
)

// configFlags are the configuration flags shared by check, fmt and run.
func configFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "path of skillscript.config.json (default: nearest upward, then $SKILLSCRIPT_HOME)"},
		&cli.StringFlag{Name: "connectors", Usage: "path of connectors.json (default: nearest upward, then $SKILLSCRIPT_HOME)"},
		&cli.StringFlag{Name: "skills", Usage: "directory of *.skill.md files used as the skill store"},
	}
}

// envCache loads the configuration once per directory; files in the same
// directory share it.
type envCache struct {
	configPath, connectorsPath, skillsDir string

	mu    sync.Mutex
	byDir map[string]*analysisEnv
	warns []string
}

// analysisEnv is what checking one file needs beyond its source: the
// configuration, the lint context built from it, and the lint options.
type analysisEnv struct {
	cfg   *config.Config
	ctx   *lint.Context
	opts  lint.Options
	conns *lint.FileDiagnostics // diagnostics of the connectors.json in use
}

func newEnvCache(c *cli.Context) *envCache {
	return &envCache{
		configPath:     c.String("config"),
		connectorsPath: c.String("connectors"),
		skillsDir:      c.String("skills"),
		byDir:          map[string]*analysisEnv{},
	}
}

func (e *envCache) forFile(path string) *analysisEnv {
	dir := "."
	if path != "-" {
		dir = filepath.Dir(path)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if env, ok := e.byDir[dir]; ok {
		return env
	}
	home, _ := os.UserHomeDir()
	cfg, problems := config.Load(config.LoadOptions{
		ConfigPath:     e.configPath,
		ConnectorsPath: e.connectorsPath,
		StartDir:       dir,
		Env:            os.LookupEnv,
		Home:           home,
	})
	for _, p := range problems {
		e.warns = append(e.warns, p.String())
	}
	if e.skillsDir != "" {
		cfg.SkillsDir = e.skillsDir
		if cfg.Origins == nil {
			cfg.Origins = map[string]string{}
		}
		cfg.Origins["skills_dir"] = "flag --skills"
	}
	env := &analysisEnv{cfg: cfg, opts: lintOptions(cfg)}
	var conns *connectors.File
	if cfg.ConnectorsPath != "" {
		f, problems := connectors.Parse(cfg.Connectors, cfg.Getenv)
		conns = f
		fd := lint.CheckConnectors(cfg.ConnectorsPath, cfg.Connectors, problems, env.opts)
		env.conns = &fd
	}
	env.ctx = lint.ContextFrom(cfg, conns, "")
	discovery.AddCachedTools(env.ctx, discovery.CacheDir(cfg.Home))
	e.byDir[dir] = env
	return env
}

func (e *envCache) problems() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, w := range e.warns {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// lintOptions turns the "lint" settings of the configuration into options.
func lintOptions(cfg *config.Config) lint.Options {
	return lint.Options{
		Severity:                 cfg.Lint.Severity,
		Disable:                  cfg.Lint.Disable,
		ReportUnusedSuppressions: true,
	}
}

// ignored reports whether the configuration's lint ignore globs skip path.
func (a *analysisEnv) ignored(path string) bool {
	return path != "-" && a.cfg.Lint.Ignored(path)
}

// analyze parses, checks and lints one source.
func analyze(name string, src []byte, env *analysisEnv) ast.Diagnostics {
	ctx := *env.ctx
	ctx.FilePath = name
	_, _, ds := lint.Check(name, src, &ctx, env.opts)
	return ds
}

// connectorResults returns the diagnostics of every connectors.json used,
// once each, for files that have any.
func (e *envCache) connectorResults() []ast.FileDiagnostics {
	e.mu.Lock()
	defer e.mu.Unlock()
	seen := map[string]bool{}
	var out []ast.FileDiagnostics
	for _, env := range e.byDir {
		c := env.conns
		if c == nil || seen[c.Path] || len(c.Diagnostics) == 0 {
			continue
		}
		seen[c.Path] = true
		out = append(out, ast.FileDiagnostics{File: c.Path, Src: c.Src, Diags: c.Diagnostics})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// withRunFlags returns a copy of a whose lint context also knows the
// operator grants given on the skillc run command line (--allow-shell,
// --unsafe-shell), so the pre-run check agrees with what the run permits.
func (a *analysisEnv) withRunFlags(allowShell []string, unsafe bool) *analysisEnv {
	cp := *a
	ctx := *a.ctx
	if len(allowShell) > 0 {
		ctx.ShellAllowlistKnown = true
		ctx.ShellAllowlist = append(append([]string(nil), ctx.ShellAllowlist...), splitList(allowShell)...)
	}
	if unsafe {
		ctx.UnsafeShellKnown, ctx.UnsafeShell = true, true
	}
	if !ctx.SkillsKnown && a.cfg.SkillsDir != "" {
		// skillc run always has a skill store (the embedded default), so the
		// pre-run check looks references up there instead of reporting
		// that no store is configured.
		idx, err := lint.IndexSkills(a.cfg.SkillsDir)
		if err != nil {
			idx = lint.MapIndex{}
		}
		ctx.SkillsKnown, ctx.Skills = true, idx
	}
	cp.ctx = &ctx
	return &cp
}

// splitList splits repeated, comma-separated flag values.
func splitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}
