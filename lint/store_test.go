package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDirIndexAgreesWithIndexSkills compares the lazy folder index with
// the eager one on every folder of skills under testdata: same names,
// same answer for every name (files, duplicates, status, type, returns,
// ranges) and for a name no file declares.
func TestDirIndexAgreesWithIndexSkills(t *testing.T) {
	dirs := map[string]bool{}
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".md" {
			dirs[filepath.Dir(path)] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 20 {
		t.Fatalf("found %d folders of skills under testdata", len(dirs))
	}
	for dir := range dirs {
		eager, err := IndexSkills(dir)
		if err != nil {
			t.Fatal(err)
		}
		lazy, err := OpenSkillDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		// Look names up before listing them: either order must work.
		for _, name := range eager.Names() {
			want, _ := eager.Lookup(name)
			got, ok := lazy.Lookup(name)
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Lookup(%q) = %+v, %v; want %+v", dir, name, got, ok, want)
			}
		}
		if got, want := lazy.Names(), eager.Names(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Names = %v, want %v", dir, got, want)
		}
		if _, ok := lazy.Lookup("no-such-skill-anywhere"); ok {
			t.Errorf("%s: a name no file declares was found", dir)
		}
	}
}

// TestDirIndexReadsOnlyWhatIsAsked shows the laziness: a sibling that
// cannot be read is not noticed until the index needs the names, and
// looking one name up parses only the files declaring it (a file edited
// after the scan to declare another name keeps its scanned name).
func TestDirIndexReadsOnlyWhatIsAsked(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.skill.md", "# Skill: alpha\n# Status: Disabled\n# Returns: X\nrun:\n    $set X = \"1\"\ndefault: run\n")
	write("b.skill.md", "# Skill: beta\nrun:\n    emit(text=\"b\")\ndefault: run\n")
	write("c.skill.md", "# Skill: alpha\n# Status: Approved\nrun:\n    emit(text=\"c\")\ndefault: run\n")
	x, err := OpenSkillDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Files appearing after opening are not part of the index, as a
	// listing taken at that moment would not have them.
	write("d.skill.md", "# Skill: delta\n")
	si, ok := x.Lookup("alpha")
	if !ok || si.Status != "Disabled" || len(si.Files) != 2 || si.File != filepath.Join(dir, "a.skill.md") || !reflect.DeepEqual(si.Returns, []string{"X"}) {
		t.Fatalf("alpha = %+v, %v", si, ok)
	}
	if _, ok := x.Lookup("delta"); ok {
		t.Error("a file written after OpenSkillDir was indexed")
	}
	// beta was scanned but not parsed: renaming it in place now still
	// answers for the scanned name, from the file as it is now.
	write("b.skill.md", "# Skill: beta\n# Status: Disabled\nrun:\n    emit(text=\"b\")\ndefault: run\n")
	if si, ok := x.Lookup("beta"); !ok || si.Status != "Disabled" {
		t.Errorf("beta = %+v, %v: want the status of the file when first looked up", si, ok)
	}
	if got := x.Names(); !reflect.DeepEqual(got, []string{"alpha", "beta"}) {
		t.Errorf("Names = %v", got)
	}
	if _, err := OpenSkillDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("OpenSkillDir of a missing folder: want an error")
	}
}
