package skillmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/agentskills"
	"github.com/skillscript/skillc/internal/testsupport/wantmark"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/lint/skillmd"
)

const skillMDSrc = `---
name: report
description: Writes the weekly report.
owner: finance  # skillc:ignore skillmd-unknown-key — read by our portal
team: ops
---
<!-- skillc:ignore skillmd-broken-link -->
See [the draft](drafts/next.md) and [old](old.md).
<!-- skillc:ignore skillmd-absolute-path -->
Nothing absolute here.
`

func writeSkillMD(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "report")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, agentskills.FileName)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckSkillMDSuppressions: a trailing YAML comment suppresses its
// own line, an HTML comment line the next line; an unused suppression
// is reported; everything else stays.
func TestCheckSkillMDSuppressions(t *testing.T) {
	p := writeSkillMD(t, skillMDSrc)
	s, ds, err := skillmd.Check(p, agentskills.Options{}, lint.Options{ReportUnusedSuppressions: true})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(wantmark.Got(s.Lines, ds), "|")
	want := "5 skillmd-unknown-key|9 unused-suppression"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestCheckSkillMDOverrides: configuration severity overrides and
// disabled rules apply to SKILL.md rules.
func TestCheckSkillMDOverrides(t *testing.T) {
	p := writeSkillMD(t, "---\nname: report\ndescription: d\nowner: x\nmetadata:\n  v: 1\n---\n")
	opts := lint.Options{Severity: map[string]ast.Severity{"skillmd-unknown-key": ast.Error}, Disable: []string{"skillmd-metadata-value"}}
	_, ds, err := skillmd.Check(p, agentskills.Options{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Rule != "skillmd-unknown-key" || ds[0].Severity != ast.Error {
		t.Errorf("got %v", ds)
	}
}

// TestSkillMDRulesRegistered: every SKILL.md rule is in the registry with
// the SKILL.md or registry origin and a summary.
func TestSkillMDRulesRegistered(t *testing.T) {
	for _, d := range agentskills.Rules() {
		r := rulesets.All().Lookup(d.ID)
		if r == nil {
			t.Errorf("%s not registered", d.ID)
			continue
		}
		if (r.Origin != lint.BySkillMD && r.Origin != lint.ByRegistry) || r.Doc.Summary == "" {
			t.Errorf("%s: origin %v, summary %q", d.ID, r.Origin, r.Doc.Summary)
		}
	}
}
