package agentskills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// ErrNoSkillFile is returned when a directory holds no SKILL.md.
var ErrNoSkillFile = errors.New("no SKILL.md in the directory")

// FindFile returns the name of the package file in dir: SKILL.md, or a
// differently cased skill.md (then exact is false).
func FindFile(dir string) (name string, exact bool, err error) {
	if _, err := os.Lstat(filepath.Join(dir, FileName)); err == nil {
		return FileName, true, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", false, err
	}
	for _, e := range ents {
		if strings.EqualFold(e.Name(), FileName) {
			return e.Name(), false, nil
		}
	}
	return "", false, ErrNoSkillFile
}

// LoadDir reads and validates the package in dir. Relative links are
// checked against the package's files. The error is set only when there
// is no package file to read; every other problem is a diagnostic.
func LoadDir(dir string, opts Options) (*Skill, ast.Diagnostics, error) {
	name, exact, err := FindFile(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	return load(dir, name, exact, opts)
}

// LoadFile reads and validates the SKILL.md at path; its directory is the
// package.
func LoadFile(path string, opts Options) (*Skill, ast.Diagnostics, error) {
	return load(filepath.Dir(path), filepath.Base(path), filepath.Base(path) == FileName, opts)
}

// load reads dir/name through an os.Root of dir, so the file (and the
// link checks) cannot reach outside the package.
func load(dir, name string, exact bool, opts Options) (*Skill, ast.Diagnostics, error) {
	path := filepath.Join(dir, name)
	abs, _ := filepath.Abs(dir)
	in := Input{Path: path, DirName: filepath.Base(abs)}
	var pre ast.Diagnostics
	if !exact {
		pre = append(pre, fileDiag(opts, RuleFileName, "the package file is named %s; the specification requires SKILL.md", name))
	}
	if d := symlinkProblem(dir, name); d != "" {
		pre = append(pre, ast.Errorf(RuleSymlink, ast.Range{}, "%s", d))
		return &Skill{Path: path, DirName: in.DirName, Lines: ast.NewLineTable(nil)}, pre, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	src, d, err := readCapped(root, name, opts.maxSize())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if d != nil {
		return &Skill{Path: path, DirName: in.DirName, Lines: ast.NewLineTable(nil)}, append(pre, d), nil
	}
	in.Src = src
	in.Exists = func(rel string) bool { _, err := root.Stat(rel); return err == nil }
	s, ds := Parse(in, opts)
	return s, append(pre, ds...), nil
}

// fileDiag builds a whole-file diagnostic with the rule's severity in the
// options' mode.
func fileDiag(opts Options, rule, format string, args ...any) *ast.Diagnostic {
	sev := ruleSeverities(opts.Mode, opts.Claude)[rule]
	return &ast.Diagnostic{Severity: sev, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// symlinkProblem explains why dir/name, a symbolic link, may not be read:
// it cannot be resolved or it resolves outside dir. "" when it is fine.
func symlinkProblem(dir, name string) string {
	path := filepath.Join(dir, name)
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return ""
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Sprintf("%s is a symbolic link that cannot be resolved (a loop or a missing target)", name)
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Sprintf("cannot resolve the package directory: %v", err)
	}
	if rel, err := filepath.Rel(realDir, target); err != nil || !filepath.IsLocal(rel) {
		return fmt.Sprintf("%s is a symbolic link to %s, outside the package directory; copy the file into the package", name, target)
	}
	return ""
}

// readCapped reads name from root unless it is larger than limit, in
// which case a skillmd-too-large diagnostic is returned instead.
func readCapped(root *os.Root, name string, limit int64) ([]byte, *ast.Diagnostic, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("not a regular file")
	}
	if st.Size() > limit {
		return nil, tooLarge(st.Size(), limit), nil
	}
	src, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(src)) > limit {
		return nil, tooLarge(int64(len(src)), limit), nil
	}
	return src, nil, nil
}

func tooLarge(size, limit int64) *ast.Diagnostic {
	return ast.Errorf(RuleTooLarge, ast.Range{}, "SKILL.md is %d bytes, over the %d-byte cap; it is not read", size, limit)
}
