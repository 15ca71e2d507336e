package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigCatalog writes n packages of one publisher under
// <project>/.agents/skills, the last of which (by name, so the last the
// scan reaches) is the only spreadsheet auditor.
func bigCatalog(t *testing.T, n int) string {
	t.Helper()
	project := t.TempDir()
	root := filepath.Join(project, ".agents", "skills")
	for i := range n {
		name := fmt.Sprintf("acme-report-%04d", i)
		desc := fmt.Sprintf("Builds the weekly %s report for team %d from the ticket tracker. Use when a manager asks for the week's numbers.", []string{"sales", "support", "ops", "hiring"}[i%4], i)
		if i == n-1 {
			name, desc = "zz-xlsx-auditor", "Audits xlsx spreadsheets for broken formulas, hard-coded totals and hidden sheets. Use when a workbook's numbers look wrong."
		}
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		md := fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata:\n  domain: reporting\n---\n# %s\n\nFollow the team's reporting checklist.\n", name, desc, name)
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return project
}

// skillc runs the command line in-process and returns stdout, stderr and
// the exit status.
func skillc(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out, errb bytes.Buffer
	code := run(append([]string{"skillc"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// TestScanTruncationReported indexes 5,000 packages under one root: with
// the default limit every registry command says the scan was cut
// (truncated in JSON, a warning on stderr) and the package past the
// limit is not ranked; raising the limit by flag or environment indexes
// all of them and the warning goes away.
func TestScanTruncationReported(t *testing.T) {
	project := bigCatalog(t, 5000)
	base := []string{"--project", project, "--no-user"}

	out, errs, code := skillc(t, nil, append([]string{"skills", "discover", "--json"}, append(base, "audit", "xlsx", "spreadsheets")...)...)
	if code != 0 {
		t.Fatalf("discover exit %d: %s", code, errs)
	}
	var d struct {
		Truncated bool     `json:"truncated"`
		Warnings  []string `json:"warnings"`
		Results   []struct {
			SkillID string `json:"skill_id"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if !d.Truncated || len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], "2000 directories") {
		t.Errorf("discover JSON: truncated=%v warnings=%q, want truncated with the limit named", d.Truncated, d.Warnings)
	}
	if !strings.Contains(errs, "warning: the skill catalog is incomplete") {
		t.Errorf("discover stderr has no warning: %q", errs)
	}
	for _, r := range d.Results {
		if r.SkillID == "project/zz-xlsx-auditor" {
			t.Errorf("a package past the scan limit was ranked")
		}
	}

	out, errs, _ = skillc(t, nil, append([]string{"skills", "list", "--json"}, base...)...)
	var l struct {
		Total     int  `json:"total"`
		Truncated bool `json:"truncated"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	if !l.Truncated || l.Total != 1999 || !strings.Contains(errs, "warning: the skill catalog is incomplete") {
		t.Errorf("list: total %d truncated %v stderr %q", l.Total, l.Truncated, errs)
	}
	for _, cmd := range [][]string{{"skills", "show", "acme-report-0001"}, {"skills", "load-preview", "acme-report-0001"}} {
		if _, errs, code := skillc(t, nil, append(cmd, base...)...); code != 0 || !strings.Contains(errs, "warning: the skill catalog is incomplete") {
			t.Errorf("%s: exit %d, stderr %q: want a truncation warning", strings.Join(cmd, " "), code, errs)
		}
	}

	// the flag, the environment variable and the configuration file lift
	// the limit
	conf := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(conf, []byte(`{"max_scan_dirs": 6000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
	}{
		{nil, []string{"--max-scan-dirs", "6000"}},
		{map[string]string{envMaxScanDirs: "6000"}, nil},
		{nil, []string{"--gateway-config", conf}},
	} {
		args := append(append([]string{"skills", "discover", "--json"}, base...), tc.args...)
		out, errs, code := skillc(t, tc.env, append(args, "audit", "xlsx", "spreadsheets")...)
		if code != 0 {
			t.Fatalf("discover %v exit %d: %s", tc, code, errs)
		}
		d.Truncated, d.Warnings, d.Results = false, nil, nil
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if d.Truncated || len(d.Warnings) > 0 || strings.Contains(errs, "incomplete") {
			t.Errorf("%v: still truncated: %v %q %q", tc, d.Truncated, d.Warnings, errs)
		}
		if len(d.Results) == 0 || d.Results[0].SkillID != "project/zz-xlsx-auditor" {
			t.Errorf("%v: the auditor is not ranked first: %+v", tc, d.Results)
		}
		os.Unsetenv(envMaxScanDirs)
	}
}
