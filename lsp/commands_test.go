package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// helloSkill is a skill with one test that a real `skillc run` and
// `skillc test` pass.
const helloSkill = "# Skill: hello\n# Timeout: 30\n# Tests:\n  - name: \"says hello\"\n    expect:\n      compiled_output_contains: \"hello from run\"\n\n" +
	"run:\n    emit(text=\"hello from run\")\n\ndefault: run\n"

// TestExecuteCommands drives the server-side commands through a real
// `skillc lsp` process: executeCommandProvider lists them, skillc.run and
// skillc.test run the real binary on the saved skill, skillc.approve.preview
// answers the effect footprint of a real skill, skillc.fix.all answers and
// applies (workspace/applyEdit) the fixes of the document, an unknown
// command or a path that is not a skill file is refused, and the code
// lenses name skillc.run and skillc.test.
func TestExecuteCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc")
	}
	dir := workspaceCopy(t)
	writeFile(t, dir, "hello.skill.md", helloSkill)
	c := startExt(t, dir, nil)
	init := c.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": string(uri.File(dir)),
		"capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true}}})
	c.notify("initialized", map[string]any{})
	var ir struct {
		Capabilities struct {
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	must(t, json.Unmarshal(init.Result, &ir))
	t.Logf("executeCommandProvider.commands = %v", ir.Capabilities.ExecuteCommandProvider.Commands)
	if got := ir.Capabilities.ExecuteCommandProvider.Commands; !slices.Equal(got, []string{"skillc.run", "skillc.test", "skillc.approve.preview", "skillc.fix.all"}) {
		t.Fatalf("executeCommandProvider.commands = %v", got)
	}
	exec := func(cmd string, args ...any) extMsg {
		return c.call("workspace/executeCommand", map[string]any{"command": cmd, "arguments": args})
	}
	hello := string(uri.File(filepath.Join(dir, "hello.skill.md")))
	c.open(hello, helloSkill)

	// the code lenses name the server's commands
	lens := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": hello}})
	if !strings.Contains(string(lens.Result), `"command":"skillc.run"`) || !strings.Contains(string(lens.Result), `"command":"skillc.test"`) {
		t.Errorf("code lenses = %s", lens.Result)
	}
	for _, kind := range []string{"run", "test"} {
		r := exec("skillc."+kind, hello)
		var res RunResult
		if err := json.Unmarshal(r.Result, &res); err != nil || len(r.Error) > 0 {
			t.Fatalf("skillc.%s: %s %s", kind, r.Result, r.Error)
		}
		t.Logf("skillc.%s: %q exit %d output %q", kind, res.Command, res.ExitCode, res.Output)
		want := map[string]string{"run": "hello from run", "test": "hello.skill.md: says hello\n1 passed, 0 failed"}[kind]
		if res.ExitCode != 0 || !strings.Contains(res.Output, want) {
			t.Errorf("skillc.%s = %+v, want exit 0 and %q", kind, res, want)
		}
	}
	if logs := strings.Join(c.messagesOf("window/logMessage"), "\n"); !strings.Contains(logs, "hello from run") {
		t.Errorf("the run's output is not in window/logMessage: %s", logs)
	}

	// the footprint of a real skill
	brief := string(uri.File(filepath.Join(dir, "brief.skill.md")))
	c.open(brief, read(t, dir, "brief.skill.md"))
	r := exec("skillc.approve.preview", brief)
	var pv PreviewResult
	if err := json.Unmarshal(r.Result, &pv); err != nil || len(r.Error) > 0 {
		t.Fatalf("skillc.approve.preview: %s %s", r.Result, r.Error)
	}
	t.Logf("skillc.approve.preview: skill %s effectful %v summary %q children %v", pv.Skill, pv.Effectful, pv.Summary, pv.Children)
	summary := strings.Join(pv.Summary, "\n")
	for _, w := range []string{"line 10: $ tracker.search", "line 11: shell curl", "line 16: $ llm", "line 17: execute_skill helper"} {
		if !strings.Contains(summary, w) {
			t.Errorf("footprint lacks %q:\n%s", w, summary)
		}
	}
	if pv.Skill != "brief" || !pv.Effectful || !slices.Equal(pv.Children, []string{"helper"}) {
		t.Errorf("preview = %+v", pv)
	}

	// fix all: answered and applied through workspace/applyEdit
	fixme := string(uri.File(filepath.Join(dir, "fixme.skill.md")))
	src := "# Skill: fixme\n# Vars: NAME\n# Timeout: 30\n\nrun:\n    if ${NAME} = \"x\":\n        emit(text=\"a\")\n    if ${NAME} = \"y\":\n        emit(text=\"b\")\n\ndefault: run\n"
	c.open(fixme, src)
	r = exec("skillc.fix.all", fixme)
	var edit protocol.WorkspaceEdit
	if err := protocol.Unmarshal(r.Result, &edit); err != nil || len(r.Error) > 0 {
		t.Fatalf("skillc.fix.all: %s %s", r.Result, r.Error)
	}
	tes := edit.Changes[uri.URI(fixme)]
	fixed := []byte(src)
	for i := len(tes) - 1; i >= 0; i-- {
		from, to := byteOffsetIn(fixed, tes[i].Range.Start), byteOffsetIn(fixed, tes[i].Range.End)
		fixed = append(fixed[:from:from], append([]byte(tes[i].NewText), fixed[to:]...)...)
	}
	t.Logf("skillc.fix.all: %d edits; fixed text:\n%s", len(tes), fixed)
	if strings.Count(string(fixed), "==") != 2 {
		t.Errorf("fix all did not fix both comparisons:\n%s", fixed)
	}
	applied := c.messagesOf("workspace/applyEdit")
	if len(applied) != 1 || !strings.Contains(applied[0], `"==`) || !strings.Contains(applied[0], "fixme.skill.md") {
		t.Errorf("workspace/applyEdit requests = %v", applied)
	}

	// refusals
	for _, tc := range []struct {
		cmd  string
		args []any
		want string
	}{
		{"skillc.nope", []any{hello}, "unknown command"},
		{"skillc.run", []any{string(uri.File(filepath.Join(dir, "connectors.json")))}, "is not a .skill.md file"},
		{"skillc.run", []any{string(uri.File(filepath.Join(dir, "missing.skill.md")))}, "is not a saved file"},
		{"skillc.run", []any{42}, "must be a document URI"},
	} {
		r := exec(tc.cmd, tc.args...)
		t.Logf("%s %v: %s", tc.cmd, tc.args, r.Error)
		if !strings.Contains(string(r.Error), tc.want) {
			t.Errorf("%s %v: error %s, want %q", tc.cmd, tc.args, r.Error, tc.want)
		}
	}
}

// TestClientCommandsNotAnnounced: a client that implements skillc.run and
// skillc.test itself (the VS Code extension) says so in
// initializationOptions and is not offered them again.
func TestClientCommandsNotAnnounced(t *testing.T) {
	c := newTestClient(t, Options{})
	var res map[string]any
	c.mustCall("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"clientCommands": []string{"skillc.run", "skillc.test"}}}, &res)
	got := res["capabilities"].(map[string]any)["executeCommandProvider"]
	t.Logf("executeCommandProvider = %v", got)
	b, _ := json.Marshal(got)
	if string(b) != `{"commands":["skillc.approve.preview","skillc.fix.all"]}` {
		t.Errorf("executeCommandProvider = %s", b)
	}
}
