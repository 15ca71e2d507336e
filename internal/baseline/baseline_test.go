package baseline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
)

func diag(rule, target, msg string, from int) *ast.Diagnostic {
	return &ast.Diagnostic{Severity: ast.Error, Rule: rule, Target: target, Message: msg, Range: ast.Range{From: ast.Pos(from), To: ast.Pos(from + 1)}}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"target t (line 12) is unused": "target t (line #) is unused",
		"  two\tspaces \n here ":       "two spaces here",
		"expects 3 arguments, got 10":  "expects # arguments, got #",
		"no digits":                    "no digits",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRoundTrip writes a baseline to disk and filters later results with
// it: moved findings stay hidden, a surplus occurrence and a finding in
// another target are new.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "skills", "a.skill.md")
	old := []ast.FileDiagnostics{{File: file, Diags: ast.Diagnostics{
		diag("undeclared-var", "main", "undeclared variable X (line 4)", 10),
		diag("undeclared-var", "main", "undeclared variable X (line 4)", 20),
		diag("orphan-target", "old", "target old is never reached", 30),
	}}}
	path := filepath.Join(dir, "baseline.json")
	n, err := Write(path, old)
	if err != nil || n != 3 {
		t.Fatalf("Write = %d, %v", n, err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"file": "skills/a.skill.md"`) || !strings.Contains(string(data), `"count": 2`) {
		t.Fatalf("baseline file:\n%s", data)
	}
	bl, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	now := []ast.FileDiagnostics{{File: file, Diags: ast.Diagnostics{
		diag("undeclared-var", "main", "undeclared variable X (line 9)", 50),
		diag("undeclared-var", "main", "undeclared variable X (line 9)", 60),
		diag("undeclared-var", "main", "undeclared variable X (line 9)", 70),
		diag("undeclared-var", "other", "undeclared variable X (line 9)", 80),
		diag("orphan-target", "old", "target old is never reached", 90),
	}}}
	if hidden := bl.Filter(now); hidden != 3 {
		t.Errorf("hidden = %d, want 3", hidden)
	}
	var left []string
	for _, d := range now[0].Diags {
		left = append(left, fmt.Sprintf("%s@%d", d.Target, d.Range.From))
	}
	if got := strings.Join(left, " "); got != "main@70 other@80" {
		t.Errorf("left = %s, want main@70 other@80 (the surplus occurrence and the other target)", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, data := range []string{
		`{"version": 2, "findings": []}`,
		`{"version": 1, "findings": [{"file": "a", "rule": "r", "message": "m", "count": 0}]}`,
		`{"version": 1, "extra": true}`,
		`not json`,
	} {
		if _, err := Parse("b.json", []byte(data)); err == nil {
			t.Errorf("Parse(%s) succeeded", data)
		}
	}
	if _, err := Parse("b.json", []byte(`{"version": 1, "findings": []}`)); err != nil {
		t.Errorf("an empty baseline: %v", err)
	}
}

// FuzzParse feeds arbitrary bytes to the baseline parser: it must return
// an error or a baseline, never panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version": 1, "findings": [{"file": "a.skill.md", "rule": "r", "target": "t", "message": "m 1", "count": 2}]}`))
	f.Add([]byte(`{"version": 1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		bl, err := Parse("fuzz.json", data)
		if err == nil {
			bl.Filter([]ast.FileDiagnostics{{File: "a.skill.md", Diags: ast.Diagnostics{diag("r", "t", "m 3", 1)}}})
		}
	})
}

// BenchmarkFilter filters 10,000 findings in 100 files against a baseline
// that records half of them.
func BenchmarkFilter(b *testing.B) {
	dir := b.TempDir()
	mk := func() []ast.FileDiagnostics {
		var rs []ast.FileDiagnostics
		for f := 0; f < 100; f++ {
			r := ast.FileDiagnostics{File: filepath.Join(dir, fmt.Sprintf("s%03d.skill.md", f))}
			for i := 0; i < 100; i++ {
				r.Diags = append(r.Diags, diag("undeclared-var", fmt.Sprintf("t%d", i%7), fmt.Sprintf("undeclared variable V%d (line %d)", i, i+3), i*10))
			}
			rs = append(rs, r)
		}
		return rs
	}
	old := mk()
	for i := range old {
		old[i].Diags = old[i].Diags[:50]
	}
	path := filepath.Join(dir, "baseline.json")
	if _, err := Write(path, old); err != nil {
		b.Fatal(err)
	}
	bl, err := Load(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		rs := mk()
		b.StartTimer()
		if n := bl.Filter(rs); n != 5000 {
			b.Fatalf("hidden %d, want 5000", n)
		}
	}
}
