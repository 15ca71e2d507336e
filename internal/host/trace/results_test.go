package trace

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/mock"
	"github.com/skillscript/skillc/syntax"
)

// A run's connector and model calls are recorded in call order, with
// their results (secret values redacted) and failures, for replay.
func TestStoreRecordsToolCalls(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := mock.Parse("m.yaml", []byte(`mocks:
  - op: crm.lookup
    result: {name: Ada, key: "tok-123456"}
  - op: crm.page
    is_error: true
    result: {reason: quota}
  - op: llm
    result: summary text
`))
	if err != nil {
		t.Fatal(err)
	}
	src := "# Skill: calls\n# Status: Approved\n\nrun:\n    $ crm.lookup id=\"1\" -> A\n    $ llm prompt=\"sum ${A.name}\" -> S\n    $ crm.page who=\"x\" -> P (fallback: \"none\")\n\ndefault: run\n"
	r := eval.Runner{Registry: m.Registry()}
	_, id, err := st.Exec(context.Background(), r, Run{Trigger: "cli"}, "calls.skill.md", []byte(src), nil, []string{"tok-123456"})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := st.ToolCalls(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 {
		t.Fatalf("calls = %+v", calls)
	}
	var a map[string]any
	_ = json.Unmarshal(calls[0].Result, &a)
	if calls[0].Connector != "crm" || calls[0].Tool != "lookup" || a["name"] != "Ada" || a["key"] != Redacted {
		t.Errorf("lookup = %+v (%s)", calls[0], calls[0].Result)
	}
	if calls[1].Connector != ModelConnector || string(calls[1].Result) != `"summary text"` {
		t.Errorf("llm = %+v (%s)", calls[1], calls[1].Result)
	}
	if !calls[2].ToolError || string(calls[2].Result) != `{"reason":"quota"}` {
		t.Errorf("page = %+v (%s)", calls[2], calls[2].Result)
	}
	for _, c := range calls {
		if strings.Contains(string(c.Result)+c.Error, "tok-123456") {
			t.Errorf("a secret value was recorded: %+v", c)
		}
	}
}

// A call that received a secret is recorded as the placeholder whole: the
// backend may return the secret in a spelling no redactor knows.
func TestStoreToolCallTainted(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := mock.Parse("m.yaml", []byte("mocks:\n  - op: svc.upper\n    result: SK-LIVE-XYZ987\n"))
	if err != nil {
		t.Fatal(err)
	}
	src := "# Skill: t\n# Status: Approved\n# Requires: secret.K\n\nrun:\n    $ svc.upper text=\"{{secret.K}}\" -> U\n\ndefault: run\n"
	r := eval.Runner{Registry: m.Registry(), Secrets: func(string) (string, bool) { return "sk-live-xyz987", true }}
	_, id, err := st.Exec(context.Background(), r, Run{Trigger: "cli"}, "t.skill.md", []byte(src), nil, []string{"sk-live-xyz987"})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := st.ToolCalls(context.Background(), id)
	if err != nil || len(calls) != 1 || string(calls[0].Result) != `"`+Redacted+`"` {
		t.Fatalf("calls = %+v (%v)", calls, err)
	}
}

// A run that skillc run spooled keeps its tool calls: after the import
// they are in the store as a direct write leaves them, redacted, so a
// replay of a CLI run has its recorded results.
func TestSpoolKeepsToolCalls(t *testing.T) {
	dir := t.TempDir()
	sp, err := OpenSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mock.Parse("m.yaml", []byte("mocks:\n  - op: crm.lookup\n    result: {name: Ada, key: \"tok-123456\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("# Skill: calls\n# Status: Approved\n\nrun:\n    $ crm.lookup id=\"1\" -> A\n    emit(text=\"${A.name}\")\n\ndefault: run\n")
	f, _ := syntax.Parse("calls.skill.md", src)
	_, id, err := sp.ExecParsed(context.Background(), eval.Runner{Registry: m.Registry()}, Run{Trigger: "cli"}, "calls.skill.md", src, f, check.Check(f), nil, []string{"tok-123456"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	calls, err := st.ToolCalls(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var a map[string]any
	if len(calls) == 1 {
		_ = json.Unmarshal(calls[0].Result, &a)
	}
	if len(calls) != 1 || calls[0].Connector != "crm" || a["name"] != "Ada" || a["key"] != Redacted {
		t.Fatalf("imported calls = %+v", calls)
	}
}
