package skilltest

import (
	"context"
	"os"
	"testing"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

func benchFile(b *testing.B, path string, withMock bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, info, ds := lint.Check(path, src, &lint.Context{}, lint.Options{Rules: rulesets.All()})
	opts := Options{Diagnostics: ds, TempDir: b.TempDir()}
	if withMock {
		if opts.Mock, err = LoadMock(SidecarMock(path)); err != nil {
			b.Fatal(err)
		}
	}
	newRunner := func() *eval.Runner { return &eval.Runner{} }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range Run(context.Background(), f, info, newRunner, opts) {
			if !r.Passed {
				b.Fatalf("%s failed: %+v", r.Name, r.Failures)
			}
		}
	}
}

// BenchmarkPureSkill runs the three cases of a skill with no effects.
func BenchmarkPureSkill(b *testing.B) { benchFile(b, "../../testdata/skilltest/greet.skill.md", false) }

// BenchmarkMockedSkill runs five cases answered by a sidecar mock.
func BenchmarkMockedSkill(b *testing.B) {
	benchFile(b, "../../testdata/skilltest/weather.skill.md", true)
}

// BenchmarkSQLiteSkill runs two cases that each open a scratch SQLite
// data store.
func BenchmarkSQLiteSkill(b *testing.B) {
	benchFile(b, "../../testdata/skilltest/notes.skill.md", false)
}
