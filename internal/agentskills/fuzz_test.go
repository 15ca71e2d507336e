package agentskills

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/ast"
)

// FuzzParse parses arbitrary SKILL.md bytes in both modes: no panic, every
// range lies inside the source, fixes apply, a loadable skill has a name
// and a description, and the modes agree on what the frontmatter says
// whenever both can load it.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, sec := range ar.Files {
			if strings.EqualFold(sec.Name, FileName) || strings.HasSuffix(sec.Name, ".md") {
				f.Add(sec.Data, "report")
			}
		}
	}
	f.Add([]byte("\ufeff---\r\nname: a\r\ndescription: b: c\r\n---\r\n"), "a")
	f.Add([]byte("---\na: &a [*a, *a]\nb: &b [*a, *a]\n---\n"), "x")
	f.Fuzz(func(t *testing.T, src []byte, dir string) {
		compat, cds := Parse(Input{Path: "SKILL.md", DirName: dir, Src: src}, Options{})
		strict, sds := Parse(Input{Path: "SKILL.md", DirName: dir, Src: src}, Options{Mode: Strict, Claude: true})
		for _, ds := range []ast.Diagnostics{cds, sds} {
			for _, d := range ds {
				checkRange(t, src, d.Range, d.Rule)
				for _, fx := range d.Fixes {
					for _, e := range fx.Edits {
						checkRange(t, src, e.Range, d.Rule+" fix")
					}
				}
			}
		}
		for _, s := range []*Skill{compat, strict} {
			if s.Loadable && (s.Name == "" || strings.TrimSpace(s.Description) == "") {
				t.Errorf("loadable without name or description: %q %q", s.Name, s.Description)
			}
		}
		if compat.Loadable && strict.Loadable && (compat.Name != strict.Name || compat.Description != strict.Description) {
			t.Errorf("modes disagree: %q/%q vs %q/%q", compat.Name, compat.Description, strict.Name, strict.Description)
		}
	})
}

func checkRange(t *testing.T, src []byte, r ast.Range, what string) {
	t.Helper()
	if r == (ast.Range{}) {
		return
	}
	if !r.IsValid() || r.To.Offset() > len(src) {
		t.Fatalf("%s: range %v outside the %d-byte source", what, r, len(src))
	}
}
