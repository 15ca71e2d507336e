package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	gitignore "github.com/sabhiram/go-gitignore"
)

// source is one input file (or stdin, named "-" / "<stdin>").
type source struct {
	Path string // as given or found; "<stdin>" for standard input
	Src  []byte
	Err  error
}

// inputs is the expansion of a command line's path arguments.
type inputs struct {
	paths []string
	// explicit holds the paths named as files on the command line (not
	// found by a directory walk or a glob): they are checked even when
	// the lint ignore globs or a .gitignore would skip them.
	explicit map[string]bool
	// unmatched lists the arguments (directories or glob patterns) that
	// contributed no skill.
	unmatched []string
	// listed maps each directory the walk listed whole (by absolute
	// path) to the names of the *.skill.md files in it that are not
	// directories: the skill-directory index of the lint context reuses
	// it instead of listing the directory again (decision CF7).
	listed map[string][]string
}

// collectPaths expands the arguments into files: a directory contributes
// every *.skill.md below it (skipping excludedDirs — .git, node_modules,
// .venv, caches — and what .gitignore files exclude), a glob pattern (with "**" for any number
// of directories) contributes the skills it matches, a file is taken as
// given, "-" means standard input.
func collectPaths(args []string) (inputs, error) { return collectInputs(args, false) }

// collectInputs is collectPaths; with packages, a directory holding a
// SKILL.md (an Agent Skills package) contributes that file instead, and
// its own files (including *.skill.md resources) are not searched.
func collectInputs(args []string, packages bool) (inputs, error) {
	in := inputs{explicit: map[string]bool{}, listed: map[string][]string{}}
	ig := newIgnorer()
	ig.listed = in.listed
	for _, a := range args {
		if a == "-" {
			in.paths = append(in.paths, "-")
			continue
		}
		st, err := os.Stat(a)
		var found []string
		switch {
		case err != nil && isGlob(a):
			found, err = globInputs(a, packages, ig)
			if err != nil {
				return in, err
			}
		case err != nil:
			return in, fmt.Errorf("%s: %w", a, errNoFile(err))
		case !st.IsDir():
			in.paths = append(in.paths, a)
			in.explicit[a] = true
			continue
		default:
			found, err = walkInputs(a, packages, ig)
			if err != nil {
				return in, err
			}
		}
		if len(found) == 0 {
			in.unmatched = append(in.unmatched, a)
		}
		in.paths = append(in.paths, found...)
	}
	return in, nil
}

// isGlob reports whether a holds glob syntax skillc expands itself (for
// patterns quoted from the shell, and shells without "**").
func isGlob(a string) bool { return strings.ContainsAny(a, "*?[{") }

// isSkillInput reports whether a file found by a walk or glob is an input.
func isSkillInput(name string, packages bool) bool {
	return strings.HasSuffix(name, ".skill.md") || (packages && name == "SKILL.md")
}

// globInputs lists the skills pattern matches, sorted; ignored files
// (.gitignore, excludedDirs) are left out.
func globInputs(pattern string, packages bool, ig *ignorer) ([]string, error) {
	if !doublestar.ValidatePattern(filepath.ToSlash(pattern)) {
		return nil, fmt.Errorf("%s: malformed glob pattern", pattern)
	}
	matches, err := doublestar.FilepathGlob(pattern, doublestar.WithFilesOnly())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pattern, err)
	}
	var out []string
	for _, m := range matches {
		if isSkillInput(filepath.Base(m), packages) && !hiddenPath(m) && !ig.ignored(m, false) {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out, nil
}

// excludedDirs are the directories every walk and glob skips, as ruff
// does: version-control metadata, dependency trees, virtual environments
// and caches. Other hidden directories are walked: .agents/skills and
// .claude/skills are where Agent Skills and skills live in a project.
var excludedDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true,
	"node_modules": true, ".venv": true, "venv": true, ".tox": true, ".nox": true,
	"__pycache__": true, ".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true,
	".cache": true, ".direnv": true, ".idea": true, "site-packages": true,
}

// hiddenPath reports whether a directory of p (not p itself) is one of
// excludedDirs, which walks and globs skip.
func hiddenPath(p string) bool {
	dir := filepath.ToSlash(filepath.Dir(p))
	for _, seg := range strings.Split(dir, "/") {
		if excludedDirs[seg] {
			return true
		}
	}
	return false
}

