package lint

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// corpusDir is the shared conformance corpus.
const corpusDir = "../../shared/corpus"

func requireCorpus(t *testing.T) string {
	t.Helper()
	dir, _ := filepath.Abs(corpusDir)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("corpus missing at %s (CI is set): %v", dir, err)
		}
		t.Skipf("corpus not available at %s", dir)
	}
	return dir
}

func lintFile(t testing.TB, path string) ast.Diagnostics {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, ds := Check(path, src, nil, Options{})
	return ds
}

func rulesOf(ds ast.Diagnostics) string {
	set := map[string]bool{}
	for _, d := range ds {
		set[d.Rule] = true
	}
	var out []string
	for r := range set {
		out = append(out, r)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// TestCorpusConformance performs the check of conformance/check-corpus
// in-process: every positive fixture fires its rule, no negative fixture
// does, and no example has an error.
func TestCorpusConformance(t *testing.T) {
	dir := requireCorpus(t)
	adv := filepath.Join(dir, "adversarial")
	rules, err := os.ReadDir(adv)
	if err != nil {
		t.Fatal(err)
	}
	for _, rd := range rules {
		files, _ := filepath.Glob(filepath.Join(adv, rd.Name(), "*.skill.md"))
		for _, path := range files {
			name := filepath.Base(path)
			want := strings.HasPrefix(name, "positive-")
			ds := lintFile(t, path)
			fired := false
			for _, d := range ds {
				if d.Rule == rd.Name() {
					fired = true
				}
			}
			if fired != want {
				t.Errorf("%s/%s: want fire=%v for %s; got %s", rd.Name(), name, want, rd.Name(), rulesOf(ds))
			}
		}
	}
	examples, _ := filepath.Glob(filepath.Join(dir, "examples", "*.skill.md"))
	if len(examples) == 0 {
		t.Fatal("no examples in the corpus")
	}
	for _, path := range examples {
		for _, d := range lintFile(t, path) {
			if d.Severity == ast.Error {
				t.Errorf("%s: error %s at %v: %s", filepath.Base(path), d.Rule, d.Range, d.Message)
			}
		}
	}
}
