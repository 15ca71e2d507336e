package config

import (
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
)

// File names looked for during discovery.
const (
	ConfigFileName     = "skillscript.config.json"
	ConnectorsFileName = "connectors.json"
	DotenvFileName     = ".env"
	HomeDirName        = ".skillscript"
)

// SecretPrefix is the prefix of the environment variables that provision
// secrets: {{secret.NAME}} reads SKILLSCRIPT_SECRET_NAME.
const SecretPrefix = "SKILLSCRIPT_SECRET_"

// LoadOptions are the inputs of [Load]. Load reads nothing else: no process
// environment, no working directory, no user lookup.
type LoadOptions struct {
	// ConfigPath and ConnectorsPath are explicit --config / --connectors
	// flags; a named file that cannot be read is an error.
	ConfigPath, ConnectorsPath string
	// StartDir is where the upward search begins, normally the directory
	// of the checked file; empty skips the search.
	StartDir string
	// Env looks up a variable of the real environment (os.LookupEnv in the
	// CLI); nil means an empty environment.
	Env func(string) (string, bool)
	// Home is the user's home directory, the parent of the default
	// SKILLSCRIPT_HOME; empty means unknown.
	Home string
	// Probe, when set, remembers which candidate paths are files, so the
	// loads of many directories of one command stat each candidate once
	// (skillc check over a tree). nil stats every time, as a long-running
	// process must.
	Probe *FileProbe
}

// Config is the resolved configuration. Paths are empty when the file was
// not found.
type Config struct {
	// Home is SKILLSCRIPT_HOME, the root of every default path; empty when
	// neither the variable nor the user's home directory is known.
	Home string
	// ConfigPath is the skillscript.config.json in use.
	ConfigPath string
	// ConfigTrusted reports that ConfigPath is operator-controlled (named
	// by --config, or in SKILLSCRIPT_HOME). A project-local one (found
	// upward from the skill) sets lint options only (DECISIONS 25).
	ConfigTrusted bool
	// ConnectorsTrusted reports that ConnectorsPath is operator-controlled
	// (named by --connectors, or in SKILLSCRIPT_HOME). A project-local
	// connectors.json informs the linter from cached tool lists but is
	// never started or wired by a run.
	ConnectorsTrusted bool
	// ConnectorsPath and Connectors are the connectors.json in use and its
	// raw contents, for connectors.Parse(Connectors, Getenv).
	ConnectorsPath string
	Connectors     []byte
	// EnvFiles lists the .env files loaded, most specific first.
	EnvFiles []string

	SkillsDir    string // filesystem skill store (default Home/skills)
	SkillsDBPath string // sqlite skill store (default Home/skills/skills.db)
	DataDBPath   string // sqlite data store (default Home/data.db)
	TraceDir     string // traces (default Home/traces)
	TriggersPath string // declarative triggers (default Home/triggers.json)

	// ShellAllowlist lists the binaries shell(...) may run; empty denies all.
	ShellAllowlist []string
	// EnableUnsafeShell permits shell(..., unsafe=true).
	EnableUnsafeShell bool
	// FSAllowlist lists the roots file_read/file_write may touch; empty denies all.
	FSAllowlist []string
	// SecuredMode allows effects only from signed, approved skills.
	SecuredMode bool
	// ForceAlwaysDraft makes skill writes from outside MCP land as drafts.
	ForceAlwaysDraft bool
	// MaxDeadline caps every run; zero means no ceiling.
	MaxDeadline time.Duration
	// MaxRecursionDepth bounds execute_skill chains.
	MaxRecursionDepth int
	// MaxValueBytes caps one value of a run, MaxOps the statements and
	// MaxMemoryBytes the estimated bytes a composed run holds.
	MaxValueBytes, MaxOps, MaxMemoryBytes int
	// AbsoluteTimeout is the fallback timeout of an operation.
	AbsoluteTimeout time.Duration
	// Host and Port are where the dashboard / serve HTTP server binds.
	Host string
	Port int
	// IdentityHeader names the inbound header carrying the MCP caller's
	// agent id (skillc serve); empty means callers are anonymous.
	IdentityHeader string
	// PollInterval is the trigger scheduler's tick; zero means the
	// host's default.
	PollInterval time.Duration

	// Lint holds the "lint" settings of the configuration file.
	Lint LintSettings

	// Origins says where each setting's value came from, by setting name
	// ("shell_allowlist", "skills_dir", ...): "default", "environment (VAR)",
	// "FILE:LINE (VAR)" for a .env file or "FILE (member)" for the
	// configuration file.
	Origins map[string]string

	// layered returns the layered environment; a func, so that printing a
	// Config (with any verb) shows an address and never the .env contents.
	layered func() *environment
}

