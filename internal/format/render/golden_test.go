package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/ast"
)

var update = flag.Bool("update", false, "rewrite the golden outputs in testdata/render")

// goldenDir holds the txtar cases shared by the renderers.
const goldenDir = "../../../testdata/render"

// outputs lists the golden sections every case carries, with their renderer.
var outputs = []struct {
	name string
	run  func(*bytes.Buffer, []ast.FileDiagnostics) error
}{
	{"want/human", func(b *bytes.Buffer, rs []ast.FileDiagnostics) error {
		return HumanAll(b, rs, HumanOptions{Context: true})
	}},
	{"want/human-short", func(b *bytes.Buffer, rs []ast.FileDiagnostics) error { return HumanAll(b, rs, HumanOptions{}) }},
	{"want/json", func(b *bytes.Buffer, rs []ast.FileDiagnostics) error { return JSON(b, rs) }},
	{"want/sarif", func(b *bytes.Buffer, rs []ast.FileDiagnostics) error { return SARIF(b, rs, testTool) }},
	{"want/github", func(b *bytes.Buffer, rs []ast.FileDiagnostics) error { return GitHub(b, rs) }},
	{"want/gitlab", func(b *bytes.Buffer, rs []ast.FileDiagnostics) error { return GitLab(b, rs) }},
}

// testTool is the tool description of the SARIF goldens.
var testTool = ToolInfo{
	Name:           "skillc",
	Version:        "0.0.0-test",
	InformationURI: "https://example.invalid/skillc",
	Rules: []RuleMeta{
		{ID: "undeclared-var", Severity: ast.Error, Short: "variable is not declared", HelpURI: "https://example.invalid/rules/undeclared-var"},
		{ID: "orphan-target", Severity: ast.Warning, Short: "target is never reached"},
	},
}

// TestGolden renders every case in testdata/render and compares each output
// section; run with -update to rewrite them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases found in %s: %v", goldenDir, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runGolden(t, file)
		})
	}
}

// runGolden checks or rewrites one archive.
func runGolden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	results := loadCase(t, ar)
	changed := false
	for _, out := range outputs {
		var buf bytes.Buffer
		if err := out.run(&buf, results); err != nil {
			t.Fatalf("%s: %v", out.name, err)
		}
		idx := section(ar, out.name)
		if *update {
			if idx < 0 {
				ar.Files = append(ar.Files, txtar.File{Name: out.name})
				idx = len(ar.Files) - 1
			}
			changed = changed || !bytes.Equal(ar.Files[idx].Data, buf.Bytes())
			ar.Files[idx].Data = buf.Bytes()
			continue
		}
		if idx < 0 {
			t.Errorf("missing section %s (run with -update)", out.name)
			continue
		}
		if diff := cmp.Diff(string(ar.Files[idx].Data), buf.String()); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", out.name, diff)
		}
	}
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// section returns the index of the named file in ar, or -1.
func section(ar *txtar.Archive, name string) int {
	for i, f := range ar.Files {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// diagSpec is the test description of a diagnostic. Ranges are written
// "line:col-line:col" (characters), "@from-to" (byte offsets) or "" for none.
type diagSpec struct {
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Range    string `json:"range"`
	Message  string `json:"message"`
	Target   string `json:"target"`
	Related  []struct {
		Range   string `json:"range"`
		Message string `json:"message"`
	} `json:"related"`
	Fixes []struct {
		Title string `json:"title"`
		Edits []struct {
			Range   string `json:"range"`
			NewText string `json:"new_text"`
		} `json:"edits"`
	} `json:"fixes"`
}

// loadCase builds the file results of an archive: each NAME.diags section
// describes the diagnostics of section NAME, in archive order.
func loadCase(t *testing.T, ar *txtar.Archive) []ast.FileDiagnostics {
	t.Helper()
	var results []ast.FileDiagnostics
	for _, f := range ar.Files {
		name, ok := strings.CutSuffix(f.Name, ".diags")
		if !ok {
			continue
		}
		idx := section(ar, name)
		if idx < 0 {
			t.Fatalf("%s has no source section %s", f.Name, name)
		}
		src := ar.Files[idx].Data
		var specs []diagSpec
		if err := json.Unmarshal(f.Data, &specs); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		lt := ast.NewLineTable(src)
		var ds ast.Diagnostics
		for _, s := range specs {
			ds = append(ds, buildDiag(t, lt, s))
		}
		results = append(results, ast.FileDiagnostics{File: name, Src: src, Diags: ds})
	}
	return results
}

// buildDiag turns a spec into a diagnostic.
func buildDiag(t *testing.T, lt *ast.LineTable, s diagSpec) *ast.Diagnostic {
	sev, ok := ast.ParseSeverity(s.Severity)
	if !ok {
		t.Fatalf("bad severity %q", s.Severity)
	}
	d := &ast.Diagnostic{Severity: sev, Rule: s.Rule, Message: s.Message, Target: s.Target, Range: parseRange(t, lt, s.Range)}
	for _, r := range s.Related {
		d.Related = append(d.Related, ast.Related{Range: parseRange(t, lt, r.Range), Message: r.Message})
	}
	for _, f := range s.Fixes {
		fix := ast.Fix{Title: f.Title}
		for _, e := range f.Edits {
			fix.Edits = append(fix.Edits, ast.TextEdit{Range: parseRange(t, lt, e.Range), NewText: e.NewText})
		}
		d.Fixes = append(d.Fixes, fix)
	}
	return d
}

// parseRange parses a range written in a spec.
func parseRange(t *testing.T, lt *ast.LineTable, s string) ast.Range {
	t.Helper()
	if s == "" {
		return ast.Range{}
	}
	from, to, ok := strings.Cut(s, "-")
	if !ok {
		t.Fatalf("bad range %q", s)
	}
	if strings.HasPrefix(from, "@") {
		return ast.RangeOf(atoi(t, from[1:]), atoi(t, to))
	}
	return ast.RangeOf(parsePoint(t, lt, from), parsePoint(t, lt, to))
}

// parsePoint converts "line:col" to a byte offset.
func parsePoint(t *testing.T, lt *ast.LineTable, s string) int {
	l, c, ok := strings.Cut(s, ":")
	if !ok {
		t.Fatalf("bad point %q", s)
	}
	return lt.Offset(atoi(t, l), atoi(t, c))
}

// atoi parses a number or fails the test.
func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(fmt.Errorf("bad number %q", s))
	}
	return n
}
