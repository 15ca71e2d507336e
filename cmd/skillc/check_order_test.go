package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCheckDirOrder: checking a directory in parallel reports the files in
// path order, the same way every time.
func TestCheckDirOrder(t *testing.T) {
	t.Setenv("SKILLSCRIPT_HOME", t.TempDir())
	t.Setenv("NO_COLOR", "1")
	dir := t.TempDir()
	const n = 300
	for i := 0; i < n; i++ {
		// every file has one error on a line that depends on i, so the
		// report says which file it is
		pad := strings.Repeat("\n", i%7)
		src := fmt.Sprintf("# Skill: s%d\n# Status: Draft\n%srun:\n    $set X = 1\n   emit(text=\"bad indent\")\ndefault: run\n", i, pad)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%03d.skill.md", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fileRe := regexp.MustCompile(`(?m)^\S*(s\d{3})\.skill\.md:\d+:\d+: error`)
	var first string
	for round := 0; round < 3; round++ {
		var out, errOut bytes.Buffer
		if code := run([]string{"skillc", "check", dir}, strings.NewReader(""), &out, &errOut); code != exitFindings {
			t.Fatalf("exit %d, want %d\n%s", code, exitFindings, errOut.String())
		}
		var names []string
		for _, m := range fileRe.FindAllStringSubmatch(out.String(), -1) {
			if len(names) == 0 || names[len(names)-1] != m[1] {
				names = append(names, m[1])
			}
		}
		if len(names) != n {
			t.Fatalf("round %d: %d files reported, want %d:\n%s", round, len(names), n, out.String())
		}
		if !slices.IsSorted(names) {
			t.Fatalf("round %d: files not in path order: %v", round, names)
		}
		if round == 0 {
			first = out.String()
		} else if out.String() != first {
			t.Fatalf("round %d: the report differs from round 0", round)
		}
	}
}
