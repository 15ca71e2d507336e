package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

// TestConformance builds skillc and runs the conformance check against the
// binary, the way an adopter's CI would: on the repository's own corpus
// (testdata/corpus) always, comparing every file's diagnostics with its
// "# want:" markers too, and with the shared conformance script on the
// shared corpus when that is present.
func TestConformance(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "skillc")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	check := func(t *testing.T, path string) []testcorpus.Finding { return checkJSON(t, bin, home, path) }
	dir := testcorpus.Own(t)
	if n := testcorpus.Conformance(t, dir, check); n < 40 {
		t.Errorf("only %d corpus files checked", n)
	}
	for _, path := range testcorpus.SkillFiles(t, dir) {
		testcorpus.Markers(t, path, check(t, path))
	}
	t.Run("shared", func(t *testing.T) { sharedConformance(t, bin, home) })
}

// checkJSON runs `skillc check --format json` on path with an empty
// SKILLSCRIPT_HOME and returns the diagnostics it printed.
func checkJSON(t *testing.T, bin, home, path string) []testcorpus.Finding {
	t.Helper()
	cmd := exec.Command(bin, "check", "--format", "json", path)
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home, "NO_COLOR=1")
	out, err := cmd.Output()
	var report struct {
		Diagnostics []struct {
			Line     int    `json:"line"`
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
		} `json:"diagnostics"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("%s: stdout is not a JSON report (exit %v): %v\n%s", path, err, jerr, out)
	}
	fs := make([]testcorpus.Finding, 0, len(report.Diagnostics))
	for _, d := range report.Diagnostics {
		fs = append(fs, testcorpus.Finding{Line: d.Line, Rule: d.Rule, Severity: d.Severity})
	}
	return fs
}

// sharedConformance runs the shared conformance script against bin.
func sharedConformance(t *testing.T, bin, home string) {
	script := testcorpus.Shared(t, "conformance", "check-corpus")
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed for the conformance script: %v", err)
	}
	cmd := exec.Command("python3", script, bin, "--verbose")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home, "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	text := string(out)
	t.Log(strings.TrimSpace(text))
	if err != nil {
		t.Fatalf("conformance failed: %v", err)
	}
	if !strings.Contains(text, " 0 failed") {
		t.Fatalf("unexpected conformance summary:\n%s", text)
	}
}
