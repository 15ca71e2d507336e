package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

// SkillInfo is what the cross-skill rules know about a stored skill.
type SkillInfo struct {
	Name    string
	Status  string // Draft, Approved, Disabled; "" when not declared
	Type    string // procedural or data
	Returns []string
	// File is the file the skill was read from; Files lists every file
	// in the store declaring this name (more than one is a duplicate).
	File  string
	Files []string
	// NameAt maps each file of Files to the range of its `# Skill:` name
	// (absent for a file without the header); StatusAt is the range of
	// File's `# Status:` header. Rules point related locations at them.
	NameAt   map[string]ast.Range
	StatusAt ast.Range
}

// Declared returns the related location "declared here" of the skill's
// name in file, with message msg.
func (si SkillInfo) Declared(file, msg string) ast.Related {
	return ast.Related{File: file, Range: si.NameAt[file], Message: msg}
}

// SkillIndex is a view of the skill store.
type SkillIndex interface {
	Lookup(name string) (SkillInfo, bool)
	Names() []string
}

// MapIndex is a SkillIndex over a map, for the CLI, the language server
// and tests.
type MapIndex map[string]SkillInfo

// Lookup returns the skill called name.
func (m MapIndex) Lookup(name string) (SkillInfo, bool) {
	si, ok := m[name]
	return si, ok
}

// Names returns the stored names, sorted.
func (m MapIndex) Names() []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Add records si, keeping track of every file declaring the same name.
func (m MapIndex) Add(si SkillInfo) {
	prev, ok := m[si.Name]
	if !ok {
		if len(si.Files) == 0 && si.File != "" {
			si.Files = []string{si.File}
		}
		m[si.Name] = si
		return
	}
	prev.Files = append(prev.Files, si.File)
	if r, ok := si.NameAt[si.File]; ok {
		if prev.NameAt == nil {
			prev.NameAt = map[string]ast.Range{}
		}
		prev.NameAt[si.File] = r
	}
	m[si.Name] = prev
}

// IndexSkills parses every *.skill.md directly in dir (headers only
// matter; subdirectories are not part of the store, as for the runtime's
// filesystem skill store) and
// returns the index. Files without a # Skill: header are indexed under
// their file name without the extension. Unreadable files are skipped;
// the error reports a dir that cannot be walked.
func IndexSkills(dir string) (MapIndex, error) {
	idx := MapIndex{}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil
		}
		if d.IsDir() && path != dir {
			return fs.SkipDir // the runtime's filesystem store is flat
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".skill.md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		idx.Add(SkillInfoOf(path, src))
	}
	return idx, nil
}

// DirIndex is the lazy SkillIndex of a skill folder: opening it lists the
// *.skill.md files directly in the folder; the first Lookup or Names reads
// each file's `# Skill:` name from its leading header lines (parsing only
// the files where those lines do not settle it, see syntax.SkillName);
// Lookup parses the files declaring the name asked for, once. Checking
// one skill in a folder of thousands that it does not reference reads
// none of them. The answers are those of IndexSkills over the same
// folder. It is safe for concurrent use.
type DirIndex struct {
	files []string // sorted
	read  func(path string) ([]byte, error)

	scanOnce sync.Once
	byName   map[string][]string // name -> its files, sorted
	names    []string

	mu    sync.Mutex
	infos map[string]SkillInfo
}

// OpenSkillDir returns the lazy index of the *.skill.md files directly in
// dir (the runtime's filesystem store is flat); the error reports a dir
// that cannot be listed. Like IndexSkills (a filepath.WalkDir, which does
// not follow a symbolic link given as its root), it finds no files when
// dir itself is a symbolic link.
func OpenSkillDir(dir string) (*DirIndex, error) { return OpenSkillDirWith(dir, SkillDirOptions{}) }

// SkillDirOptions let the caller of OpenSkillDirWith hand the index what
// it already holds; the zero value reads everything.
type SkillDirOptions struct {
	// Listed, when set, answers the directory's listing when it has one:
	// the names of the *.skill.md entries of dir that are not
	// directories, as a walk that just read dir found them (skillc check
	// lists each folder once). A nil Listed, or one without dir, reads the
	// directory.
	Listed func(dir string) ([]string, bool)
	// Read, when set, reads a skill file of the directory (the path is
	// the directory joined with the file name) instead of os.ReadFile: a
	// command that reads the same files itself passes a reader sharing
	// its reads (workspace.Sources), so that each file is read once.
	// A file Read fails on is read with os.ReadFile, so a reader with
	// limits of its own never changes what the index finds.
	Read func(path string) ([]byte, error)
}

