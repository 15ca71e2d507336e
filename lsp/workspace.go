package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	wsenv "github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
)

// SkillExt is the file extension of skill files.
const SkillExt = ".skill.md"

// maxWorkspaceSkills bounds the workspace scan.
const maxWorkspaceSkills = 10000

// Env is what an analysis may consult besides the source: the
// environment internal/workspace loads for the file's directory (exactly
// what `skillc check` uses) and the workspace's skills.
type Env struct {
	*wsenv.Env
	// Skills maps skill names to the files defining them (the skill store
	// for cross-skill rules).
	Skills map[string]string
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

// loadEnv loads the environment of dir as `skillc check` does, with the
// workspace as the skill store when folders are open.
func (w *workspace) loadEnv(dir string) *Env {
	env := wsenv.Load(dir, wsenv.LoadOptions{Env: w.opts.Env, Home: w.opts.Home, ToolCacheDir: w.opts.ToolCacheDir})
	if len(w.roots) > 0 {
		env = env.WithSkills(w.skills)
	}
	return &Env{Env: env, Skills: skillPaths(w.skills)}
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
