package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestOpenSkillDirListed: OpenSkillDirWith finds with a walk's listing what OpenSkillDir
// finds reading the directory, reads the directory when the listing does
// not cover it, and still finds nothing through a symbolic link.
func TestOpenSkillDirListed(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"b.skill.md": "# Skill: bee\n", "a.skill.md": "# Skill: ay\n", "notes.md": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "d.skill.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	want, err := OpenSkillDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	listed := func(d string) ([]string, bool) {
		asked++
		if d != dir {
			return nil, false
		}
		return []string{"b.skill.md", "a.skill.md"}, true
	}
	got, err := OpenSkillDirWith(dir, SkillDirOptions{Listed: listed})
	if err != nil || asked != 1 {
		t.Fatalf("OpenSkillDirWith: %v, listing asked %d times", err, asked)
	}
	if !reflect.DeepEqual(got.files, want.files) || len(got.files) != 2 {
		t.Fatalf("files %v, OpenSkillDir %v", got.files, want.files)
	}
	if !reflect.DeepEqual(got.Names(), []string{"ay", "bee"}) {
		t.Fatalf("names %v", got.Names())
	}
	other := t.TempDir()
	if x, err := OpenSkillDirWith(other, SkillDirOptions{Listed: listed}); err != nil || len(x.files) != 0 {
		t.Fatalf("an unlisted empty directory: %v %v", x.files, err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	if x, err := OpenSkillDirWith(link, SkillDirOptions{Listed: func(string) ([]string, bool) { return []string{"a.skill.md"}, true }}); err != nil || len(x.files) != 0 {
		t.Fatalf("a symbolic link: %v %v", x.files, err)
	}
}

// TestOpenSkillDirRead: the index reads its files through
// SkillDirOptions.Read when given, for the scan and the lookups, and
// reads a file the reader fails on from the disk.
func TestOpenSkillDirRead(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"a.skill.md": "# Skill: ay\n# Returns: X\n", "b.skill.md": "# Skill: bee\n", "c.skill.md": "# Skill: sea\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reads := map[string]int{}
	read := func(path string) ([]byte, error) {
		reads[filepath.Base(path)]++
		switch filepath.Base(path) {
		case "b.skill.md":
			// what the caller holds wins over the disk
			return []byte("# Skill: bee-held\n"), nil
		case "c.skill.md":
			return nil, os.ErrPermission
		}
		return os.ReadFile(path)
	}
	x, err := OpenSkillDirWith(dir, SkillDirOptions{Read: read})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.Names(), []string{"ay", "bee-held", "sea"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	si, ok := x.Lookup("ay")
	if !ok || !reflect.DeepEqual(si.Returns, []string{"X"}) {
		t.Fatalf("Lookup(ay) = %+v, %v", si, ok)
	}
	if _, ok := x.Lookup("sea"); !ok {
		t.Fatal("Lookup(sea): the file the reader failed on was not read from the disk")
	}
	if want := map[string]int{"a.skill.md": 2, "b.skill.md": 1, "c.skill.md": 2}; !reflect.DeepEqual(reads, want) {
		t.Fatalf("reads %v, want %v (the scan reads each file once, a lookup the files of its name)", reads, want)
	}
}
