package footprint

import (
	"slices"
	"testing"
)

// OfSource summarizes what a skill can touch: the shell binaries it
// names, effectful, and an empty (not nil) child list.
func TestOfSource(t *testing.T) {
	src := "# Skill: fp\n\ndefault: main\n\nmain:\n    shell(argv=[\"date\", \"+%Y\"]) -> Y\n    shell(argv=[\"uname\"]) -> U\n    emit(text=\"${Y} ${U}\")\n"
	fp := OfSource(src)
	if !slices.Equal(fp.ShellBinaries, []string{"date", "uname"}) || !fp.Effectful || fp.DynamicShell != 0 {
		t.Errorf("footprint = %+v; want the shell binaries date and uname, effectful", fp)
	}
	if fp.ChildSkills == nil || len(fp.ChildSkills) != 0 {
		t.Errorf("child skills = %#v, want an empty list", fp.ChildSkills)
	}
	if pure := OfSource("# Skill: pure\n\ndefault: main\n\nmain:\n    emit(text=\"hi\")\n"); pure.Effectful || len(pure.Effects) != 0 || len(pure.ShellBinaries) != 0 {
		t.Errorf("a pure skill's footprint = %+v", pure)
	}
}
