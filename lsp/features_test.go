package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// openBrief starts a session on the workspace copy with brief.skill.md open.
func openBrief(t *testing.T) (*testClient, string, string, string) {
	t.Helper()
	dir := workspaceCopy(t)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(dir + "/brief.skill.md"))
	text := read(t, dir, "brief.skill.md")
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	return c, dir, u, text
}

func hoverText(t *testing.T, c *testClient, u string, p protocol.Position) string {
	t.Helper()
	var h protocol.Hover
	c.mustCall("textDocument/hover", docPos(u, p), &h)
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok {
		t.Fatalf("hover contents %T", h.Contents)
	}
	return mc.Value
}

func TestHover(t *testing.T) {
	c, _, u, text := openBrief(t)
	cases := []struct {
		name, needle string
		n, delta     int
		want         []string
	}{
		{"header", "# Status", 0, 3, []string{"Status", "Draft", "Approved", "docs/language.md#header-status"}},
		{"var default", "${PROJECT}", 0, 3, []string{"variable", "PROJECT", `"INFRA"`, "# Vars:", "string"}},
		{"op binding", "${ISSUES.items}", 0, 3, []string{"ISSUES", "-> binding", "tracker.search"}},
		{"iterator", "${ISSUE.id}", 0, 3, []string{"ISSUE", "loop iterator"}},
		{"filter", "|trim", 0, 2, []string{"filter", "trim", "white space", "docs/language.md#filter-trim"}},
		{"target", "summarize: fetch", 0, 12, []string{"target", "fetch", "needed by: `summarize`"}},
		{"goal", "default: summarize", 0, 11, []string{"summarize", "goal", "needs: `fetch`"}},
		{"call op", "shell(", 0, 1, []string{"shell", "argv", "unsafe", "docs/language.md#op-shell"}},
		{"kwarg", "command=", 0, 2, []string{"shell", "command"}},
		{"contract op", "$ llm", 0, 3, []string{"prompt", "maxTokens", "docs/language.md#op-llm"}},
		{"tool", "tracker.search", 0, 10, []string{"tracker.search", "Searches issues", "query", "(required)", `"type": "object"`}},
		{"tool kwarg", "limit=", 0, 1, []string{"limit", "Maximum results"}},
		{"connector", "tracker.search", 0, 2, []string{"connector", "tracker", "search"}},
		{"secret", "{{secret.API_KEY}}", 0, 10, []string{"secret", "API_KEY", "Declared"}},
		{"skill", `"helper"`, 0, 2, []string{"skill", "helper", "helper.skill.md"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := hoverText(t, c, u, posOf(t, text, tc.needle, tc.n, tc.delta))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("hover lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

func TestHoverRuleDoc(t *testing.T) {
	dir := workspaceCopy(t)
	c := newTestClient(t, Options{RuleDoc: func(id string) (string, bool) {
		return "DOC FOR " + id, id == "single-equals"
	}})
	c.initialize(dir)
	u := string(uri.File(dir + "/broken.skill.md"))
	text := read(t, dir, "broken.skill.md")
	c.open(u, text)
	got := hoverText(t, c, u, posOf(t, text, `= "x"`, 0, 0))
	for _, w := range []string{"single-equals", "DOC FOR single-equals", "https://github.com/skillscript/skillc/blob/main/docs/rules.md#single-equals"} {
		if !strings.Contains(got, w) {
			t.Errorf("hover lacks %q:\n%s", w, got)
		}
	}
}

func labels(l protocol.CompletionList) map[string]bool {
	out := map[string]bool{}
	for _, it := range l.Items {
		out[it.Label] = true
	}
	return out
}

func TestCompletion(t *testing.T) {
	c, _, u, text := openBrief(t)
	// Each case edits one line of the document and completes at the end
	// of the inserted text.
	cases := []struct {
		name, line string
		want, not  []string
	}{
		{"header keys", "# Sta", []string{"# Status:", "# Vars:"}, nil},
		{"status values", "# Status: ", []string{"Draft", "Approved", "Disabled"}, nil},
		{"output kinds", "# Output: ", []string{"text", "agent:", "file:"}, nil},
		{"trigger sources", "# Triggers: ", []string{"cron:", "event:"}, nil},
		{"vars in scope", `    emit(text="${`, []string{"PROJECT", "LIMIT", "ISSUES", "RAW", "NOW", "fetch.output"}, []string{"ISSUE"}},
		{"filters", `    emit(text="${PROJECT|`, []string{"trim", "length", "fallback"}, nil},
		{"needs", "    needs: ", []string{"fetch", "summarize"}, nil},
		{"connectors", "    $ ", []string{"tracker", "llm", "data_read"}, nil},
		{"tools", "    $ tracker.", []string{"search"}, nil},
		{"tool kwargs", `    $ tracker.search query="x" `, []string{"limit", "timeout"}, []string{"query"}},
		{"contract kwargs", `    $ llm prompt="x" `, []string{"maxTokens", "model"}, []string{"prompt"}},
		{"call kwargs", `    notify(agent="a", `, []string{"message", "event_type"}, []string{"agent"}},
		{"secrets", `    shell(command="x {{secret.`, []string{"API_KEY"}, nil},
		{"skills", `    execute_skill(name="`, []string{"helper", "brief"}, nil},
		{"ops", "    ", []string{"emit", "shell", "$ llm", "$set", "foreach"}, nil},
		{"classification header", "# Clas", []string{"# Classification:"}, nil},
		{"classification keys", "# Classification: role=procedure ", []string{"invocation=", "effect_mode=", "attach_targets="}, []string{"role="}},
		{"classification values", "# Classification: role=sidecar invocation=", []string{"attach", "both", "direct"}, []string{"sidecar"}},
		{"attach targets", "# Classification: attach_targets=run,", []string{"output", "transcript", "artifact", "task"}, nil},
	}
	version := 1
	lines := strings.Split(text, "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "    $ llm") {
			at = i
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			edited := append([]string(nil), lines...)
			edited[at] = tc.line
			version++
			c.change(u, version, strings.Join(edited, "\n"))
			var list protocol.CompletionList
			c.mustCall("textDocument/completion", docPos(u, protocol.Position{Line: uint32(at), Character: uint32(utf16Len([]byte(tc.line)))}), &list)
			got := labels(list)
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("missing %q in %v", w, got)
				}
			}
			for _, w := range tc.not {
				if got[w] {
					t.Errorf("unexpected %q in %v", w, got)
				}
			}
		})
	}
}

func TestCompletionIteratorInLoop(t *testing.T) {
	c, _, u, text := openBrief(t)
	p := posOf(t, text, "${ISSUE.id}", 0, 2)
	edited := strings.Replace(text, "${ISSUE.id}", "${}", 1)
	c.change(u, 2, edited)
	var list protocol.CompletionList
	c.mustCall("textDocument/completion", docPos(u, p), &list)
	if got := labels(list); !got["ISSUE"] || !got["PROJECT"] {
		t.Errorf("loop completion lacks ISSUE/PROJECT: %v", got)
	}
}

func TestDefinitionReferencesRename(t *testing.T) {
	c, dir, u, text := openBrief(t)
	var locs []protocol.Location
	c.mustCall("textDocument/definition", docPos(u, posOf(t, text, "${PROJECT}", 0, 3)), &locs)
	if len(locs) != 1 || locs[0].Range.Start != posOf(t, text, "PROJECT=", 0, 0) {
		t.Errorf("definition of PROJECT = %+v", locs)
	}
	c.mustCall("textDocument/definition", docPos(u, posOf(t, text, "summarize: fetch", 0, 12)), &locs)
	if len(locs) != 1 || locs[0].Range.Start != posOf(t, text, "fetch:", 0, 0) {
		t.Errorf("definition of fetch = %+v", locs)
	}
	c.mustCall("textDocument/definition", docPos(u, posOf(t, text, `"helper"`, 0, 2)), &locs)
	if len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/helper.skill.md") || locs[0].Range.Start.Line != 0 {
		t.Errorf("definition of helper = %+v", locs)
	}
	var refs []protocol.Location
	c.mustCall("textDocument/references", docPos(u, posOf(t, text, "PROJECT=", 0, 1)), &refs)
	if n := strings.Count(text, "PROJECT"); len(refs) != n {
		t.Errorf("references of PROJECT: %d, want %d: %+v", len(refs), n, refs)
	}
	c.mustCall("textDocument/references", docPos(u, posOf(t, text, "-> SUMMARY", 0, 4)), &refs)
	if len(refs) != 2 { // the binding and # Returns:
		t.Errorf("references of SUMMARY = %+v", refs)
	}
	var edit protocol.WorkspaceEdit
	c.mustCall("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": posOf(t, text, "fetch:", 0, 1), "newName": "gather"}, &edit)
	edits := edit.Changes[uri.URI(u)]
	if len(edits) != 2 {
		t.Fatalf("rename edits = %+v", edits)
	}
	var rng protocol.Range
	c.mustCall("textDocument/prepareRename", docPos(u, posOf(t, text, "${PROJECT}", 0, 4)), &rng)
	if rng.Start != posOf(t, text, "${PROJECT}", 0, 2) {
		t.Errorf("prepareRename = %+v", rng)
	}
	if err := c.call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": posOf(t, text, "fetch:", 0, 1), "newName": "bad name"}, nil); err == nil {
		t.Error("rename to an invalid name succeeded")
	}
	_ = dir
}

