package lsp

import (
	"github.com/skillscript/skillc/internal/discovery"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/config"
	"github.com/skillscript/skillc/internal/connectors"
	"github.com/skillscript/skillc/lint"
)

// SkillExt is the file extension of skill files.
const SkillExt = ".skill.md"

// maxWorkspaceSkills bounds the workspace scan.
const maxWorkspaceSkills = 10000

// Env is what an analysis may consult besides the source: the configuration
// discovered for the file, its connectors and the workspace's skills.
type Env struct {
	Config     *config.Config
	Connectors *connectors.File // never nil
	// Skills maps skill names to the files defining them (the skill store
	// for cross-skill rules).
	Skills map[string]string
	// ToolCacheDir holds discovered MCP tool lists (eval/substrate/mcp).
	ToolCacheDir string
	// Lint and LintOptions are the linter's view of the same facts.
	Lint        *lint.Context
	LintOptions lint.Options
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
			tools = append(tools, contract.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Mutating: t.Mutating})
		}
		return tools, true
	}
	return discovery.CachedTools(e.ToolCacheDir, conn)
}

// workspace holds the state shared by all documents: the folders, the
// configuration per directory and the index of skills on disk.
type workspace struct {
	mu      sync.Mutex
	roots   []string
	opts    *Options
	gen     int // bumped whenever configuration or skills change
	envs    map[string]*Env
	skills  lint.MapIndex // the workspace's skills, from disk
	scanned bool
}

func newWorkspace(opts *Options) *workspace {
	return &workspace{opts: opts, envs: map[string]*Env{}}
}

// setRoots records the workspace folders.
func (w *workspace) setRoots(roots []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.roots = roots
	w.invalidateLocked()
}

// invalidate drops cached configuration and the skill index.
func (w *workspace) invalidate() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.invalidateLocked()
}

func (w *workspace) invalidateLocked() {
	w.gen++
	w.envs = map[string]*Env{}
	w.skills, w.scanned = nil, false
}

// generation returns the current generation.
func (w *workspace) generation() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.gen
}

// env returns the environment of the document at docURI.
func (w *workspace) env(docURI string) (*Env, int) {
	dir := w.dirOf(docURI)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.scanned {
		w.skills = scanSkills(w.roots)
		w.scanned = true
	}
	if e, ok := w.envs[dir]; ok {
		return e, w.gen
	}
	e := w.loadEnv(dir)
	w.envs[dir] = e
	return e, w.gen
}

// dirOf returns the directory configuration is discovered from: the
// file's directory, or the first root for untitled documents.
func (w *workspace) dirOf(docURI string) string {
	if p := filePath(docURI); p != "" {
		return filepath.Dir(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.roots) > 0 {
		return w.roots[0]
	}
	return ""
}

// loadEnv discovers configuration from dir as `skillc check` does and
// builds the lint context with the workspace as the skill store.
func (w *workspace) loadEnv(dir string) *Env {
	cfg, _ := config.Load(config.LoadOptions{StartDir: dir, Env: w.opts.Env, Home: w.opts.Home})
	conns := &connectors.File{}
	var parsed *connectors.File
	if cfg.ConnectorsPath != "" {
		if f, _ := connectors.Parse(cfg.Connectors, cfg.Getenv); f != nil {
			conns, parsed = f, f
		}
	}
	cacheDir := w.opts.ToolCacheDir
	if cacheDir == "" {
		cacheDir = discovery.CacheDir(cfg.Home)
	}
	env := &Env{Config: cfg, Connectors: conns, Skills: skillPaths(w.skills), ToolCacheDir: cacheDir}
	ctx := lint.ContextFrom(cfg, parsed, "")
	if len(w.roots) > 0 {
		ctx = ctx.WithSkills(w.skills)
	}
	discovery.AddCachedTools(ctx, env.ToolCacheDir)
	env.Lint = ctx
	env.LintOptions = lint.Options{Severity: cfg.Lint.Severity, Disable: cfg.Lint.Disable}
	return env
}

// scanSkills indexes the *.skill.md files under roots (the workspace's
// skill store), skipping hidden, vendor and node_modules directories.
func scanSkills(roots []string) lint.MapIndex {
	idx := lint.MapIndex{}
	n := 0
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if path != root && skipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, SkillExt) || n >= maxWorkspaceSkills {
				return nil
			}
			n++
			if src, err := os.ReadFile(path); err == nil {
				idx.Add(lint.SkillInfoOf(path, src))
			}
			return nil
		})
	}
	return idx
}

func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor"
}

// skillPaths maps each indexed skill name to its file.
func skillPaths(idx lint.MapIndex) map[string]string {
	out := map[string]string{}
	for name, si := range idx {
		out[name] = si.File
	}
	return out
}

// filePath returns the local path of a file: URI, or "" for any other
// scheme (untitled:, ...).
func filePath(u string) string {
	if !strings.HasPrefix(u, "file:") {
		return ""
	}
	return uri.URI(u).FsPath()
}

// fileURI returns the file: URI of a path.
func fileURI(path string) string { return string(uri.File(path)) }

// emptyConnectors is the connectors file of a workspace without one.
func emptyConnectors() *connectors.File { return &connectors.File{} }
