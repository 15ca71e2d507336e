package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	"github.com/skillscript/skillc/internal/testsupport/wantmark"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

// testdataDir holds the lint rules' expectation files: every rule that
// needs a deployment reads it from sidecar files, which is why the test
// lives with the code that turns configuration into a lint context.
const testdataDir = "../../testdata/lint"

// dirContext builds the lint context of a testdata directory from its
// sidecar skillscript.config.json / connectors.json (no sidecars: no
// context). The process environment is not consulted.
func dirContext(t *testing.T, dir, file string) *lint.Context {
	t.Helper()
	cfgPath := filepath.Join(dir, config.ConfigFileName)
	connPath := filepath.Join(dir, config.ConnectorsFileName)
	opts := config.LoadOptions{Env: func(string) (string, bool) { return "", false }}
	if fileExists(cfgPath) {
		opts.ConfigPath = cfgPath
	}
	if fileExists(connPath) {
		opts.ConnectorsPath = connPath
	}
	if opts.ConfigPath == "" && opts.ConnectorsPath == "" {
		return nil
	}
	cfg, probs := config.Load(opts)
	if config.HasErrors(probs) {
		t.Fatalf("%s: config problems: %v", dir, probs)
	}
	var conns *connectors.File
	if cfg.Connectors != nil {
		var cprobs ast.Diagnostics
		conns, cprobs = connectors.Parse(cfg.Connectors, cfg.Getenv)
		if cprobs.HasErrors() && !strings.Contains(dir, "connectors-config") && !strings.Contains(dir, "unknown-connector-class") {
			t.Fatalf("%s: connectors problems: %v", dir, cprobs)
		}
	}
	return ContextFrom(cfg, conns, file)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// TestLintTestdata lints every testdata/lint/**/*.skill.md (outside skills/
// store directories) and compares the exact set of (line, rule) pairs
// with the file's want markers.
func TestLintTestdata(t *testing.T) {
	var files []string
	err := filepath.WalkDir(testdataDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "skills" {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".skill.md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range files {
		rel, _ := filepath.Rel(testdataDir, path)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(path)
			ctx := dirContext(t, filepath.Dir(path), abs)
			f, _, ds := lint.Check(path, src, ctx, lint.Options{ReportUnusedSuppressions: true, Rules: rulesets.All()})
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%d %s", f.Lines.Position(d.Range.From).Line, d.Rule))
			}
			sort.Strings(got)
			want := wantmark.Expectations(src)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("diagnostics differ\n got: %v\nwant: %v\n%s", got, want, describe(f.Lines, ds))
			}
		})
	}
}

func describe(lt *ast.LineTable, ds ast.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		pos := lt.Position(d.Range.From)
		fmt.Fprintf(&b, "  %d:%d %s %s: %s\n", pos.Line, pos.Column, d.Severity, d.Rule, d.Message)
	}
	return b.String()
}
