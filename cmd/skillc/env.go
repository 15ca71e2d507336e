package main

import (
	"context"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// toolFlags are the tool-cache flags of check and run.
func toolFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "offline", Usage: "never ask MCP servers for tools/list; check against the tool cache only"},
		toolsTimeoutFlag(),
	}
}

func toolsTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "tools-timeout", Value: workspace.DefaultWarmTimeout, Usage: "how long each MCP server gets to answer tools/list"}
}

// envCache loads the workspace environment once per directory; files in
// the same directory share it.
type envCache struct {
	opts workspace.LoadOptions
	// warm, when set, warms the tool cache of each environment's MCP
	// connectors (skillc check and run); the results are shared by the
	// environments that use the same connectors.json.
	warm *workspace.WarmOptions
	// skillDirStore makes each skill's directory its default skill store
	// (check, run and test agree on sibling skills).
	skillDirStore bool
	ctx           context.Context
	warmed        map[string]warmed

	mu    sync.Mutex
	byDir map[string]*workspace.Env
	wd    workDir
	// sources, when set, shares one read per skill file between the
	// command and the skill-directory indexes (withSharedSources).
	sources *workspace.Sources
}

// configFlags are the configuration flags shared by check, fmt and run
// (skillcli.ConfigFlags: skillc-host's commands take them too).
func configFlags() []cli.Flag { return skillcli.ConfigFlags() }

func newEnvCache(c *cli.Context) *envCache {
	return &envCache{
		opts:  skillcli.LoadOptions(c),
		byDir: map[string]*workspace.Env{},
		ctx:   c.Context,
		wd:    newWorkDir(),
	}
}

// withSkillDirStore makes each skill's directory its default skill store
// (skillc check, run and test).
func (e *envCache) withSkillDirStore() *envCache {
	e.skillDirStore = true
	return e
}

// withFileProbe shares one config.FileProbe among the environments the
// cache loads: the folders of one check ask about the same parent
// directories' configuration files once.
func (e *envCache) withFileProbe() *envCache {
	e.opts.Probe = config.NewFileProbe()
	e.opts.Getwd = e.wd
	return e
}

// withListings lets the skill-directory index of each environment take
// its folder's listing from the walk of the command's arguments
// (inputs.listed) instead of reading the folder again.
func (e *envCache) withListings(listed map[string][]string) *envCache {
	if len(listed) > 0 {
		e.opts.Listed = func(dir string) ([]string, bool) {
			names, ok := listed[filepath.Clean(dir)]
			return names, ok
		}
	}
	return e
}

// withSharedSources makes the command's reads of its skill files
// (e.readSource) and the skill-directory index of each environment share
// one read per file (workspace.Sources): skillc check, whose folder of
// skills is also the store its index reads. The command calls
// e.sources.Done once its reads are over.
func (e *envCache) withSharedSources() *envCache {
	e.sources = workspace.NewSources(readFileMax, e.wd.abs)
	e.opts.ReadSource = e.sources.Read
	return e
}

// readSource is readSource through the shared sources when e has them.
func (e *envCache) readSource(path string, stdin io.Reader) source {
	if e.sources == nil || path == "-" {
		return readSource(path, stdin)
	}
	b, err := e.sources.Read(path)
	return source{Path: path, Src: b, Err: err}
}

// warmed is the outcome of one tool-cache warm-up.
type warmed struct {
	results []workspace.WarmResult
	diags   ast.FileDiagnostics
}

// withToolWarmup makes the cache warm the MCP tool lists of every
// environment it loads, under the --offline and --tools-timeout flags.
func (e *envCache) withToolWarmup(c *cli.Context) *envCache {
	e.warm = &workspace.WarmOptions{Dial: dialMCP, Offline: c.Bool("offline"), Timeout: c.Duration("tools-timeout"), OperatorOnly: true}
	e.warmed = map[string]warmed{}
	return e
}

// warmTools applies the warm-up to env (e.mu is held): its schema rules
// see the tool lists, and servers that failed get their info line among
// the connectors.json diagnostics.
func (e *envCache) warmTools(env *workspace.Env) *workspace.Env {
	if e.warm == nil || len(env.Connectors.Connectors) == 0 {
		return env
	}
	key := env.Config.ConnectorsPath + "\x00" + env.ToolCacheDir
	w, ok := e.warmed[key]
	if !ok {
		ctx := e.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		w.results, w.diags = workspace.WarmTools(ctx, env, *e.warm)
		e.warmed[key] = w
	}
	out := env.WithTools(w.results)
	out.ConnectorDiagnostics.Diags = append(append(ast.Diagnostics(nil), env.ConnectorDiagnostics.Diags...), w.diags.Diags...)
	out.ConnectorDiagnostics.Diags.Sort()
	return out
}

// forFile returns the environment of the file at path ("-" is standard
// input, checked from the working directory).
func (e *envCache) forFile(path string) *workspace.Env {
	dir := "."
	if path != "-" {
		dir = filepath.Dir(path)
	}
	if abs, err := e.wd.abs(dir); err == nil {
		dir = abs
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if env, ok := e.byDir[dir]; ok {
		return env
	}
	opts := e.opts
	if e.skillDirStore && path != "-" {
		opts.DefaultSkillsDir = dir
	}
	env := e.warmTools(workspace.Load(dir, opts))
	e.byDir[dir] = env
	return env
}

// problems returns the configuration problems of every environment loaded,
// once each, as "file:line:col: severity: message".
func (e *envCache) problems() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, env := range e.sortedEnvs() {
		for _, w := range config.Format(env.ConfigDiagnostics) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// sortedEnvs returns the loaded environments by directory; e.mu is held.
func (e *envCache) sortedEnvs() []*workspace.Env {
	dirs := make([]string, 0, len(e.byDir))
	for d := range e.byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	out := make([]*workspace.Env, len(dirs))
	for i, d := range dirs {
		out[i] = e.byDir[d]
	}
	return out
}

// connectorResults returns the diagnostics of every connectors.json used,
// once each, for files that have any.
func (e *envCache) connectorResults() []ast.FileDiagnostics {
	e.mu.Lock()
	defer e.mu.Unlock()
	seen := map[string]bool{}
	var out []ast.FileDiagnostics
	for _, env := range e.byDir {
		c := env.ConnectorDiagnostics
		if c.File == "" || seen[c.File] || len(c.Diags) == 0 {
			continue
		}
		seen[c.File] = true
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// analyze parses, checks and lints one source (its compiled unit).
func analyze(name string, src []byte, env *workspace.Env) ast.Diagnostics {
	return env.Compile(name, src).Diags
}

// withRunFlags is env with the shell grants of the run command line.
func withRunFlags(c *cli.Context, env *workspace.Env) *workspace.Env {
	return env.WithRunFlags(splitList(c.StringSlice("allow-shell")), splitList(c.StringSlice("allow-fs")), c.Bool("unsafe-shell"))
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
