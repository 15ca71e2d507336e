package workspace

import (
	"os"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/toolcache"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

// LoadOptions are the inputs of Load besides the directory.
type LoadOptions struct {
	// ConfigPath and ConnectorsPath are explicit --config / --connectors
	// paths; empty means discovery.
	ConfigPath, ConnectorsPath string
	// SkillsDir overrides the configured skill store (--skills).
	SkillsDir string
	// Env looks up environment variables (os.LookupEnv in the CLI); nil
	// means an empty environment.
	Env func(string) (string, bool)
	// Home is the user's home directory, the parent of the default
	// SKILLSCRIPT_HOME.
	Home string
	// DefaultSkillsDir is the skill store when neither SkillsDir, the
	// configuration nor a skill_store substrate in connectors.json names
	// one: skillc check, run and test pass the skill's own directory, so
	// sibling skills are found the same way by all three.
	DefaultSkillsDir string
	// ToolCacheDir overrides the directory of cached MCP tool lists
	// (default SKILLSCRIPT_HOME/cache/tools).
	ToolCacheDir string
	// CacheUnits keeps the units Compile makes (a long-running host or
	// language server); the one-shot CLI leaves it off.
	CacheUnits bool
	// Probe, when set, is shared by the configuration loads of one
	// command (config.FileProbe); nil for a long-running process.
	Probe *config.FileProbe
	// Getwd, when set, answers the working directory instead of
	// os.Getwd (a command reads it once for all its loads).
	Getwd func() (string, error)
	// Listed, when set, answers the listing of a skill directory a walk
	// of the same command just read (lint.SkillDirOptions).
	Listed func(dir string) ([]string, bool)
	// ReadSource, when set, reads the files of the skill directory's
	// index: a command that reads the same files itself passes the Read
	// of its Sources, so that each file is read once
	// (lint.SkillDirOptions).
	ReadSource func(path string) ([]byte, error)
}

// Env is the environment of the skills of one directory.
type Env struct {
	// Config is the resolved configuration (never nil).
	Config *config.Config
	// Connectors is the parsed connectors.json; empty (never nil) when
	// none was found.
	Connectors *connectors.File
	// ToolCacheDir holds the tool lists discovered by MCP connectors.
	ToolCacheDir string
	// ConnectorsTrusted reports that the connectors.json in use is
	// operator-controlled (named by --connectors, or in SKILLSCRIPT_HOME)
	// rather than found next to the skills (DECISIONS 25): only then does
	// WarmTools start its servers unasked.
	ConnectorsTrusted bool
	// Lint and LintOptions are the linter's view of the same facts. Copy
	// Lint before setting FilePath.
	Lint        *lint.Context
	LintOptions lint.Options
	// ConfigDiagnostics are the problems of the configuration inputs
	// (skillscript.config.json, .env files, the environment), per file.
	ConfigDiagnostics []ast.FileDiagnostics
	// ConnectorDiagnostics are the diagnostics of the connectors.json in
	// use (File empty when there is none).
	ConnectorDiagnostics ast.FileDiagnostics

	// units caches the compiled skills of this environment (Compile).
	units *unitCache
}

// Load discovers the configuration from dir as every front end does and
// builds the lint context and options from it. Problems never stop
// loading: they are reported in ConfigProblems and ConnectorDiagnostics.
func Load(dir string, o LoadOptions) *Env {
	cfg, problems := config.Load(config.LoadOptions{
		ConfigPath: o.ConfigPath, ConnectorsPath: o.ConnectorsPath,
		StartDir: dir, Env: o.Env, Home: o.Home, Probe: o.Probe,
	})
	if o.SkillsDir != "" {
		cfg.SkillsDir = o.SkillsDir
		if cfg.Origins == nil {
			cfg.Origins = map[string]string{}
		}
		cfg.Origins["skills_dir"] = "flag --skills"
	}
	env := &Env{Config: cfg, Connectors: &connectors.File{}, ConfigDiagnostics: problems, LintOptions: lintOptions(cfg.Lint)}
	if o.CacheUnits {
		env.units = newUnitCache()
	}
	var parsed *connectors.File
	if cfg.ConnectorsPath != "" {
		f, problems := connectors.Parse(cfg.Connectors, cfg.Getenv)
		if f != nil {
			env.Connectors, parsed = f, f
		}
		env.ConnectorDiagnostics = CheckConnectors(cfg.ConnectorsPath, cfg.Connectors, problems, env.LintOptions)
	}
	defaultStore(cfg, parsed, o)
	env.ConnectorsTrusted = cfg.ConnectorsTrusted
	env.ToolCacheDir = o.ToolCacheDir
	if env.ToolCacheDir == "" {
		env.ToolCacheDir = toolcache.DefaultDir(cfg.Home)
	}
	getwd := o.Getwd
	if getwd == nil {
		getwd = os.Getwd
	}
	env.Lint = contextFrom(cfg, parsed, "", getwd, lint.SkillDirOptions{Listed: o.Listed, Read: o.ReadSource})
	env.addCachedTools()
	return env
}

// OriginSkillDir is the origin recorded for skills_dir when the store is
// the skill's own directory (LoadOptions.DefaultSkillsDir).
const OriginSkillDir = "the skill's directory"

// defaultStore makes o.DefaultSkillsDir the skill store when nothing else
// names one.
func defaultStore(cfg *config.Config, conns *connectors.File, o LoadOptions) {
	if o.SkillsDir != "" || o.DefaultSkillsDir == "" || cfg.Origins["skills_dir"] != "default" {
		return
	}
	if conns != nil && slotWired(conns.Substrate.SkillStore) {
		return
	}
	cfg.SkillsDir = o.DefaultSkillsDir
	cfg.Origins["skills_dir"] = OriginSkillDir
}

// lintOptions turns the "lint" settings of the configuration into options;
// unused suppressions are reported.
func lintOptions(s config.LintSettings) lint.Options {
	return lint.Options{Severity: s.Severity, Disable: s.Disable, ReportUnusedSuppressions: true, Rules: rulesets.All()}
}

// Ignored reports whether the lint ignore globs of the configuration skip
// path ("-", standard input, never is).
func (e *Env) Ignored(path string) bool {
	return path != "-" && e.Config.Lint.Ignored(path)
}

// Tools returns the known tools of a connector: its static tools from
// connectors.json, else the tools discovered earlier and cached on disk.
// ok is false when the tool surface is unknown.
func (e *Env) Tools(conn string) (tools []contract.Tool, ok bool) {
	c := e.Connectors.Connector(conn)
	if c == nil {
		return nil, false
	}
	if len(c.Tools) > 0 {
		for _, t := range c.Tools {
			tools = append(tools, contract.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Mutating: t.Mutating, ReadOnly: t.ReadOnly})
		}
		return tools, true
	}
	return toolcache.Cache{Dir: e.ToolCacheDir}.Newest(conn)
}

