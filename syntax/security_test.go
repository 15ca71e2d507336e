package syntax

import (
	"testing"

	"github.com/skillscript/skillc/ast"
)

// TestBOMKeepsFirstHeader: a UTF-8 byte order mark before "# Skill:" is
// skipped with an info diagnostic, so the header is still a header (issue
// 13 item 11), and positions stay exact.
func TestBOMKeepsFirstHeader(t *testing.T) {
	src := []byte("\xef\xbb\xbf# Skill: bom\n# Autonomous: false\n\nt:\n    emit(text=\"x\")\n")
	f, diags := Parse("bom.skill.md", src)
	var bom *ast.Diagnostic
	for _, d := range diags {
		if d.Rule == "byte-order-mark" {
			bom = d
		} else if d.Severity == ast.Error {
			t.Errorf("unexpected error: %s", d.Message)
		}
	}
	if bom == nil || bom.Severity != ast.Info || bom.Range != ast.RangeOf(0, 3) {
		t.Fatalf("byte-order-mark diagnostic = %+v", bom)
	}
	if len(f.Headers) < 1 || f.Headers[0].Kind != ast.HeaderSkill {
		t.Fatalf("headers = %+v, want # Skill: first", f.Headers)
	}
	h := f.Headers[0]
	if got := string(src[h.Range.From.Offset():h.Range.To.Offset()]); got[:8] != "# Skill:" {
		t.Errorf("header range covers %q", got)
	}
}

// TestAutonomousOnlyTrueFalse: only the literals true and false are values
// of # Autonomous: (issue 13 item 12); the rest is an error with a fix.
func TestAutonomousOnlyTrueFalse(t *testing.T) {
	for _, c := range []struct{ value, fix string }{
		{"yes", "true"}, {"1", "true"}, {"on", "true"}, {"True", "true"},
		{"no", "false"}, {"0", "false"}, {"off", "false"}, {"sure", ""},
	} {
		src := "# Skill: a\n# Autonomous: " + c.value + "\n\nt:\n    emit(text=\"x\")\n"
		f, diags := Parse("a.skill.md", []byte(src))
		var got *ast.Diagnostic
		for _, d := range diags {
			if d.Severity == ast.Error {
				got = d
			}
		}
		if got == nil {
			t.Errorf("# Autonomous: %s accepted", c.value)
			continue
		}
		for _, h := range f.Headers {
			if h.Kind == ast.HeaderAutonomous && h.Bool != nil {
				t.Errorf("# Autonomous: %s set a value %v", c.value, h.Bool.Value)
			}
		}
		fix := ""
		if len(got.Fixes) > 0 && len(got.Fixes[0].Edits) > 0 {
			fix = got.Fixes[0].Edits[0].NewText
		}
		if fix != c.fix {
			t.Errorf("# Autonomous: %s fix = %q, want %q", c.value, fix, c.fix)
		}
	}
	for _, v := range []string{"true", "false"} {
		_, diags := Parse("a.skill.md", []byte("# Skill: a\n# Autonomous: "+v+"\n\nt:\n    emit(text=\"x\")\n"))
		if diags.HasErrors() {
			t.Errorf("# Autonomous: %s: %v", v, diags)
		}
	}
}
