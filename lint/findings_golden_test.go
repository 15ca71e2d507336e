package lint_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	"github.com/skillscript/skillc/internal/testsupport/benchinput"
	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

var updateFindings = flag.Bool("update-findings", false, "rewrite lint/testdata/findings.golden")

const findingsGolden = "testdata/findings.golden"

// TestFindingsGolden pins every diagnostic of every *.skill.md under the
// repository's testdata (and of the generated benchmark skills) in full:
// range, severity, rule, enclosing target, message, fixes and related
// locations, sorted as lint.Check returns them. Each file is linted with
// no context and, when its directory has sidecar configuration, with that
// context too. The marker tests compare (line, rule) pairs only; this one
// catches any change in what a rule says or where, which is what an
// optimisation of the rule engine must not change. Regenerate after an
// intended change with go test ./lint -run TestFindingsGolden -update-findings.
func TestFindingsGolden(t *testing.T) {
	root := testcorpus.Root(t)
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "testdata"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".skill.md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) < 300 {
		t.Fatalf("only %d testdata skills", len(files))
	}
	var b strings.Builder
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, _, ds := lint.Check(path, src, nil, lint.Options{ReportUnusedSuppressions: true, Rules: rulesets.All()})
		writeFindings(&b, rel+" (no context)", f, ds, root)
		if ctx := sidecarContext(t, filepath.Dir(path), path); ctx != nil {
			f, _, ds := lint.Check(path, src, ctx, lint.Options{ReportUnusedSuppressions: true, Rules: rulesets.All()})
			writeFindings(&b, rel+" (sidecar context)", f, ds, root)
		}
	}
	for _, g := range []struct {
		name string
		src  []byte
	}{
		{"benchinput.Big(600)", benchinput.Big(600)},
		{"benchinput.Loop(50)", benchinput.Loop(50)},
	} {
		f, _, ds := lint.Check(g.name, g.src, nil, lint.Options{ReportUnusedSuppressions: true, Rules: rulesets.All()})
		writeFindings(&b, g.name, f, ds, root)
	}
	got := b.String()
	if *updateFindings {
		if err := os.MkdirAll(filepath.Dir(findingsGolden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(findingsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(findingsGolden)
	if err != nil {
		t.Fatalf("%v (generate it with go test ./lint -run TestFindingsGolden -update-findings)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("findings differ from %s at line %d:\n got: %s\nwant: %s", findingsGolden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("findings differ from %s: %d lines, want %d", findingsGolden, len(gl), len(wl))
	}
}

// writeFindings renders ds in full, one diagnostic per line, with
// line:column positions and the repository root replaced by <root>.
func writeFindings(b *strings.Builder, title string, f *ast.File, ds ast.Diagnostics, root string) {
	pos := func(r ast.Range) string {
		from, to := f.Lines.Position(r.From), f.Lines.Position(r.To)
		return fmt.Sprintf("%d:%d-%d:%d", from.Line, from.Column, to.Line, to.Column)
	}
	clean := func(s string) string {
		s = strings.ReplaceAll(s, root, "<root>")
		return strings.ReplaceAll(s, "\n", `\n`)
	}
	fmt.Fprintf(b, "== %s: %d\n", title, len(ds))
	for _, d := range ds {
		fmt.Fprintf(b, "%s %s %s [%s] %s\n", pos(d.Range), d.Severity, d.Rule, d.Target, clean(d.Message))
		for _, fx := range d.Fixes {
			fmt.Fprintf(b, "    fix %q:", fx.Title)
			for _, e := range fx.Edits {
				fmt.Fprintf(b, " %s=%q", pos(e.Range), e.NewText)
			}
			b.WriteString("\n")
		}
		for _, r := range d.Related {
			where := "here"
			if r.File != "" {
				where = clean(filepath.ToSlash(r.File)) + fmt.Sprintf("@%d-%d", r.Range.From, r.Range.To)
			} else {
				where = pos(r.Range)
			}
			fmt.Fprintf(b, "    related %s %s\n", where, clean(r.Message))
		}
	}
}

// sidecarContext builds the lint context of dir from its sidecar
// skillscript.config.json / connectors.json, as testdata/lint/README.md
// describes; nil when there are none. The environment is not consulted.
func sidecarContext(t *testing.T, dir, file string) *lint.Context {
	t.Helper()
	cfgPath := filepath.Join(dir, config.ConfigFileName)
	connPath := filepath.Join(dir, config.ConnectorsFileName)
	opts := config.LoadOptions{Env: func(string) (string, bool) { return "", false }}
	if isFile(cfgPath) {
		opts.ConfigPath = cfgPath
	}
	if isFile(connPath) {
		opts.ConnectorsPath = connPath
	}
	if opts.ConfigPath == "" && opts.ConnectorsPath == "" {
		return nil
	}
	cfg, probs := config.Load(opts)
	if config.HasErrors(probs) {
		return nil // a configuration test fixture, not a lint context
	}
	var conns *connectors.File
	if cfg.Connectors != nil {
		conns, _ = connectors.Parse(cfg.Connectors, cfg.Getenv)
	}
	return workspace.ContextFrom(cfg, conns, file)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
