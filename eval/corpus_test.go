package eval_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusExamples runs every example of the shared corpus with the
// mocks, inputs and expectations in testdata/eval/corpus/<example>.txtar.
// Shell-using examples get fake binaries on PATH (real processes), so the
// test does not run in parallel.
func TestCorpusExamples(t *testing.T) {
	examples, err := filepath.Glob("../../shared/corpus/examples/*.skill.md")
	if err != nil || len(examples) == 0 {
		t.Skip("shared corpus not available")
	}
	for _, ex := range examples {
		name := strings.TrimSuffix(filepath.Base(ex), ".skill.md")
		t.Run(name, func(t *testing.T) {
			archive := filepath.Join("../testdata/eval/corpus", name+".txtar")
			if _, err := os.Stat(archive); err != nil {
				t.Fatalf("no expectations for corpus example %s: %v", name, err)
			}
			src, err := os.ReadFile(ex)
			if err != nil {
				t.Fatal(err)
			}
			fx := loadFixture(t, archive)
			if bin := fx.get("path"); bin != "" {
				t.Setenv("PATH", filepath.Join(fx.work, bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
				makeExecutable(t, filepath.Join(fx.work, bin))
			}
			runFixture(t, fx, strings.ReplaceAll(string(src), "$WORK", fx.work))
		})
	}
}

func makeExecutable(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chmod(filepath.Join(dir, e.Name()), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
