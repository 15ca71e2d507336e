package lsp

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
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
// configuration per directory and the index of skills. The index is kept
// per file (the disk scan, overridden by open buffers) and updated one
// file at a time; a change of configuration bumps gen.
type workspace struct {
	mu      sync.Mutex
	roots   []string
	opts    *Options
	gen     int                   // bumped whenever configuration changes
	bases   map[string]*wsenv.Env // configuration per directory
	envs    map[string]*Env       // bases with the current skill index
	files   map[string]lint.SkillInfo
	skills  lint.MapIndex // built from files
	scanned bool
}

func newWorkspace(opts *Options) *workspace {
	return &workspace{opts: opts, bases: map[string]*wsenv.Env{}, envs: map[string]*Env{}}
}

// setRoots records the workspace folders and drops everything derived.
func (w *workspace) setRoots(roots []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.roots = roots
	w.invalidateLocked()
	w.files, w.skills, w.scanned = nil, nil, false
}

// changeRoots adds and removes workspace folders at run time
// (workspace/didChangeWorkspaceFolders) and indexes the folders again; it
// reports whether the folders changed.
func (w *workspace) changeRoots(added, removed []string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	roots := slices.DeleteFunc(slices.Clone(w.roots), func(r string) bool { return slices.Contains(removed, r) })
	for _, a := range added {
		if !slices.Contains(roots, a) {
			roots = append(roots, a)
		}
	}
	if slices.Equal(roots, w.roots) {
		return false
	}
	w.roots = roots
	w.invalidateLocked()
	w.files, w.skills, w.scanned = nil, nil, false
	return true
}

// invalidate drops cached configuration (the skill index stays).
func (w *workspace) invalidate() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.invalidateLocked()
}

func (w *workspace) invalidateLocked() {
	w.gen++
	w.bases = map[string]*wsenv.Env{}
	w.envs = map[string]*Env{}
}

// env returns the environment of the document at docURI and the
// configuration generation.
func (w *workspace) env(docURI string) (*Env, int) {
	dir := w.dirOf(docURI)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.scanLocked()
	if e, ok := w.envs[dir]; ok {
		return e, w.gen
	}
	base, ok := w.bases[dir]
	if !ok {
		base = wsenv.Load(dir, wsenv.LoadOptions{Env: w.opts.Env, Home: w.opts.Home, ToolCacheDir: w.opts.ToolCacheDir})
		w.bases[dir] = base
	}
	e := &Env{Env: base, Skills: skillPaths(w.skills)}
	if len(w.roots) > 0 {
		e.Env = base.WithSkills(w.skills)
	}
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

// scanLocked indexes the workspace's skills once.
func (w *workspace) scanLocked() {
	if w.scanned {
		return
	}
	w.files = scanSkills(w.roots)
	w.skills = indexOf(w.files)
	w.scanned = true
}

// updateSkill records what the skill file at path declares (from an open
// buffer or the disk; ok false means the file is gone). When that changes
// the index, it returns the skill names affected (old and new).
func (w *workspace) updateSkill(path string, si lint.SkillInfo, ok bool) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.scanLocked()
	old, had := w.files[path]
	if had == ok && (!ok || reflect.DeepEqual(old, si)) {
		return nil
	}
	var names []string
	if had {
		names = append(names, old.Name)
		delete(w.files, path)
	}
	if ok {
		names = append(names, si.Name)
		w.files[path] = si
	}
	w.skills = indexOf(w.files)
	w.envs = map[string]*Env{}
	return names
}

// indexOf builds the skill index of files, in path order.
func indexOf(files map[string]lint.SkillInfo) lint.MapIndex {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	idx := lint.MapIndex{}
	for _, p := range paths {
		si := files[p]
		si.Files, si.NameAt = nil, maps.Clone(si.NameAt)
		idx.Add(si)
	}
	return idx
}

// scanSkills reads what each *.skill.md file under roots declares (the
// workspace's skill store), skipping hidden, vendor and node_modules
// directories.
func scanSkills(roots []string) map[string]lint.SkillInfo {
	files := map[string]lint.SkillInfo{}
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
			if !strings.HasSuffix(path, SkillExt) || len(files) >= maxWorkspaceSkills {
				return nil
			}
			if src, err := os.ReadFile(path); err == nil {
				files[path] = lint.SkillInfoOf(path, src)
			}
			return nil
		})
	}
	return files
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

// rootDirs returns the workspace folders.
func (w *workspace) rootDirs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.roots)
}

// skillFiles returns the skill files of the workspace, sorted.
func (w *workspace) skillFiles() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.scanLocked()
	out := make([]string, 0, len(w.files))
	for p := range w.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// skillInfos returns what each skill file of the workspace declares.
func (w *workspace) skillInfos() []lint.SkillInfo {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.scanLocked()
	out := make([]lint.SkillInfo, 0, len(w.files))
	for _, si := range w.files {
		out = append(out, si)
	}
	return out
}