// OpenSkillDirWith is OpenSkillDir taking what o provides.
func OpenSkillDirWith(dir string, o SkillDirOptions) (*DirIndex, error) {
	x := &DirIndex{infos: map[string]SkillInfo{}, read: o.Read}
	listed := o.Listed
	st, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return x, nil
	}
	if listed != nil {
		if names, ok := listed(dir); ok {
			for _, n := range names {
				if strings.HasSuffix(n, ".skill.md") {
					x.files = append(x.files, filepath.Join(dir, n))
				}
			}
			sort.Strings(x.files)
			return x, nil
		}
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, d := range des {
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".skill.md") {
			x.files = append(x.files, filepath.Join(dir, d.Name()))
		}
	}
	sort.Strings(x.files)
	return x, nil
}

// scan reads the name of every file once. Unreadable files are skipped,
// as IndexSkills skips them.
func (x *DirIndex) scan() {
	x.scanOnce.Do(func() {
		x.byName = map[string][]string{}
		for _, path := range x.files {
			src, err := x.readFile(path)
			if err != nil {
				continue
			}
			name, ok := syntax.SkillName(src)
			if !ok {
				f, _ := syntax.Parse(path, src)
				name = f.SkillName()
			}
			if name == "" {
				name = strings.TrimSuffix(filepath.Base(path), ".skill.md")
			}
			if _, seen := x.byName[name]; !seen {
				x.names = append(x.names, name)
			}
			x.byName[name] = append(x.byName[name], path)
		}
		sort.Strings(x.names)
	})
}

// readFile reads a file of the index, through the caller's reader when
// it gave one (see SkillDirOptions.Read).
func (x *DirIndex) readFile(path string) ([]byte, error) {
	if x.read != nil {
		if src, err := x.read(path); err == nil {
			return src, nil
		}
	}
	return os.ReadFile(path)
}

// Lookup returns the skill called name, parsing the files that declare
// it on the first call for that name.
func (x *DirIndex) Lookup(name string) (SkillInfo, bool) {
	x.scan()
	files, ok := x.byName[name]
	if !ok {
		return SkillInfo{}, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if si, ok := x.infos[name]; ok {
		return si, true
	}
	m := MapIndex{}
	for _, path := range files {
		src, err := x.readFile(path)
		if err != nil {
			continue
		}
		if si := SkillInfoOf(path, src); si.Name == name {
			m.Add(si)
		}
	}
	si, ok := m[name]
	if !ok {
		// every file changed its name since the scan
		si = SkillInfo{Name: name, Type: "procedural", File: files[0], Files: files}
	}
	x.infos[name] = si
	return si, true
}

// Names returns the stored names, sorted.
func (x *DirIndex) Names() []string {
	x.scan()
	return append([]string{}, x.names...)
}

// SkillInfoOf summarizes a skill source for the index.
func SkillInfoOf(path string, src []byte) SkillInfo {
	f, _ := syntax.Parse(path, src)
	return SkillInfoFrom(path, f)
}

// SkillInfoFrom is SkillInfoOf for a file already parsed.
func SkillInfoFrom(path string, f *ast.File) SkillInfo {
	si := SkillInfo{Name: f.SkillName(), Type: "procedural", File: path}
	if si.Name == "" {
		si.Name = strings.TrimSuffix(filepath.Base(path), ".skill.md")
	} else if h := f.Header(ast.HeaderSkill); h != nil && len(h.Names) == 1 {
		si.NameAt = map[string]ast.Range{path: h.Names[0].Span()}
	}
	if h := f.Header(ast.HeaderStatus); h != nil && h.Status != nil {
		si.Status, si.StatusAt = h.Status.State, h.Span()
	}
	if h := f.Header(ast.HeaderType); h != nil && len(h.Names) == 1 {
		si.Type = h.Names[0].Name
	}
	for _, h := range f.HeadersOf(ast.HeaderReturns) {
		for _, n := range h.Names {
			si.Returns = append(si.Returns, n.Name)
		}
	}
	return si
}
