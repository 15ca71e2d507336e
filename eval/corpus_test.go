package eval_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

// TestCorpusExamples runs every example of the repository's own corpus
// (testdata/corpus/examples) with the mocks, inputs and expectations in
// the txtar archive beside it. Shell-using examples get fake binaries on
// PATH (real processes), so the test does not run in parallel.
func TestCorpusExamples(t *testing.T) {
	examples := testcorpus.SkillFiles(t, testcorpus.Own(t, "examples"))
	for _, ex := range examples {
		runCorpusExample(t, ex, strings.TrimSuffix(ex, ".skill.md")+".txtar")
	}
}

// TestSharedCorpusExamples runs every example of the shared corpus with
// the archive of the same name in testdata/eval/corpus, when the shared
// corpus is present.
func TestSharedCorpusExamples(t *testing.T) {
	examples := testcorpus.SkillFiles(t, testcorpus.Shared(t, "corpus", "examples"))
	for _, ex := range examples {
		name := strings.TrimSuffix(filepath.Base(ex), ".skill.md")
		runCorpusExample(t, ex, filepath.Join("../testdata/eval/corpus", name+".txtar"))
	}
}

// runCorpusExample runs the skill at ex as a subtest with the fixture
// archive at archive.
func runCorpusExample(t *testing.T, ex, archive string) {
	name := strings.TrimSuffix(filepath.Base(ex), ".skill.md")
	t.Run(name, func(t *testing.T) {
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
