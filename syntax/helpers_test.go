package syntax

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/syntax/golden")

const testdataDir = "../testdata/syntax"

// testdataFiles returns the .skill.md files under testdata/syntax.
func testdataFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testdataDir, "*.skill.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata files in %s (%v)", testdataDir, err)
	}
	return files
}

// corpusFiles returns the .skill.md files of the repository's own corpus
// (testdata/corpus) under sub.
func corpusFiles(t testing.TB, sub string) []string {
	t.Helper()
	return testcorpus.SkillFiles(t, testcorpus.Own(t, sub))
}

// sharedCorpusFiles returns the .skill.md files of the shared corpus
// under sub. It skips t when the shared corpus is missing, or fails it
// when CI is set.
func sharedCorpusFiles(t testing.TB, sub string) []string {
	t.Helper()
	return testcorpus.SkillFiles(t, testcorpus.Shared(t, "corpus", sub))
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// want is one expected diagnostic: a rule on a line, optionally with a
// message substring.
type want struct {
	line int
	rule string
	msg  string
}

var (
	reWantMarker = regexp.MustCompile(`#\s*want(-above)?:\s*(.*)$`)
	reWantItem   = regexp.MustCompile(`([a-z][a-z0-9-]*)(\s+"((?:[^"\\]|\\.)*)")?`)
)

// parseWants reads the "# want: rule "msg"" and "# want-above: rule"
// markers of src. A want-above marker applies to the nearest line above it
// that is not itself a marker line.
func parseWants(src []byte) []want {
	var out []want
	lines := strings.Split(string(src), "\n")
	target := 0
	for i, l := range lines {
		m := reWantMarker.FindStringSubmatch(l)
		if m == nil {
			target = i + 1
			continue
		}
		line := i + 1
		if m[1] != "" {
			line = target
		} else {
			target = i + 1
		}
		for _, it := range reWantItem.FindAllStringSubmatch(m[2], -1) {
			out = append(out, want{line: line, rule: it[1], msg: strings.ReplaceAll(it[3], `\"`, `"`)})
		}
	}
	return out
}

// checkWants compares the diagnostics with the markers of src: the sets of
// (line, rule) pairs must be equal, and every message substring must occur.
func checkWants(t *testing.T, f *ast.File, src []byte, diags ast.Diagnostics) {
	t.Helper()
	got := map[string][]string{}
	for _, d := range diags {
		k := fmt.Sprintf("%d %s", f.Lines.Position(d.Range.From).Line, d.Rule)
		got[k] = append(got[k], d.Message)
	}
	wanted := map[string]bool{}
	for _, w := range parseWants(src) {
		k := fmt.Sprintf("%d %s", w.line, w.rule)
		wanted[k] = true
		msgs, ok := got[k]
		if !ok {
			t.Errorf("line %d: want %s diagnostic, got none", w.line, w.rule)
			continue
		}
		if w.msg != "" && !anyContains(msgs, w.msg) {
			t.Errorf("line %d: %s messages %q do not contain %q", w.line, w.rule, msgs, w.msg)
		}
	}
	for k, msgs := range got {
		if !wanted[k] {
			t.Errorf("unexpected diagnostic at line %s: %q", k, msgs)
		}
	}
}

func anyContains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// checkRanges verifies that every node has a valid range inside the file
// and inside its parent's range.
func checkRanges(t testing.TB, f *ast.File) {
	t.Helper()
	var walk func(parent, n ast.Node)
	bad := 0
	walk = func(parent, n ast.Node) {
		r := n.Span()
		if bad < 10 && (!r.IsValid() || r.To.Offset() > len(f.Src)) {
			bad++
			t.Errorf("%T has an invalid range %v (file %d bytes)", n, r, len(f.Src))
		}
		if parent != nil && bad < 10 && !parent.Span().Contains(r) {
			bad++
			t.Errorf("%T %s lies outside its parent %T %s", n, span(f, r), parent, span(f, parent.Span()))
		}
		for _, c := range ast.Children(n) {
			walk(n, c)
		}
	}
	walk(nil, f)
}

func span(f *ast.File, r ast.Range) string {
	a, b := f.Lines.Position(r.From), f.Lines.Position(r.To)
	return fmt.Sprintf("%d:%d-%d:%d", a.Line, a.Column, b.Line, b.Column)
}

// shape returns a position-free dump of f for comparing trees across
// formatting: node types and their scalar fields, minus the fields that
// record layout (block indents, raw header values, key spellings).
func shape(f *ast.File) string {
	var b strings.Builder
	var walk func(n ast.Node, depth int, parent ast.Node)
	walk = func(n ast.Node, depth int, parent ast.Node) {
		b.WriteString(strings.Repeat(" ", depth))
		b.WriteString(nodeFields(n, parent))
		b.WriteByte('\n')
		for _, c := range ast.Children(n) {
			walk(c, depth+1, n)
		}
	}
	walk(f, 0, nil)
	return b.String()
}

func nodeFields(n ast.Node, parent ast.Node) string {
	v := reflect.ValueOf(n).Elem()
	tp := v.Type()
	parts := []string{tp.Name()}
	_, inHeader := parent.(*ast.Header)
	for i := 0; i < tp.NumField(); i++ {
		fd, fv := tp.Field(i), v.Field(i)
		if skipField(tp.Name(), fd.Name) {
			continue
		}
		switch fv.Kind() {
		case reflect.String:
			s := fv.String()
			if inHeader {
				s = strings.ToLower(s)
			}
			if tp.Name() == "LegacyOpStmt" {
				s = strings.Join(strings.Fields(s), " ") // re-indented continuation lines
			}
			parts = append(parts, fmt.Sprintf("%s=%q", fd.Name, s))
		case reflect.Bool, reflect.Float64:
			parts = append(parts, fmt.Sprintf("%s=%v", fd.Name, fv.Interface()))
		case reflect.Int:
			if fd.Type.Name() != "Pos" {
				parts = append(parts, fmt.Sprintf("%s=%v", fd.Name, fv.Interface()))
			}
		}
	}
	return strings.Join(parts, " ")
}

func skipField(typ, field string) bool {
	switch typ + "." + field {
	case "File.Name", "Block.Indent", "Header.Value", "StatusValue.Raw":
		return true
	}
	return false
}

// content returns the non-whitespace characters of b, case-folded:
// formatting may change only whitespace and letter case.
func content(b []byte) string {
	// the formatter drops a leading byte order mark (issue 13 item 11)
	return squeeze(strings.TrimPrefix(string(b), "\ufeff"))
}
