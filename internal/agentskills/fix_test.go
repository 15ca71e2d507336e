package agentskills

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/ast"
)

// TestFixesResolve applies every fix of every golden SKILL.md and parses
// the result again: no fixable diagnostic remains and no error appears
// that was not there before.
func TestFixesResolve(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	fixed := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c := parseDirectives(ar.Comment)
		for _, f := range ar.Files {
			if !strings.EqualFold(f.Name, FileName) {
				continue
			}
			src := transform(f.Data, c)
			for _, mode := range []Mode{Compat, Strict} {
				fixed += checkFixes(t, filepath.Base(file), c, src, Options{Mode: mode, UnicodeNames: c.unicode})
			}
		}
	}
	if fixed < 10 {
		t.Errorf("only %d fixes exercised", fixed)
	}
}

// checkFixes applies the fixes of one source and compares; it returns
// the number of fixes applied.
func checkFixes(t *testing.T, name string, c goldenCase, src []byte, opts Options) int {
	t.Helper()
	in := Input{Path: FileName, DirName: c.dir, Src: src}
	_, before := Parse(in, opts)
	var edits []ast.TextEdit
	for _, d := range before {
		if len(d.Fixes) > 0 {
			edits = append(edits, d.Fixes[0].Edits...)
		}
	}
	if len(edits) == 0 {
		return 0
	}
	out, n := ast.ApplyEdits(src, edits)
	in.Src = out
	_, after := Parse(in, opts)
	errsBefore := map[string]bool{}
	for _, d := range before {
		errsBefore[d.Rule] = errsBefore[d.Rule] || d.Severity == ast.Error
	}
	for _, d := range after {
		if len(d.Fixes) > 0 && n == len(edits) {
			t.Errorf("%s (%s): fixable %s remains after fixing: %s\n%s", name, opts.Mode, d.Rule, d.Message, out)
		}
		// renaming an invalid name away from an invalid directory name
		// is still the right fix; the directory is renamed by hand
		dirInvalid := d.Rule == RuleNameDir && nameProblem(c.dir, opts.UnicodeNames) != ""
		if d.Severity == ast.Error && !errsBefore[d.Rule] && !dirInvalid {
			t.Errorf("%s (%s): fixing introduced %s: %s\n%s", name, opts.Mode, d.Rule, d.Message, out)
		}
	}
	return n
}
