package agentskills

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/ast"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/agentskills")

const goldenDir = "../../testdata/agentskills"

// TestGolden validates the package of every testdata/agentskills/*.txtar
// in compat and strict mode (and with the claude profile when the archive
// says "claude") and compares the diagnostics with the want sections.
//
// The archive comment holds directives, one a line: "dir: NAME" (the
// package directory, default "report"), "crlf" and "bom" (rewrite
// SKILL.md), "unicode" (unicode names), "claude", and
// "nul" (append a NUL byte to SKILL.md), "symlink: LINK -> TARGET" (paths relative to the package directory).
// Files named "../x" are written next to the package.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) { runGolden(t, file) })
	}
}

// goldenCase is the parsed directives of an archive.
type goldenCase struct {
	dir      string
	crlf     bool
	bom      bool
	unicode  bool
	claude   bool
	nul      bool
	symlinks [][2]string
}

func parseDirectives(comment []byte) goldenCase {
	c := goldenCase{dir: "report"}
	for _, l := range strings.Split(string(comment), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(l), ":")
		v = strings.TrimSpace(v)
		switch k {
		case "dir":
			c.dir = v
		case "crlf":
			c.crlf = true
		case "bom":
			c.bom = true
		case "unicode":
			c.unicode = true
		case "claude":
			c.claude = true
		case "nul":
			c.nul = true
		case "symlink":
			from, to, _ := strings.Cut(v, "->")
			c.symlinks = append(c.symlinks, [2]string{strings.TrimSpace(from), strings.TrimSpace(to)})
		}
	}
	return c
}

func runGolden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := parseDirectives(ar.Comment)
	pkg := writePackage(t, ar, c)
	modes := []struct {
		section string
		opts    Options
	}{
		{"want/compat", Options{UnicodeNames: c.unicode}},
		{"want/strict", Options{Mode: Strict, UnicodeNames: c.unicode}},
	}
	if c.claude {
		modes = append(modes, struct {
			section string
			opts    Options
		}{"want/claude", Options{Claude: true, UnicodeNames: c.unicode}})
	}
	changed := false
	for _, m := range modes {
		got := describe(t, pkg, m.opts)
		idx := sectionIndex(ar, m.section)
		if *update {
			if idx < 0 {
				ar.Files = append(ar.Files, txtar.File{Name: m.section})
				idx = len(ar.Files) - 1
			}
			changed = changed || string(ar.Files[idx].Data) != got
			ar.Files[idx].Data = []byte(got)
			continue
		}
		if idx < 0 {
			t.Errorf("missing section %s (run with -update)", m.section)
			continue
		}
		if diff := cmp.Diff(string(ar.Files[idx].Data), got); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", m.section, diff)
		}
	}
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func sectionIndex(ar *txtar.Archive, name string) int {
	for i, f := range ar.Files {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// writePackage materialises the archive's files under a temporary
// directory and returns the package directory.
func writePackage(t *testing.T, ar *txtar.Archive, c goldenCase) string {
	t.Helper()
	base := t.TempDir()
	pkg := filepath.Join(base, c.dir)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want/") {
			continue
		}
		data := f.Data
		if strings.EqualFold(f.Name, FileName) {
			data = transform(data, c)
		}
		p := filepath.Join(pkg, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range c.symlinks {
		if err := os.Symlink(l[1], filepath.Join(pkg, l[0])); err != nil {
			t.Fatal(err)
		}
	}
	return pkg
}

func transform(data []byte, c goldenCase) []byte {
	if c.crlf {
		data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	}
	if c.bom {
		data = append(append([]byte(nil), bom...), data...)
	}
	if c.nul {
		data = append(append([]byte(nil), data...), 0)
	}
	return data
}

// describe loads the package and renders its diagnostics, one a line:
// "L:C-L:C severity rule: message", fixes indented below, then a summary
// line with the loaded name and whether it is loadable.
func describe(t *testing.T, pkg string, opts Options) string {
	t.Helper()
	s, ds, err := LoadDir(pkg, opts)
	if err != nil {
		return "error: " + strings.ReplaceAll(err.Error(), pkg, "$PKG") + "\n"
	}
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s %s: %s\n", span(s.Lines, d.Range), d.Severity, d.Rule, strings.ReplaceAll(d.Message, filepath.Dir(pkg), "$BASE"))
		for _, r := range d.Related {
			fmt.Fprintf(&b, "    related %s: %s\n", span(s.Lines, r.Range), r.Message)
		}
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				fmt.Fprintf(&b, "    fix %q: %s => %q\n", f.Title, span(s.Lines, e.Range), e.NewText)
			}
		}
		checkInside(t, s, d)
	}
	fmt.Fprintf(&b, "loadable=%v name=%q tools=%q\n", s.Loadable, s.Name, s.AllowedTools)
	return b.String()
}

func span(lt *ast.LineTable, r ast.Range) string {
	if !r.IsValid() {
		return "-"
	}
	a, z := lt.Position(r.From), lt.Position(r.To)
	return fmt.Sprintf("%d:%d-%d:%d", a.Line, a.Column, z.Line, z.Column)
}

// checkInside fails when a diagnostic's range is not inside the source.
func checkInside(t *testing.T, s *Skill, d *ast.Diagnostic) {
	t.Helper()
	if d.Range == (ast.Range{}) {
		return
	}
	if !d.Range.IsValid() || d.Range.To.Offset() > len(s.Src) {
		t.Errorf("%s: range %v outside the %d-byte source", d.Rule, d.Range, len(s.Src))
	}
}

// TestEveryRuleHasAGolden: each rule Parse or LoadDir reports fires in at
// least one golden archive (skillmd-too-large: TestFiftyMegabyteSkillMD;
// registry rules: internal/host/registry).
func TestEveryRuleHasAGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for _, r := range Rules() {
		if r.Registry || r.ID == RuleTooLarge {
			continue
		}
		if !strings.Contains(all.String(), " "+r.ID+": ") {
			t.Errorf("no golden fixture reports %s", r.ID)
		}
	}
}
