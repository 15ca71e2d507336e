package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// diagOf lints file against the store in dir and returns the first
// diagnostic of rule.
func diagOf(t *testing.T, storeDir, file, rule string) *ast.Diagnostic {
	t.Helper()
	idx, err := IndexSkills(storeDir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, _, ds := Check(file, src, &Context{FilePath: file, SkillsKnown: true, Skills: idx}, Options{})
	for _, d := range ds {
		if d.Rule == rule {
			return d
		}
	}
	t.Fatalf("no %s in %v", rule, ds)
	return nil
}

// relatedText returns the text a related location covers in its file.
func relatedText(t *testing.T, r ast.Related) string {
	t.Helper()
	src, err := os.ReadFile(r.File)
	if err != nil {
		t.Fatal(err)
	}
	return string(src[r.Range.From.Offset():r.Range.To.Offset()])
}

// The cross-skill rules name the other file through a related location at
// the declaration, not in the message text.
func TestStoreRulesRelateTheOtherFile(t *testing.T) {
	dir := "../testdata/lint/duplicate-skill-name/instore"
	d := diagOf(t, dir, filepath.Join(dir, "fire.skill.md"), "duplicate-skill-name")
	if len(d.Related) != 1 || filepath.Base(d.Related[0].File) != "twin.skill.md" || relatedText(t, d.Related[0]) != "report" {
		t.Errorf("duplicate-skill-name related = %+v", d.Related)
	}
	dis := "../testdata/lint/disabled-skill-reference"
	d = diagOf(t, filepath.Join(dis, "skills"), filepath.Join(dis, "fire.skill.md"), "disabled-skill-reference")
	if len(d.Related) != 1 || filepath.Base(d.Related[0].File) != "old-classifier.skill.md" || relatedText(t, d.Related[0]) != "# Status: Disabled" {
		t.Errorf("disabled-skill-reference related = %+v", d.Related)
	}
}
