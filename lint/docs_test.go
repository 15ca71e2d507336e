package lint_test

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

var update = flag.Bool("update", false, "rewrite generated files (docs/rules.md)")

const rulesDoc = "../docs/rules.md"

// TestRulesDoc fails when docs/rules.md is stale; regenerate with
// go test ./lint -run TestRulesDoc -update.
func TestRulesDoc(t *testing.T) {
	var b bytes.Buffer
	if err := lint.MarkdownDocs(&b, rulesets.All().Rules()); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(rulesDoc, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatalf("%v (generate it with go test ./lint -run TestRulesDoc -update)", err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("%s is stale: regenerate with go test ./lint -run TestRulesDoc -update", rulesDoc)
	}
}

// TestRegistry checks that ids are unique and every rule is documented
// (with examples, and a Run when the linter reports it). It needs nothing
// beside the checkout; TestRegistryMatchesReference compares with the
// reference rule table.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rulesets.All().Rules() {
		if seen[r.ID] {
			t.Errorf("duplicate rule id %s", r.ID)
		}
		seen[r.ID] = true
		if r.Doc.Summary == "" || r.Doc.Why == "" {
			t.Errorf("%s: missing doc", r.ID)
		}
		if r.Origin == lint.Never || r.Origin == lint.ByEngine || r.Origin == lint.ByConfig {
			continue
		}
		if r.Doc.Bad == "" || r.Doc.Good == "" {
			t.Errorf("%s: missing bad/good example", r.ID)
		}
		if (r.Origin == lint.ByLinter || r.Origin == lint.ByParserLinter) && r.Run == nil {
			t.Errorf("%s: linter rule without Run", r.ID)
		}
	}
}

// TestRegistryMatchesReference checks that every id of the reference rule
// table (the shared spec's rule-ids.md) is registered with its severity.
func TestRegistryMatchesReference(t *testing.T) {
	want := referenceIDs(t)
	for id, sev := range want {
		r := rulesets.All().Lookup(id)
		if r == nil {
			t.Errorf("rule %s from rule-ids.md is not registered", id)
			continue
		}
		if r.Severity != sev {
			t.Errorf("rule %s: severity %s, rule-ids.md says %s", id, r.Severity, sev)
		}
	}
}

// referenceIDs reads the id → severity tables of the spec's rule-ids.md.
func referenceIDs(t *testing.T) map[string]ast.Severity {
	t.Helper()
	src, err := os.ReadFile(testcorpus.Shared(t, "spec", "rule-ids.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ast.Severity{}
	for _, line := range strings.Split(string(src), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		id := strings.Trim(strings.TrimSpace(cells[1]), "`")
		sev, ok := ast.ParseSeverity(strings.TrimSpace(cells[2]))
		if ok {
			out[id] = sev
		}
	}
	if len(out) < 80 {
		t.Fatalf("read only %d ids from rule-ids.md", len(out))
	}
	return out
}

func TestFormatDoc(t *testing.T) {
	var b bytes.Buffer
	if err := lint.FormatDoc(&b, rulesets.All().Lookup("undeclared-var")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"undeclared-var (error, tier 1)", "context: source", "Bad:", "Good:", "${NAMEE}"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("FormatDoc output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := lint.FormatList(&b, rulesets.All().Rules()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != len(rulesets.All().Rules()) {
		t.Errorf("FormatList wrote %d lines for %d rules", n, len(rulesets.All().Rules()))
	}
}
