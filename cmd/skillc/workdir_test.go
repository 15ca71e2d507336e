package main

import (
	"path/filepath"
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