// addCachedTools gives every connector of the lint context that declares
// no static tools the tool list cached on disk, if any.
func (e *Env) addCachedTools() {
	cache := toolcache.Cache{Dir: e.ToolCacheDir}
	for name, c := range e.Lint.Connectors {
		if c.ToolsKnown {
			continue
		}
		tools, ok := cache.Newest(name)
		if !ok {
			continue
		}
		c.ToolsKnown, c.Tools = true, lintTools(tools)
	}
}

// WithSkills returns a copy of e whose lint context uses idx as the skill
// store (the language server's workspace scan).
func (e *Env) WithSkills(idx lint.SkillIndex) *Env {
	cp := *e
	cp.units = e.derivedCache()
	cp.Lint = e.Lint.WithSkills(idx)
	return &cp
}

// WithRunFlags returns a copy of e whose lint context also knows the
// operator grants given on the skillc run command line (--allow-shell,
// --allow-fs, --unsafe-shell), so the pre-run check agrees with what the run permits.
// skillc run always has a skill store (the embedded default), so a store
// the configuration leaves implicit is indexed too.
func (e *Env) WithRunFlags(allowShell, allowFS []string, unsafe bool) *Env {
	cp := *e
	cp.units = e.derivedCache()
	ctx := *e.Lint
	if len(allowShell) > 0 {
		ctx.ShellAllowlistKnown = true
		ctx.ShellAllowlist = append(append([]string(nil), ctx.ShellAllowlist...), allowShell...)
	}
	if len(allowFS) > 0 {
		ctx.FSAllowlistKnown = true
		ctx.FSAllowlist = append(append([]string(nil), ctx.FSAllowlist...), fsRoots(ctx.FSBase, allowFS)...)
	}
	if unsafe {
		ctx.UnsafeShellKnown, ctx.UnsafeShell = true, true
	}
	if !ctx.SkillsKnown && e.Config.SkillsDir != "" {
		var idx lint.SkillIndex = lint.MapIndex{}
		if d, err := lint.OpenSkillDir(e.Config.SkillsDir); err == nil {
			idx = d
		}
		ctx.SkillsKnown, ctx.Skills = true, idx
	}
	cp.Lint = &ctx
	return &cp
}

// Check parses, checks and lints one source of this environment, as
// lint.Check does with the environment's context and options.
func (e *Env) Check(name string, src []byte) (*ast.File, *check.Info, ast.Diagnostics) {
	ctx := *e.Lint
	ctx.FilePath = name
	return lint.Check(name, src, &ctx, e.LintOptions)
}

// lintUnit runs the rules over a parsed unit with the checker facts the
// parse already computed (u.Info): the checker runs once per compile, not
// once for the unit and again for the rules (issue 25: it was a tenth of
// `skillc check` on a big skill). The rules never change f or info.
func (e *Env) lintUnit(name string, u *Unit) ast.Diagnostics {
	ctx := *e.Lint
	ctx.FilePath = name
	return lint.CheckWith(u.File, u.Info, u.ParsedCopy(), &ctx, e.LintOptions)
}
