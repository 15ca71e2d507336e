package skilltest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

// FuzzRun runs arbitrary sources with # Tests: blocks. Besides never
// panicking, every result must agree with itself: Passed exactly when
// there are no failures, and every failure line inside the file.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/skilltest/*.skill.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add(probe("  - name: c\n    given: {CITY: Oslo, MODE: fail}\n    expect:\n      op_fallback_used: fetch.2\n      target_else_executed: fetch\n"))
	f.Add("# Tests:\n  - name: x\n    given: {A: [1, {b: null}]}\n    expect:\n      result_value: ~\n")
	tmp := f.TempDir()
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<14 || strings.Count(src, "\n") > 300 || strings.Contains(src, "data_") || strings.Contains(src, "skill_") {
			return // the scratch SQLite store is too slow under coverage instrumentation
		}
		file, info, ds := lint.Check("fuzz.skill.md", []byte(src), &lint.Context{}, lint.Options{Rules: rulesets.All()})
		rs := Run(context.Background(), file, info, func() *eval.Runner { return &eval.Runner{} }, Options{Diagnostics: ds, TempDir: tmp})
		lines := strings.Count(src, "\n") + 1
		for _, r := range rs {
			if r.Passed != (len(r.Failures) == 0) {
				t.Fatalf("case %q: passed=%v with %d failures", r.Name, r.Passed, len(r.Failures))
			}
			for _, fl := range r.Failures {
				if fl.Line < 0 || fl.Line > lines || fl.Message == "" {
					t.Fatalf("case %q: bad failure %+v (file has %d lines)", r.Name, fl, lines)
				}
			}
		}
		for _, p := range Problems(file, ds) {
			if p.Line < 0 || p.Line > lines {
				t.Fatalf("problem line %d outside the file", p.Line)
			}
		}
	})
}
