package dap

import (
	"fmt"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

const placeSkill = `# Skill: place
# Vars: L=[1]

a:
    $set X = "1"

    foreach I in ${L}:
        if ${I} == 1:
            emit(text="one")
        else:
            emit(text="other")

b: a
    emit(text="b")
    # a comment

default: b
`

// Breakpoint lines bind to the next target header or statement, nested
// statements included; past the last statement there is none.
func TestPlaceBreakpoints(t *testing.T) {
	f, diags := syntax.Parse("place.skill.md", []byte(placeSkill))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	lines := stopLines(f)
	for _, tc := range []struct {
		line, want int
		target     bool
	}{
		{1, 4, true}, {4, 4, true}, {5, 5, false}, {6, 7, false}, {8, 8, false}, {10, 11, false},
		{12, 13, true}, {14, 14, false}, {15, 0, false},
	} {
		got, ok := place(lines, tc.line)
		if tc.want == 0 {
			if ok {
				t.Errorf("line %d bound to %+v, want none", tc.line, got)
			}
			continue
		}
		if !ok || got.line != tc.want || got.target != tc.target {
			t.Errorf("line %d bound to %+v (%v), want line %d target %v", tc.line, got, ok, tc.want, tc.target)
		}
	}
	info := check.Check(f)
	var names []string
	for _, t := range chain(info, info.Targets["a"]) {
		names = append(names, t.Name.Name)
	}
	if fmt.Sprint(names) != "[b]" || chain(info, info.Targets["b"]) != nil {
		t.Errorf("chain of a = %v", names)
	}
}

// Expressions parse as conditions and texts; a multi-line or triple-quoted
// one is refused with a message.
func TestParseExpressions(t *testing.T) {
	if _, err := parseCond(`${T} == "b" and ${N} > 2`); err != nil {
		t.Error(err)
	}
	if _, err := parseCond(`${T} ==`); err == nil {
		t.Error("a broken condition parsed")
	}
	if txt, err := parseText("a ${B|length} c"); err != nil || len(txt.Parts) != 3 {
		t.Errorf("text: %v %v", txt, err)
	}
	for _, bad := range []string{"a\nb", `x """ y`} {
		if _, err := parseText(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
