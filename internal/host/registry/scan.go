package registry

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
)

// Root is a directory of skills and the origin label its skills get.
type Root struct {
	Dir    string
	Origin string
}

// DefaultRoots returns the roots in precedence order: <project>/.agents/skills
// (origin "project"), <home>/.agents/skills ("user"), then each configured
// directory ("config", "config-2", ...). Empty project or home are left out.
func DefaultRoots(project, home string, configured ...string) []Root {
	var out []Root
	if project != "" {
		out = append(out, Root{Dir: filepath.Join(project, ".agents", "skills"), Origin: OriginProject})
	}
	if home != "" {
		out = append(out, Root{Dir: filepath.Join(home, ".agents", "skills"), Origin: OriginUser})
	}
	for i, d := range configured {
		origin := OriginConfig
		if i > 0 {
			origin = fmt.Sprintf("%s-%d", OriginConfig, i+1)
		}
		out = append(out, Root{Dir: d, Origin: origin})
	}
	return out
}

// Default scan bounds, per root.
const (
	DefaultMaxDepth = 6
	DefaultMaxDirs  = 2000
)

// candidate is a skill found by the scan, not yet indexed.
type candidate struct {
	kind   Kind
	path   string // package directory or .skill.md file
	origin string
	order  int // index of the root, for precedence among configured roots
	// base and rel are the scan root and the path below it (slash-
	// separated), for stats relative to the root (packages only).
	base *statDir
	rel  string
	// file and fileName are the package file's stat from the scan
	// (packages only), so that the manifest does not stat it again.
	file     fileStat
	fileName string
}

// walker scans one root with bounded depth and directory count. It
// follows symbolic links to directories once, remembering resolved paths
// so that a link loop is reported instead of followed.
type walker struct {
	root     Root
	base     *statDir // the root, for relative stats
	cache    *cache   // directory listings
	order    int
	maxDepth int
	maxDirs  int
	dirs     int
	seen     map[string]bool
	watched  []string // every directory visited (for the watcher)
	out      []candidate
	probs    ast.Diagnostics
	limited  bool
}

func (w *walker) problem(path, format string, args ...any) {
	w.probs = append(w.probs, inFile(path, ast.Warnf(agentskills.RuleScanLimit, ast.Range{}, format, args...)))
}

// walk visits dir (whose resolved path is real, and whose path below the
// root is rel) at depth.
func (w *walker) walk(dir, real, rel string, depth int) {
	if w.dirs >= w.maxDirs {
		if !w.limited {
			w.problem(dir, "stopped scanning %s after %d directories (the scan limit); skills below were not indexed; raise it with --max-scan-dirs, SKILLSCRIPT_SKILLS_MAX_SCAN_DIRS or max_scan_dirs", w.root.Dir, w.maxDirs)
			w.limited = true
		}
		return
	}
	if w.seen[real] {
		w.problem(dir, "symbolic link loop: %s leads back to %s, which was already scanned", dir, real)
		return
	}
	w.seen[real] = true
	w.dirs++
	w.watched = append(w.watched, dir)
	if name, st, ok := packageFile(w.base, rel); ok {
		w.out = append(w.out, candidate{kind: KindPackage, path: dir, origin: w.root.Origin, order: w.order, base: w.base, rel: rel, file: st, fileName: name})
		return
	}
	// listed from the cache while the directory's modification time is
	// unchanged (DS5), as a package's own directories are
	st, err := w.base.stat(rel)
	var ents []dirEnt
	if err == nil {
		ents, err = w.cache.readDir(dir, st)
	}
	if err != nil {
		if depth == 0 && os.IsNotExist(err) {
			return // an absent root is normal (no user skills)
		}
		w.problem(dir, "cannot read %s: %v", dir, err)
		return
	}
	for _, e := range ents {
		w.entry(dir, real, rel, depth, e)
	}
}

// entry handles one directory entry.
func (w *walker) entry(dir, real, rel string, depth int, e dirEnt) {
	name := e.Name
	path := joinName(dir, name)
	isDir, sub := e.Mode.IsDir(), joinName(real, name)
	if e.Mode&os.ModeSymlink != 0 {
		st, err := os.Stat(path)
		if err != nil {
			w.problem(path, "cannot follow the symbolic link %s: %v", path, err)
			return
		}
		isDir = st.IsDir()
		if sub, err = filepath.EvalSymlinks(path); err != nil {
			return
		}
	}
	switch {
	case isDir && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__"):
	case isDir && depth+1 > w.maxDepth:
		w.problem(path, "%s is deeper than %d levels below %s; it was not scanned", path, w.maxDepth, w.root.Dir)
	case isDir:
		w.walk(path, sub, relJoin(rel, name), depth+1)
	case strings.HasSuffix(name, ".skill.md"):
		w.out = append(w.out, candidate{kind: KindScript, path: path, origin: w.root.Origin, order: w.order})
	}
}

// joinName is filepath.Join(dir, name) for a clean dir and a name read
// from a directory (never empty, ".", ".." nor holding a separator),
// without Join's cleaning pass.
func joinName(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// packageFile returns the package file of the directory rel below base
// and its Lstat; ok is false when it has none.
func packageFile(base *statDir, rel string) (name string, st fileStat, ok bool) {
	for _, n := range []string{agentskills.FileName, "skill.md"} {
		if st, err := base.lstat(relJoin(rel, n)); err == nil {
			return n, st, true
		}
	}
	return "", fileStat{}, false
}

// scanResult is what scan found: the candidates, the problems, the
// directories visited and the roots whose scan a limit cut short.
type scanResult struct {
	cands     []candidate
	bases     []*statDir // the roots' descriptors: closed by closeBases
	probs     ast.Diagnostics
	dirs      []string
	truncated []string
}

// scan walks every root, listing directories through c.
func scan(opts Options, c *cache) scanResult {
	var res scanResult
	for i, root := range opts.Roots {
		abs, err := filepath.Abs(root.Dir)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		w := &walker{root: root, base: openStatDir(abs), cache: c, order: i, maxDepth: opts.maxDepth(), maxDirs: opts.maxDirs(), seen: map[string]bool{}}
		res.bases = append(res.bases, w.base)
		w.walk(abs, real, "", 0)
		res.cands, res.probs, res.dirs = append(res.cands, w.out...), append(res.probs, w.probs...), append(res.dirs, w.watched...)
		if w.limited {
			res.truncated = append(res.truncated, root.Dir)
		}
	}
	return res
}

// closeBases closes the roots' descriptors once the candidates are
// indexed.
func (r scanResult) closeBases() {
	for _, b := range r.bases {
		b.close()
	}
}
