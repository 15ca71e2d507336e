package lint

import (
	"fmt"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// TestImplicitStore pins decision C13: the skill's own directory standing
// in for the store checks references against it, keeps the store-contents
// rules silent, and reports an inline it cannot resolve as
// missing-skillstore-for-data-ref rather than unknown-skill-reference.
func TestImplicitStore(t *testing.T) {
	src := "# Skill: main\n# Status: Approved\nrun:\n" +
		"    execute_skill(name=\"sibling\", timeout=10) -> R\n" +
		"    inline(skill=\"facts\")\n" +
		"    inline(skill=\"style\")\n" +
		"    emit(text=\"${R} ${FACT|fallback:\\\"-\\\"}\")\n" +
		"default: run\n"
	idx := MapIndex{
		"style": {Name: "style", Type: "data", File: "dir/style.skill.md", Files: []string{"dir/style.skill.md"}},
		"main":  {Name: "main", File: "dir/other.skill.md", Files: []string{"dir/other.skill.md", "dir/copy.skill.md"}},
	}
	rules := func(ctx *Context) []string {
		_, _, ds := Check("dir/main.skill.md", []byte(src), ctx, Options{})
		lt := ast.NewLineTable([]byte(src))
		var out []string
		for _, d := range ds {
			switch d.Rule {
			case "unknown-skill-reference", "missing-skillstore-for-data-ref", "duplicate-skill-name", "skill-name-collision":
				out = append(out, fmt.Sprintf("%d:%d %s %s", lt.Position(d.Range.From).Line, lt.Position(d.Range.From).Column, d.Severity, d.Rule))
			}
		}
		return out
	}
	implicit := rules(&Context{FilePath: "dir/main.skill.md", SkillsKnown: true, Skills: idx, SkillsImplicit: true})
	want := []string{"4:24 warning unknown-skill-reference", "5:5 error missing-skillstore-for-data-ref"}
	if fmt.Sprint(implicit) != fmt.Sprint(want) {
		t.Errorf("implicit store: got %v, want %v", implicit, want)
	}
	configured := rules((&Context{FilePath: "dir/main.skill.md"}).WithSkills(idx))
	want = []string{"1:10 info skill-name-collision", "4:24 warning unknown-skill-reference", "5:18 warning unknown-skill-reference"}
	if fmt.Sprint(configured) != fmt.Sprint(want) {
		t.Errorf("configured store: got %v, want %v", configured, want)
	}
	none := rules(&Context{FilePath: "dir/main.skill.md"})
	want = []string{"5:5 error missing-skillstore-for-data-ref", "6:5 error missing-skillstore-for-data-ref"}
	if fmt.Sprint(none) != fmt.Sprint(want) {
		t.Errorf("no store: got %v, want %v", none, want)
	}
}