// walkInputs lists the inputs below directory a, sorted.
func walkInputs(a string, packages bool, ig *ignorer) ([]string, error) {
	var found []string
	// The listings of the directories entered, by the walk's own path.
	var listed map[string][]string
	if ig.listed != nil {
		listed = map[string][]string{}
	}
	err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != a && (excludedDirs[d.Name()] || ig.ignored(p, true)) {
			return filepath.SkipDir
		}
		if d.IsDir() && packages {
			if f := packageFile(p); f != "" {
				found = append(found, f)
				return filepath.SkipDir
			}
		}
		if listed != nil && p != a {
			parent := filepath.Clean(filepath.Dir(p))
			if names, ok := listed[parent]; ok && !d.IsDir() && strings.HasSuffix(d.Name(), ".skill.md") {
				listed[parent] = append(names, d.Name())
			}
		}
		if d.IsDir() && listed != nil {
			listed[filepath.Clean(p)] = []string{} // entered: every entry follows
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".skill.md") && !ig.ignored(p, false) {
			found = append(found, p)
		}
		return nil
	})
	if err == nil {
		for dir, names := range listed {
			if abs, err := ig.wd.abs(dir); err == nil {
				ig.listed[abs] = names
			}
		}
	}
	sort.Strings(found)
	return found, err
}

// ignorer answers whether a path is excluded by a .gitignore file: those
// of its directory and every parent up to the repository root (the
// nearest directory holding .git), or up to the file system root when
// there is no repository. Compiled files are cached by directory.
type ignorer struct {
	files map[string]*gitignore.GitIgnore // nil: no .gitignore there
	roots map[string]string               // directory → its repository root ("" for none)
	wd    workDir
	// listed, when set, collects the walks' directory listings
	// (inputs.listed).
	listed map[string][]string
}

func newIgnorer() *ignorer {
	return &ignorer{files: map[string]*gitignore.GitIgnore{}, roots: map[string]string{}, wd: newWorkDir()}
}

// workDir makes paths absolute against the working directory read once:
// filepath.Abs asks for it (two stats) on every relative path, and a
// check of a relative folder asks for every file (decision CF5).
type workDir func() (string, error)

func newWorkDir() workDir { return sync.OnceValues(os.Getwd) }

// abs is filepath.Abs(p) with the working directory read once (Windows,
// where a path can be relative to a drive, keeps filepath.Abs).
func (w workDir) abs(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := w()
	if err != nil || runtime.GOOS == "windows" {
		return filepath.Abs(p)
	}
	return filepath.Join(wd, p), nil
}

// ignored reports whether path (a directory when dir is set) is excluded.
func (ig *ignorer) ignored(path string, dir bool) bool {
	abs, err := ig.wd.abs(path)
	if err != nil {
		return false
	}
	root := ig.repoRoot(filepath.Dir(abs))
	if root == "" {
		return false
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if gi := ig.file(d); gi != nil {
			rel, err := filepath.Rel(d, abs)
			if err == nil {
				rel = filepath.ToSlash(rel)
				if dir {
					rel += "/"
				}
				if gi.MatchesPath(rel) {
					return true
				}
			}
		}
		if d == root || filepath.Dir(d) == d {
			return false
		}
	}
}

// repoRoot returns the nearest directory at or above dir holding .git,
// or "" when dir is not inside a repository: .gitignore files are only
// honoured inside one, as git does.
func (ig *ignorer) repoRoot(dir string) string {
	if r, ok := ig.roots[dir]; ok {
		return r
	}
	var r string
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		r = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		r = ig.repoRoot(parent)
	}
	ig.roots[dir] = r
	return r
}

// file returns the compiled .gitignore of dir, or nil.
func (ig *ignorer) file(dir string) *gitignore.GitIgnore {
	if gi, ok := ig.files[dir]; ok {
		return gi
	}
	gi, err := gitignore.CompileIgnoreFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		gi = nil
	}
	ig.files[dir] = gi
	return gi
}

func errNoFile(err error) error {
	if os.IsNotExist(err) {
		return fmt.Errorf("no such file or directory")
	}
	return err
}

// maxSourceSize bounds what skillc reads from one file.
const maxSourceSize = 64 << 20

// stdinName is how diagnostics name standard input without --stdin-filename.
const stdinName = "<stdin>"

// readSource reads path (or stdin for "-").
func readSource(path string, stdin io.Reader) source {
	if path == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, maxSourceSize+1))
		if err == nil && len(b) > maxSourceSize {
			err = fmt.Errorf("input larger than %d MB", maxSourceSize>>20)
		}
		return source{Path: stdinName, Src: b, Err: err}
	}
	b, err := readFileMax(path)
	return source{Path: path, Src: b, Err: err}
}

// readFileMax is os.ReadFile refusing a file larger than maxSourceSize,
// which it learns from the open file (one path lookup per file, not two:
// decision CF4). openSource opens the file.
func readFileMax(path string) ([]byte, error) {
	f, err := openSource(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if n, ok := f.size(); ok {
		if n > maxSourceSize {
			return nil, fmt.Errorf("file larger than %d MB", maxSourceSize>>20)
		}
		size = int(n)
	}
	b := make([]byte, 0, max(size+1, 512))
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// warnUnmatched prints a warning for each argument that matched no skill
// and returns whether there was any (the command then exits 2).
func warnUnmatched(s *streams, in inputs) bool {
	for _, a := range in.unmatched {
		fmt.Fprintf(s.err, "skillc: warning: %s matches no skill\n", a)
	}
	return len(in.unmatched) > 0
}
