package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

// TestMalformedRefused pins that a half-parsed skill never runs, even when
// the caller skipped linting: nothing is emitted and the error points at
// the first broken statement.
func TestMalformedRefused(t *testing.T) {
	src := "# Skill: broken\n# Status: Approved\n\nrun:\n    emit(text=\"must not run\")\n    $set = 3\n    emit(text=\"x\") ->\n\ndefault: run\n"
	f, ds := syntax.Parse("broken.skill.md", []byte(src))
	if !ds.HasErrors() {
		t.Fatal("the source should have parse errors")
	}
	res, _ := (&Runner{}).Run(context.Background(), f, check.Check(f), nil)
	if res == nil || !res.Failed() {
		t.Fatalf("result %+v: want a failed run", res)
	}
	if len(res.Emissions) != 0 {
		t.Errorf("emissions %v: nothing may run", res.Emissions)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "syntax error") || res.Errors[0].Range == nil || res.Errors[0].Range.Line != 6 {
		t.Errorf("errors %+v: want one syntax error at line 6", res.Errors)
	}
}