// environment returns the layered environment, or nil.
func (c *Config) environment() *environment {
	if c.layered == nil {
		return nil
	}
	return c.layered()
}

// Getenv looks a variable up the way configuration does: the real
// environment first, then the loaded .env files, most specific first; it
// also knows the resolved SKILLSCRIPT_HOME. Pass it as the env of
// connectors.Parse.
func (c *Config) Getenv(name string) (string, bool) {
	if env := c.environment(); env != nil {
		if v, ok := env.get(name); ok {
			return v, true
		}
	}
	if name == "SKILLSCRIPT_HOME" && c.Home != "" {
		return c.Home, true
	}
	return "", false
}

// Secret returns the value provisioned for {{secret.NAME}}, read from
// SKILLSCRIPT_SECRET_NAME. Names are letters, digits and underscores; an
// invalid name or an empty value reports false. The value must never be
// logged or bound to a variable.
func (c *Config) Secret(name string) (string, bool) {
	if !validEnvName(name) {
		return "", false
	}
	v, ok := c.Getenv(SecretPrefix + name)
	return v, ok && v != ""
}

// Environ returns the environment for a child process: base (KEY=value
// entries, normally os.Environ()) plus the .env variables base does not set,
// the more specific .env file winning, and without any SKILLSCRIPT_SECRET_*
// entry (secrets reach a child only through {{secret.NAME}} markers).
func (c *Config) Environ(base []string) []string {
	seen := map[string]bool{}
	out := []string{}
	add := func(k, kv string) {
		if !seen[k] && !strings.HasPrefix(k, SecretPrefix) {
			out = append(out, kv)
		}
		seen[k] = true
	}
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		add(k, kv)
	}
	env := c.environment()
	if env == nil {
		return out
	}
	for _, layer := range env.layers {
		keys := make([]string, 0, len(layer.vars))
		for k := range layer.vars {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			add(k, k+"="+layer.vars[k].Value)
		}
	}
	return out
}

// Load discovers and reads the configuration; see the package documentation
// for the precedence. It always returns a usable Config: problems (unreadable
// or malformed files, bad values) are reported and the affected settings
// keep their defaults.
func Load(opts LoadOptions) (*Config, []ast.FileDiagnostics) {
	l := newLoader(opts)
	l.resolveHome()
	l.discover()
	l.loadDotenv()
	l.readConnectors()
	l.applyDefaults()
	cf := l.readConfig()
	l.dropProjectPolicy(cf)
	l.resolveSettings(cf)
	return l.cfg, l.problems.list()
}

// loader carries the state of one Load.
type loader struct {
	opts     LoadOptions
	cfg      *Config
	env      *environment
	problems problems
}

// newLoader prepares a loader, defaulting a nil Env to the empty environment.
func newLoader(opts LoadOptions) *loader {
	real := opts.Env
	if real == nil {
		real = noEnv
	}
	env := &environment{real: real}
	cfg := &Config{Origins: make(map[string]string, len(settingsTable())+1), layered: func() *environment { return env }}
	return &loader{opts: opts, cfg: cfg, env: env}
}

