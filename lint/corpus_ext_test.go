package lint_test

import (
	"os"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

// findings lints the file at path with no context (as `skillc check`
// does without configuration) and returns its diagnostics as findings.
func findings(t *testing.T, path string) []testcorpus.Finding {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _, ds := lint.Check(path, src, nil, lint.Options{Rules: rulesets.All()})
	out := make([]testcorpus.Finding, 0, len(ds))
	for _, d := range ds {
		out = append(out, testcorpus.Finding{Line: f.Lines.Position(d.Range.From).Line, Rule: d.Rule, Severity: d.Severity.String()})
	}
	return out
}

// TestCorpusConformance performs the conformance check in-process on the
// repository's own corpus (testdata/corpus): every positive fixture fires
// its rule, no negative fixture does, no example has an error, and every
// file's diagnostics match its "# want:" markers exactly.
func TestCorpusConformance(t *testing.T) {
	dir := testcorpus.Own(t)
	if n := testcorpus.Conformance(t, dir, findings); n < 40 {
		t.Errorf("only %d corpus files checked", n)
	}
	for _, path := range testcorpus.SkillFiles(t, dir) {
		testcorpus.Markers(t, path, findings(t, path))
	}
}

// TestSharedCorpusConformance performs the same check (without markers)
// on the shared conformance corpus, when it is present.
func TestSharedCorpusConformance(t *testing.T) {
	dir := testcorpus.Shared(t, "corpus")
	testcorpus.Conformance(t, dir, findings)
}
