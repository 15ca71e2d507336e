package syntax

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkSkillName fails t when SkillName settles src to a name other than
// the parser's.
func checkSkillName(t *testing.T, label string, src []byte) bool {
	t.Helper()
	got, ok := SkillName(src)
	if !ok {
		return false
	}
	f, _ := Parse(label, src)
	if want := f.SkillName(); got != want {
		t.Errorf("%s: SkillName = %q, the parser says %q", label, got, want)
	}
	return true
}

// TestSkillNameAgreesWithParse compares the header scan with the parser
// on every skill source under testdata and on the edge cases of the
// header syntax.
func TestSkillNameAgreesWithParse(t *testing.T) {
	settled, files := 0, 0
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".skill.md") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if checkSkillName(t, path, src) {
			settled++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 || settled*2 < files {
		t.Errorf("the scan settled %d of %d testdata skills: want most of them", settled, files)
	}
	cases := []struct {
		src  string
		want string // "" with ok false
		ok   bool
	}{
		{"# Skill: a\nrun:\n    emit(text=\"x\")\n", "a", true},
		{"\n# a comment\n# Status: Draft\n#Skill :  b-1.x   # trailing\n", "b-1.x", true},
		{"# SKILL: c\r\n# Skill: d\r\n", "c", true},
		{"# Description: has # Skill: no\n# Skill: e\t\n", "e", true},
		{"# Skill:\n# Skill: f\n", "", true},
		{"# Skill: \"quoted # not\" # c\n", "\"quoted # not\"", true},
		{"# Sklil: typo\n# Skill: g\n", "g", true},
		{"run:\n    emit(text=\"x\")\n# Skill: late\n", "", false},
		{"# Tests:\n  - name: x\n# Skill: h\n", "", false},
		{"\xef\xbb\xbf# Skill: bom\n", "", false},
		{"Intro\n```skillscript\n# Skill: fenced\n```\n", "", false},
		{"# Skill: bin\x00\n", "", false},
		{"# Skill: bad\xff\n", "", false},
		{"  # Skill: indented\n", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := SkillName([]byte(c.src))
		if got != c.want || ok != c.ok {
			t.Errorf("SkillName(%q) = %q, %v; want %q, %v", c.src, got, ok, c.want, c.ok)
		}
		checkSkillName(t, "case", []byte(c.src))
	}
}

// FuzzSkillName checks that whatever the scan settles, the parser agrees.
func FuzzSkillName(f *testing.F) {
	for _, s := range []string{"# Skill: a\n", "#skill:b # c\nx:\n", "# Status: Draft\n\n# Skill: 'q'\n", "# Tests:\n# Skill: t\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkSkillName(t, "fuzz", src) })
}