// resolveHome sets SKILLSCRIPT_HOME from the real environment (a .env file
// cannot set it) or defaults it to ~/.skillscript.
func (l *loader) resolveHome() {
	if v, ok := l.env.real("SKILLSCRIPT_HOME"); ok && strings.TrimSpace(v) != "" {
		l.cfg.Home = filepath.Clean(expandTilde(strings.TrimSpace(v), l.opts.Home))
		l.cfg.Origins["home"] = source{Env: "SKILLSCRIPT_HOME"}.String()
		return
	}
	if l.opts.Home != "" {
		l.cfg.Home = filepath.Join(l.opts.Home, HomeDirName)
	}
	l.cfg.Origins["home"] = "default"
}

// applyDefaults sets every default before the overrides are applied.
func (l *loader) applyDefaults() {
	c := l.cfg
	if c.Home != "" {
		c.SkillsDir = filepath.Join(c.Home, "skills")
		c.SkillsDBPath = filepath.Join(c.Home, "skills", "skills.db")
		c.DataDBPath = filepath.Join(c.Home, "data.db")
		c.TraceDir = filepath.Join(c.Home, "traces")
		c.TriggersPath = filepath.Join(c.Home, "triggers.json")
	}
	c.MaxRecursionDepth = DefaultMaxRecursionDepth
	c.MaxValueBytes, c.MaxOps, c.MaxMemoryBytes = DefaultMaxValueBytes, DefaultMaxOps, DefaultMaxMemoryBytes
	c.AbsoluteTimeout = DefaultAbsoluteTimeout
	c.Host, c.Port = DefaultHost, DefaultPort
	for _, s := range settingsTable() {
		c.Origins[s.name] = "default"
	}
}

// resolveSettings applies, for each setting, the first of: the real
// environment, the .env files, the configuration file.
func (l *loader) resolveSettings(cf *configFile) {
	for _, s := range settingsTable() {
		if v, src, ok := l.fromEnv(s); ok {
			s.apply(l.cfg, v)
			l.cfg.Origins[s.name] = src.String()
		} else if fv, ok := cf.values[s.name]; ok {
			s.apply(l.cfg, fv.val)
			l.cfg.Origins[s.name] = fv.src.String()
		}
	}
	if cf.hasLint {
		l.cfg.Lint = cf.lint
	}
}

// dropProjectPolicy empties a project-local configuration file of
// everything but its lint options, with one warning naming what was
// ignored: security policy and runtime settings come only from the
// operator (flags, environment, SKILLSCRIPT_HOME, --config), never from a
// file next to the skill, which the skill itself may be able to write.
func (l *loader) dropProjectPolicy(cf *configFile) {
	if l.cfg.ConfigPath == "" || l.cfg.ConfigTrusted || len(cf.values) == 0 {
		return
	}
	var keys []string
	for _, s := range settingsTable() {
		if fv, ok := cf.values[s.name]; ok {
			keys = append(keys, fv.src.Key)
		}
	}
	sort.Strings(keys)
	path := l.cfg.ConfigPath
	l.problems.add(path, diagAt(ast.Warning, l.problems.srcs[path], 0,
		"%s ignored: a project-local %s sets lint options only; security policy and runtime settings come from flags, the environment, $SKILLSCRIPT_HOME or --config",
		strings.Join(keys, ", "), ConfigFileName))
	cf.values = map[string]fileValue{}
}

// fromEnv returns the environment value of s, if one is set and valid.
func (l *loader) fromEnv(s setting) (any, source, bool) {
	for _, name := range s.env {
		text, src, ok := l.env.lookup(name)
		if !ok {
			continue
		}
		v, err := parseText(s.kind, text)
		if err != nil {
			l.envProblem(src, "%s: %v; ignored", name, err)
			return nil, source{}, false
		}
		if s.kind == kindPath {
			v = expandTilde(text, l.opts.Home)
		}
		return v, src, true
	}
	return nil, source{}, false
}

// envProblem reports a bad value from the environment or a .env file.
func (l *loader) envProblem(src source, format string, args ...any) {
	if src.File == "" {
		l.problems.add("", diagAt(ast.Warning, nil, -1, format, args...))
		return
	}
	l.problems.add(src.File, diagAtLine(ast.Warning, l.problems.srcs[src.File], src.Line, format, args...))
}
