package mock

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// Compile-time checks that the adapters implement the contract.
var (
	_ contract.Connector  = (*connector)(nil)
	_ contract.LocalModel = (*model)(nil)
	_ contract.DataStore  = (*dataStore)(nil)
	_ contract.SkillStore = (*skillStore)(nil)
)

func example(t *testing.T, name string) *Mock {
	t.Helper()
	m, err := Load(filepath.Join("..", "..", "testdata", "eval", "mock", name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func parse(t *testing.T, src string) *Mock {
	t.Helper()
	m, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestConnectorMatching(t *testing.T) {
	m := example(t, "example.yaml")
	yt := m.Connector("youtrack")
	ctx := context.Background()
	got, err := yt.Call(ctx, "search_issues", map[string]any{"query": "project:INFRA state:Open", "limit": 20})
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"id":"INFRA-1","summary":"Disk full on db-2","priority":"Showstopper"},{"id":"INFRA-7","summary":"Flaky deploy","priority":"Major"}]`; value.ToJSON(got) != want {
		t.Errorf("result = %s", value.ToJSON(got))
	}
	got, err = yt.Call(ctx, "search_issues", map[string]any{"query": "project:WEB"})
	if err != nil || value.ToJSON(got) != "[]" {
		t.Errorf("fallthrough entry = %v, %v", got, err)
	}
	_, err = yt.Call(ctx, "delete_issue", map[string]any{"id": "INFRA-1"})
	var nm *NoMatchError
	if !errors.As(err, &nm) || err.Error() != `mock: no entry matches youtrack.delete_issue with arguments {"id":"INFRA-1"}` {
		t.Errorf("unmatched err = %v", err)
	}
	tools, _ := yt.Tools(ctx)
	if len(tools) != 1 || tools[0].Name != "search_issues" {
		t.Errorf("Tools = %+v", tools)
	}
}

func TestResultsAreCopies(t *testing.T) {
	m := parse(t, "mocks:\n  - op: c.t\n    result: {list: [1]}\n")
	c := m.Connector("c")
	first, _ := c.Call(context.Background(), "t", nil)
	first.(*value.Object).Set("list", "mutated")
	second, _ := c.Call(context.Background(), "t", nil)
	if value.ToJSON(second) != `{"list":[1]}` {
		t.Errorf("a caller changed the canned result: %s", value.ToJSON(second))
	}
}

func TestExactArgsCompareByStringForm(t *testing.T) {
	m := example(t, "example.json")
	yt := m.Connector("youtrack")
	for _, limit := range []any{20, 20.0, "20"} {
		if _, err := yt.Call(context.Background(), "search_issues", map[string]any{"query": "project:INFRA state:Open", "limit": limit}); err != nil {
			t.Errorf("limit %#v: %v", limit, err)
		}
	}
	if _, err := yt.Call(context.Background(), "search_issues", map[string]any{"query": "project:INFRA state:Open", "limit": 21}); err == nil {
		t.Error("limit 21 matched")
	}
	m2 := parse(t, "mocks:\n  - op: c.t\n    args: {tags: [a, b], meta: {x: 1, y: [2]}}\n    result: ok\n")
	args := map[string]any{"tags": []string{"a", "b"}, "meta": map[string]any{"y": []any{2}, "x": 1.0}}
	if got, err := m2.Connector("c").Call(context.Background(), "t", args); err != nil || got != "ok" {
		t.Errorf("structured args = %v, %v", got, err)
	}
	args["tags"] = []string{"b", "a"}
	if _, err := m2.Connector("c").Call(context.Background(), "t", args); err == nil {
		t.Error("list order ignored")
	}
}

func TestSequencesAndFailures(t *testing.T) {
	m := example(t, "example.yaml")
	gh := m.Connector("github")
	ctx := context.Background()
	_, err := gh.Call(ctx, "create_issue", map[string]any{"title": "x"})
	var te *contract.ToolError
	if !errors.As(err, &te) || te.Connector != "github" || te.Tool != "create_issue" || value.ToJSON(te.Result) != `{"message":"rate limited","retry_after":30}` {
		t.Fatalf("first call err = %#v", err)
	}
	if !strings.Contains(err.Error(), "rate limited") {
		t.Errorf("tool error message = %q", err)
	}
	for range 2 { // the last response repeats
		got, err := gh.Call(ctx, "create_issue", nil)
		if err != nil || value.ToJSON(got) != `{"number":42,"url":"https://github.com/acme/foo/issues/42"}` {
			t.Errorf("later call = %v, %v", got, err)
		}
	}
	_, err = m.Connector("weather").Call(ctx, "forecast", nil)
	var fe *FailureError
	if !errors.As(err, &fe) || err.Error() != "weather.forecast: connection refused" {
		t.Errorf("failure err = %v", err)
	}
}

func TestModel(t *testing.T) {
	m := example(t, "example.json")
	llm := m.Model()
	ctx := context.Background()
	want := []string{"first", "", "last", "last"}
	for i, w := range want {
		got, err := llm.Run(ctx, "anything", contract.RunOptions{})
		if (w == "") != (err != nil) || got != w {
			t.Errorf("call %d = %q, %v; want %q", i, got, err, w)
		}
	}
	man, err := llm.Manifest(ctx)
	if err != nil || man.DefaultModel != "mock" {
		t.Errorf("Manifest = %+v, %v", man, err)
	}
}

func TestDelayHonoursContext(t *testing.T) {
	m := parse(t, "mocks:\n  - op: llm\n    delay: 10s\n    result: late\n")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := m.Model().Run(ctx, "p", contract.RunOptions{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Error("the delay ignored the context")
	}
	m = example(t, "example.yaml")
	got, err := m.Model().Run(context.Background(), "Disk full?", contract.RunOptions{})
	if err != nil || got != "urgent\n" {
		t.Errorf("delayed answer = %q, %v", got, err)
	}
}

func TestDataStore(t *testing.T) {
	m := example(t, "example.yaml")
	ds := m.DataStore()
	ctx := context.Background()
	recs, err := ds.Query(ctx, contract.Query{Mode: "fts", Text: "triage", Limit: 5})
	if err != nil || len(recs) != 1 {
		t.Fatalf("Query = %+v, %v", recs, err)
	}
	r := recs[0]
	if r.ID != "rec-1" || r.Summary != "Yesterday's triage notes" || r.Detail != "Yesterday's triage notes\nall green" || r.Score != 0.9 || len(r.Tags) != 1 {
		t.Errorf("record = %+v", r)
	}
	if _, err := ds.Query(ctx, contract.Query{Mode: "fts", Limit: 10}); err == nil {
		t.Error("limit 10 matched an entry for limit 5")
	}
	ack, err := ds.Write(ctx, contract.WriteRequest{Content: "report", Tags: []string{"nightly"}})
	if err != nil || ack.ID != "rec-2" {
		t.Errorf("Write = %+v, %v", ack, err)
	}
	calls := m.Calls()
	last := calls[len(calls)-1]
	if last.Op != OpDataWrite || last.Args["content"] != "report" || value.ToJSON(last.Args["tags"]) != `["nightly"]` {
		t.Errorf("recorded call = %+v", last)
	}
	if err := contract.CheckFilters(ds.Manifest(ctx), map[string]any{"anything": 1}, false); err != nil {
		t.Errorf("mock manifest rejects filters: %v", err)
	}
}

func TestSkillStore(t *testing.T) {
	m := example(t, "example.yaml")
	ss := m.SkillStore()
	ctx := context.Background()
	rec, err := ss.Get(ctx, "greeting")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != "Approved" || !strings.HasPrefix(rec.Body, "# Skill: greeting\n") || rec.ContentHash != contract.ContentHash(rec.Body) {
		t.Errorf("Get = %+v", rec)
	}
	if _, err := ss.Get(ctx, "other"); err == nil {
		t.Error("unmocked skill read succeeded")
	}
	w, err := ss.Write(ctx, "child", "# Skill: child\n", "agent-7")
	if err != nil || w.Body != "# Skill: child\n" || w.Author != "agent-7" || w.Status != "Draft" {
		t.Errorf("Write = %+v, %v", w, err)
	}
	list, err := ss.List(ctx, contract.SkillQuery{Status: "APPROVED"})
	if err != nil || len(list) != 1 || list[0].Name != "greeting" {
		t.Errorf("List = %+v, %v", list, err)
	}
	var ni *contract.NotImplementedError
	if err := ss.Delete(ctx, "greeting"); !errors.As(err, &ni) {
		t.Errorf("Delete err = %v", err)
	}
}

func TestJSONParseAndRegistry(t *testing.T) {
	m := example(t, "example.json")
	v, handled, err := m.JSONParse(context.Background(), `{"count": 3}`)
	if !handled || err != nil || value.ToJSON(v) != `{"count":3}` {
		t.Errorf("JSONParse = %v, %v, %v", v, handled, err)
	}
	if _, handled, _ := example(t, "example.yaml").JSONParse(context.Background(), "{}"); handled {
		t.Error("a file without json_parse entries handled json_parse")
	}
	reg := example(t, "example.yaml").Registry()
	if got := strings.Join(reg.ConnectorNames(), ","); got != "github,weather,youtrack" {
		t.Errorf("connectors = %s", got)
	}
	if _, err := reg.Model(""); err != nil {
		t.Errorf("default model: %v", err)
	}
	e, err := reg.Connector("youtrack", "search_issues")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Connector.Call(context.Background(), "search_issues", map[string]any{"query": "x"}); err != nil {
		t.Errorf("registry connector call: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"mocks:\n  - op: llm\n    reslt: x\n", `t.yaml:3:5: unknown key "reslt" in mock entry (known keys: op, args, contains, result, error, is_error, delay, responses)`},
		{"mock:\n  - op: llm\n", `t.yaml:1:1: unknown key "mock" in mock file (known keys: mocks)`},
		{"mocks:\n  - result: x\n", "t.yaml:2:5: mock entry has no op"},
		{"mocks:\n  - op: llm\n", "t.yaml:2:5: mock entry for llm has no result, error, is_error or responses"},
		{"mocks:\n  - op: llm\n    result: a\n    responses: [{result: b}]\n", "t.yaml:2:5: mock entry for llm has both an inline response and responses:"},
		{"mocks:\n  - op: llm\n    responses:\n      - result: a\n        wait: 2s\n", `t.yaml:5:9: unknown key "wait" in response (known keys: result, error, is_error, delay)`},
		{"mocks:\n  - op: llm\n    delay: soon\n    result: a\n", `t.yaml:3:12: delay: "soon" is not a duration such as 2s or 150ms`},
		{"mocks:\n  - op: llm\n    is_error: yes\n", "t.yaml:3:15: is_error: must be true or false"},
		{"mocks:\n  - op: llm\n    args: [prompt]\n    result: a\n", "t.yaml:3:11: args: must be a mapping of argument names to values"},
		{"mocks: {}\n", "t.yaml:1:1: mocks: must be a list of entries"},
		{"- op: llm\n", "t.yaml:1:1: mock file must be a mapping with a mocks: list"},
		{"", "t.yaml:1:1: mock file is empty (want a mapping with a mocks: list)"},
		{"{\n  \"mocks\": [\n    {\"op\": \"llm\", \"bogus\": 1}\n  ]\n}\n", `t.yaml:3:19: unknown key "bogus" in mock entry (known keys: op, args, contains, result, error, is_error, delay, responses)`},
	}
	for _, tt := range tests {
		_, err := Parse("t.yaml", []byte(tt.src))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q)\n  err  = %v\n  want = %s", tt.src, err, tt.want)
		}
	}
	if _, err := Parse("t.yaml", []byte("mocks: [\n")); err == nil || !strings.HasPrefix(err.Error(), "t.yaml: ") {
		t.Errorf("YAML syntax error = %v", err)
	}
	if _, err := Load("does-not-exist.yaml"); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

func TestDelayForms(t *testing.T) {
	m := parse(t, "mocks:\n  - op: a.b\n    delay: 0.01\n    result: x\n  - op: a.c\n    delay: 5ms\n    result: y\n")
	if m.entries[0].responses[0].delay != 10*time.Millisecond || m.entries[1].responses[0].delay != 5*time.Millisecond {
		t.Errorf("delays = %v, %v", m.entries[0].responses[0].delay, m.entries[1].responses[0].delay)
	}
}

func TestConcurrentCalls(t *testing.T) {
	m := parse(t, "mocks:\n  - op: c.t\n    responses: [{result: 1}, {result: 2}, {result: 3}]\n")
	c := m.Connector("c")
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 25 {
				if _, err := c.Call(context.Background(), "t", nil); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	if n := len(m.Calls()); n != 100 {
		t.Errorf("recorded %d calls", n)
	}
}
