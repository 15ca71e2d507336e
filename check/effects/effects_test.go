package effects

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

func TestFootprint(t *testing.T) {
	src := `# Skill: fp
# Status: Draft
# Vars: P=/tmp/x, WHO=ops

main:
    $ github.list_issues repo="a/b" -> ISSUES
    $ github.create_issue title="t" approved="triage"
    $ llm prompt="hi" -> A
    $ json_parse ${A} -> J
    $ data_write content="x" approved="log"
    shell(argv=["rm", "-f", "${P}"], approved="cleanup")
    shell(command="jq .x") -> Q
    shell(command="${TOOL} run") -> R
    shell(command="echo hi | wc", unsafe=true) -> U
    file_read(path="/etc/hosts") -> H
    file_write(path="${P}", content="x", approved="write")
    notify(agent="${WHO}", message="m")
    $ execute_skill name="child-a" -> C
    execute_skill(name="child-b") -> D
    inline(skill="data-c")
    emit(text="done")
default: main
`
	f, _ := syntax.Parse("fp.skill.md", []byte(src))
	mut := func(conn, tool string) (string, bool) {
		if tool == "list_issues" {
			return "", true
		}
		return "", false
	}
	fp := Of(f, check.Check(f), mut)
	want := []Effect{
		{Kind: Dispatch, Op: "$ github.list_issues", Connector: "github", Tool: "list_issues", Line: 6},
		{Kind: Dispatch, Op: "$ github.create_issue", Connector: "github", Tool: "create_issue", Mutating: true, Why: "tool create_issue has a mutating verb", Line: 7},
		{Kind: Dispatch, Op: "$ llm", Tool: "llm", Line: 8},
		{Kind: Dispatch, Op: "$ data_write", Tool: "data_write", Mutating: true, Why: "$ data_write writes to the store", Line: 10},
		{Kind: Shell, Op: "shell", Subject: "rm", Mutating: true, Why: "shell binary rm changes files", Line: 11},
		{Kind: Shell, Op: "shell", Subject: "jq", Line: 12},
		{Kind: Shell, Op: "shell", Subject: `"${TOOL} run"`, Dynamic: true, Line: 13},
		{Kind: Shell, Op: "shell", Subject: "bash", Mutating: true, Why: "unsafe shell can change anything", Line: 14},
		{Kind: FileRead, Op: "file_read", Subject: "/etc/hosts", Line: 15},
		{Kind: FileWrite, Op: "file_write", Subject: `"${P}"`, Dynamic: true, Mutating: true, Why: "file_write writes a file", Line: 16},
		{Kind: Notify, Op: "notify", Subject: `"${WHO}"`, Dynamic: true, Line: 17},
		{Kind: Child, Op: "$ execute_skill", Subject: "child-a", Line: 18},
		{Kind: Child, Op: "execute_skill", Subject: "child-b", Line: 19},
		{Kind: Child, Op: "inline", Subject: "data-c", Line: 20},
	}
	if diff := cmp.Diff(want, fp.Effects, cmpopts.IgnoreFields(Effect{}, "Range")); diff != "" {
		t.Errorf("footprint (-want +got):\n%s", diff)
	}
	if got := fp.Children(); !cmp.Equal(got, []string{"child-a", "child-b", "data-c"}) {
		t.Errorf("children %v", got)
	}
	if !fp.Effectful() {
		t.Error("not effectful")
	}
}

func TestFootprintPureSkill(t *testing.T) {
	src, err := os.ReadFile("../../internal/approval/testdata/crlf.skill.md")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.Parse("crlf.skill.md", src)
	fp := Of(f, check.Check(f), nil)
	if fp.Effectful() || len(fp.Effects) != 0 {
		t.Errorf("pure skill has effects %v", fp.Summary())
	}
}
