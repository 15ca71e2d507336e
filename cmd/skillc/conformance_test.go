package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir returns ../shared beside the checkout. With CI set a missing
// directory fails the test instead of skipping it.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../../shared")
	if err == nil {
		if _, err = os.Stat(filepath.Join(dir, "conformance", "check-corpus")); err == nil {
			return dir
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("../shared (the corpus and conformance script) is missing: %v", err)
	}
	t.Skipf("../shared not found: %v", err)
	return ""
}

// TestConformance builds skillc and runs the shared conformance script
// against it: every positive fixture fires its rule, no negative fixture
// does, and no example has an error.
func TestConformance(t *testing.T) {
	shared := sharedDir(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed for the conformance script: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "skillc")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command("python3", filepath.Join(shared, "conformance", "check-corpus"), bin, "--verbose")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+t.TempDir(), "NO_COLOR=1")
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