func TestRenameIterator(t *testing.T) {
	c, _, u, text := openBrief(t)
	var edit protocol.WorkspaceEdit
	c.mustCall("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": posOf(t, text, "${ISSUE.id}", 0, 3), "newName": "ITEM"}, &edit)
	if got := len(edit.Changes[uri.URI(u)]); got != 3 {
		t.Errorf("iterator rename edits = %d, want 3 (binding + 2 refs)", got)
	}
}

func TestSymbolsFoldingTokens(t *testing.T) {
	c, _, u, _ := openBrief(t)
	td := map[string]any{"textDocument": map[string]any{"uri": u}}
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", td, &syms)
	names := map[string]*protocol.DocumentSymbol{}
	for i := range syms {
		names[syms[i].Name] = &syms[i]
	}
	for _, w := range []string{"# Skill:", "# Vars:", "fetch", "summarize", "default: summarize"} {
		if names[w] == nil {
			t.Errorf("missing symbol %q", w)
		}
	}
	if s := names["summarize"]; s != nil && len(s.Children) != 3 {
		t.Errorf("summarize children = %d, want 3", len(s.Children))
	}
	if s := names["# Vars:"]; s != nil && len(s.Children) != 2 {
		t.Errorf("# Vars: children = %+v", s.Children)
	}
	var folds []protocol.FoldingRange
	c.mustCall("textDocument/foldingRange", td, &folds)
	if len(folds) < 4 { // headers, 2 targets, foreach
		t.Errorf("folding ranges = %+v", folds)
	}
	var toks protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", td, &toks)
	if len(toks.Data) == 0 || len(toks.Data)%5 != 0 {
		t.Fatalf("semantic tokens data len %d", len(toks.Data))
	}
	legend := semanticLegend()
	for i := 0; i < len(toks.Data); i += 5 {
		if int(toks.Data[i+3]) >= len(legend.TokenTypes) || toks.Data[i+2] == 0 {
			t.Fatalf("bad token %v", toks.Data[i:i+5])
		}
	}
}

