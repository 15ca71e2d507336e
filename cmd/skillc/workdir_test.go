package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWorkDirAbs holds workDir.abs equal to filepath.Abs: relative,
// dotted, absolute and empty paths.
func TestWorkDirAbs(t *testing.T) {
	wd := newWorkDir()
	for _, p := range []string{"", ".", "..", "a/b", "./a/../b/", "../x.skill.md", "/abs/../p", "/", "a//b/./c"} {
		want, werr := filepath.Abs(p)
		got, err := wd.abs(p)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("abs(%q) = %q, %v; filepath.Abs %q, %v", p, got, err, want, werr)
		}
	}
}

// TestReadFileMax reads a source as os.ReadFile does, and names a missing
// file and a directory as it does.
func TestReadFileMax(t *testing.T) {
	dir := t.TempDir()
	body := make([]byte, 3000)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	path := write(t, dir, "s.skill.md", string(body))
	got, err := readFileMax(path)
	if err != nil || string(got) != string(body) {
		t.Fatalf("readFileMax: %d bytes, %v", len(got), err)
	}
	if _, err := readFileMax(filepath.Join(dir, "missing")); err == nil || errNoFile(err).Error() != "no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
	if _, err := readFileMax(dir); err == nil || err.Error() != "read "+dir+": is a directory" {
		t.Errorf("directory: %v", err)
	}
}

// TestCollectInputsListed records the *.skill.md names of each directory
// a walk entered, by absolute path, and none for a package folder the
// walk skipped.
func TestCollectInputsListed(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.skill.md", "# Skill: a\n")
	sub := filepath.Join(root, "sub")
	pkg := filepath.Join(root, "pkg")
	for _, d := range []string{sub, pkg, filepath.Join(sub, "dir.skill.md")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, sub, "b.skill.md", "# Skill: b\n")
	write(t, sub, "readme.md", "x")
	write(t, pkg, "SKILL.md", "---\nname: pkg\ndescription: d\n---\n")
	write(t, pkg, "c.skill.md", "# Skill: c\n")
	in, err := collectInputs([]string{root + "/"}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{root: {"a.skill.md"}, sub: {"b.skill.md"}, filepath.Join(sub, "dir.skill.md"): {}}
	if !reflect.DeepEqual(in.listed, want) {
		t.Fatalf("listed %v, want %v", in.listed, want)
	}
}
