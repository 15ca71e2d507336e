package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestOpenSkillDirListed finds with a walk's listing what OpenSkillDir
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
	got, err := OpenSkillDirListed(dir, listed)
	if err != nil || asked != 1 {
		t.Fatalf("OpenSkillDirListed: %v, listing asked %d times", err, asked)
	}
	if !reflect.DeepEqual(got.files, want.files) || len(got.files) != 2 {
		t.Fatalf("files %v, OpenSkillDir %v", got.files, want.files)
	}
	if !reflect.DeepEqual(got.Names(), []string{"ay", "bee"}) {
		t.Fatalf("names %v", got.Names())
	}
	other := t.TempDir()
	if x, err := OpenSkillDirListed(other, listed); err != nil || len(x.files) != 0 {
		t.Fatalf("an unlisted empty directory: %v %v", x.files, err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	if x, err := OpenSkillDirListed(link, func(string) ([]string, bool) { return []string{"a.skill.md"}, true }); err != nil || len(x.files) != 0 {
		t.Fatalf("a symbolic link: %v %v", x.files, err)
	}
}
