package render

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillscript/skillc/ast"
)

// FuzzRender renders a diagnostic with an arbitrary range over arbitrary
// source with every renderer: none may panic, the JSON and SARIF must be
// valid JSON, and the human excerpt must be exactly two lines.
func FuzzRender(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, sec := range ar.Files {
			if strings.HasSuffix(sec.Name, ".skill.md") {
				f.Add(sec.Data, 3, 9, "message")
			}
		}
	}
	f.Add([]byte("a\r\nb\tc\x00\xff"), 0, 100, "multi\nline")
	f.Fuzz(func(t *testing.T, src []byte, from, to int, msg string) {
		d := &ast.Diagnostic{Severity: ast.Warning, Rule: "r", Message: msg, Range: ast.Range{From: ast.Pos(from), To: ast.Pos(to)}}
		d.WithFix("fix", d.Range, "x")
		rs := []ast.FileDiagnostics{{File: "f.skill.md", Src: src, Diags: ast.Diagnostics{d}}}
		var h bytes.Buffer
		if err := HumanAll(&h, rs, HumanOptions{Context: true}); err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(h.Bytes()) && utf8.Valid(src) && utf8.ValidString(msg) {
			t.Errorf("human output is not UTF-8")
		}
		for _, render := range []func(io.Writer) error{
			func(w io.Writer) error { return JSON(w, rs) },
			func(w io.Writer) error { return SARIF(w, rs, testTool) },
			func(w io.Writer) error { return GitLab(w, rs) },
		} {
			var b bytes.Buffer
			if err := render(&b); err != nil {
				t.Fatal(err)
			}
			if !json.Valid(b.Bytes()) {
				t.Errorf("invalid JSON: %s", b.String())
			}
		}
		var g bytes.Buffer
		if err := GitHub(&g, rs); err != nil {
			t.Fatal(err)
		}
		if strings.Count(g.String(), "\n") != 1 {
			t.Errorf("github output is not one line: %q", g.String())
		}
	})
}

// BenchmarkRender measures each renderer on a file with many diagnostics.
func BenchmarkRender(b *testing.B) {
	var src strings.Builder
	var ds ast.Diagnostics
	for i := range 500 {
		start := src.Len()
		src.WriteString("  emit(text=\"héllo ${NAME} 🙂\")\n")
		ds = append(ds, ast.Warnf("rule", ast.RangeOf(start+2, start+6), "message %d", i).WithFix("fix", ast.RangeOf(start+2, start+6), "x"))
	}
	rs := []ast.FileDiagnostics{{File: "bench.skill.md", Src: []byte(src.String()), Diags: ds}}
	benches := map[string]func(io.Writer) error{
		"human":  func(w io.Writer) error { return HumanAll(w, rs, HumanOptions{Context: true, Color: true}) },
		"json":   func(w io.Writer) error { return JSON(w, rs) },
		"sarif":  func(w io.Writer) error { return SARIF(w, rs, testTool) },
		"github": func(w io.Writer) error { return GitHub(w, rs) },
		"gitlab": func(w io.Writer) error { return GitLab(w, rs) },
	}
	for _, name := range []string{"human", "json", "sarif", "github", "gitlab"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := benches[name](io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
