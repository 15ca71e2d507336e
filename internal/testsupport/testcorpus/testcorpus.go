// Package testcorpus locates the skill corpora that tests run on and
// checks a corpus the way the conformance script does.
//
// Two corpora exist. The repository's own, under testdata/corpus, is in
// every checkout, so tests built on it always run. The shared conformance
// material (corpus, spec and conformance script) lives outside the module
// in a "shared" directory beside the checkout, or wherever
// SKILLSCRIPT_SHARED points; tests against it run when it is present and
// otherwise skip with a message naming what did not run. With CI set, a
// missing shared directory fails the test instead.
//
// The package is for tests only; it has no caller in the commands.
package testcorpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/wantmark"
)

// SharedEnv names the environment variable that points at the shared
// directory when it is not beside the checkout.
const SharedEnv = "SKILLSCRIPT_SHARED"

// Root returns the module root: the nearest directory at or above the
// working directory that holds go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod at or above the working directory")
		}
		dir = up
	}
}

// Own returns the path of elem under the repository's own corpus,
// testdata/corpus.
func Own(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Root(t), "testdata", "corpus"}, elem...)...)
}

// Shared returns the path of elem under the shared directory. When that
// path does not exist it skips t with a message saying which checks did
// not run and how to enable them, or fails t when CI is set.
func Shared(t testing.TB, elem ...string) string {
	t.Helper()
	p, ok := SharedIfPresent(t, elem...)
	if !ok {
		msg := fmt.Sprintf("shared conformance material not found at %s, so the checks against it did not run "+
			"(put the shared directory beside the checkout or set %s)", p, SharedEnv)
		if os.Getenv("CI") != "" {
			t.Fatalf("%s; CI is set, so this is a failure", msg)
		}
		t.Skip(msg)
	}
	return p
}

// SharedIfPresent returns the path of elem under the shared directory and
// whether it exists, for optional uses such as fuzz seeds.
func SharedIfPresent(t testing.TB, elem ...string) (string, bool) {
	t.Helper()
	base := os.Getenv(SharedEnv)
	if base == "" {
		base = filepath.Join(filepath.Dir(Root(t)), "shared")
	}
	p := filepath.Join(append([]string{base}, elem...)...)
	_, err := os.Stat(p)
	return p, err == nil
}

// SkillFiles returns the .skill.md files under dir, recursively, sorted.
// It fails t when there are none.
func SkillFiles(t testing.TB, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".skill.md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no .skill.md files under %s (%v)", dir, err)
	}
	slices.Sort(files)
	return files
}

// Finding is one diagnostic as the conformance check sees it.
type Finding struct {
	Line     int
	Rule     string
	Severity string // "error", "warning" or "info"
}

// Checker returns the findings for the skill file at path.
type Checker func(t *testing.T, path string) []Finding

// Conformance checks the corpus at dir, laid out as
// adversarial/RULE/positive-*.skill.md, adversarial/RULE/negative-*.skill.md
// and examples/*.skill.md: every positive file gets a RULE finding, no
// negative file does, and no example has an error. It returns the number
// of files checked.
func Conformance(t *testing.T, dir string, check Checker) int {
	t.Helper()
	n := 0
	for _, path := range SkillFiles(t, filepath.Join(dir, "adversarial")) {
		rule := filepath.Base(filepath.Dir(path))
		want := strings.HasPrefix(filepath.Base(path), "positive-")
		got := check(t, path)
		if fired := slices.ContainsFunc(got, func(f Finding) bool { return f.Rule == rule }); fired != want {
			t.Errorf("%s: want %s to fire = %v; got %v", rel(dir, path), rule, want, got)
		}
		n++
	}
	for _, path := range SkillFiles(t, filepath.Join(dir, "examples")) {
		for _, f := range check(t, path) {
			if f.Severity == "error" {
				t.Errorf("%s:%d: example has an error: %s", rel(dir, path), f.Line, f.Rule)
			}
		}
		n++
	}
	return n
}

// Markers compares the findings of the file at path with its inline
// "# want:" markers (package wantmark): the (line, rule) pairs must be
// equal; a file without markers must have no findings.
func Markers(t *testing.T, path string, got []Finding) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pairs := make([]string, 0, len(got))
	for _, f := range got {
		pairs = append(pairs, fmt.Sprintf("%d %s", f.Line, f.Rule))
	}
	slices.Sort(pairs)
	want := wantmark.Expectations(src)
	if !slices.Equal(slices.Compact(pairs), slices.Compact(want)) {
		t.Errorf("%s: findings differ from the # want: markers\n got: %v\nwant: %v", path, pairs, want)
	}
}

func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return r
	}
	return path
}