func TestCodeActions(t *testing.T) {
	c, _, u, text := openBrief(t)
	edited := strings.Replace(text, `$ llm prompt="Summarize ${ISSUES}"`, `$ llm prompt="Summarize ${ISSUES} ${MISSING}"`, 1)
	c.change(u, 2, edited)
	actions := func(needle string) map[string]protocol.CodeAction {
		p := posOf(t, edited, needle, 0, 1)
		var out []protocol.CodeAction
		c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
			"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}}}, &out)
		m := map[string]protocol.CodeAction{}
		for _, a := range out {
			m[a.Title] = a
		}
		return m
	}
	got := actions("shell(")
	argv, ok := got["Convert shell(command=) to argv=[...]"]
	if !ok {
		t.Fatalf("no argv action in %v", got)
	}
	e := argv.Edit.Changes[uri.URI(u)][0].NewText
	if want := `argv=["curl", "-s", "https://example.com/${PROJECT}", "-H", "{{secret.API_KEY}}"]`; e != want {
		t.Errorf("argv edit = %s\nwant %s", e, want)
	}
	if _, ok := got["Add (fallback: ...)"]; !ok {
		t.Errorf("no fallback action in %v", got)
	}
	got = actions("${MISSING}")
	decl, ok := got["Declare MISSING in # Vars:"]
	if !ok {
		t.Fatalf("no declare action in %v", got)
	}
	if te := decl.Edit.Changes[uri.URI(u)][0]; te.NewText != ", MISSING" || te.Range.Start != posOf(t, edited, "\n# Requires", 0, 0) {
		t.Errorf("declare edit = %+v", te)
	}
}

func TestLintFixAction(t *testing.T) {
	dir := workspaceCopy(t)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(dir + "/broken.skill.md"))
	text := read(t, dir, "broken.skill.md")
	c.open(u, text)
	p := posOf(t, text, `= "x"`, 0, 0)
	var out []protocol.CodeAction
	c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}}}, &out)
	for _, a := range out {
		if len(a.Diagnostics) == 1 && a.Diagnostics[0].Code == protocol.String("single-equals") {
			if got := a.Edit.Changes[uri.URI(u)][0].NewText; got != "==" {
				t.Errorf("fix text %q", got)
			}
			return
		}
	}
	t.Errorf("no single-equals fix in %+v", out)
}

func TestSignatureHelp(t *testing.T) {
	c, _, u, text := openBrief(t)
	var h protocol.SignatureHelp
	c.mustCall("textDocument/signatureHelp", docPos(u, posOf(t, text, `inputs={`, 0, 1)), &h)
	if len(h.Signatures) != 1 || !strings.HasPrefix(h.Signatures[0].Label, "execute_skill(") {
		t.Fatalf("signature = %+v", h)
	}
	if got, ok := h.ActiveParameter.Get(); !ok || got != 1 {
		t.Errorf("active parameter = %v %v, want 1 (inputs)", got, ok)
	}
}

// TestHoverClassification: the header hover explains the catalog entry
// and lists the declared values with their allowed sets and problems.
func TestHoverClassification(t *testing.T) {
	c, _, u, text := openBrief(t)
	text = "# Classification: role=sidecar invocation=direct effect_mode=read_only\n" + text
	c.change(u, 2, text)
	got := hoverText(t, c, u, posOf(t, text, "# Classification", 0, 4))
	for _, w := range []string{"Gateway classification", "| `role` | sidecar | procedure, utility, sidecar |", "| `invocation` | direct |", "cannot be direct"} {
		if !strings.Contains(got, w) {
			t.Errorf("hover lacks %q:\n%s", w, got)
		}
	}
}
