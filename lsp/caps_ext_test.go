package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// TestNewCapabilitiesOverStdio asks a real `skillc lsp` process, over its
// stdio, for each capability added with selection range on a real skill
// of the workspace and checks the raw JSON answers: what an editor sees.
func TestNewCapabilitiesOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc")
	}
	dir := workspaceCopy(t)
	c := startExt(t, dir, nil)
	c.initialize(dir)
	u := string(uri.File(filepath.Join(dir, "brief.skill.md")))
	text := read(t, dir, "brief.skill.md")
	c.open(u, text)
	c.waitVersion(u, 1)
	at := func(needle string, delta int) map[string]any {
		p := posOf(t, text, needle, 0, delta)
		return map[string]any{"line": p.Line, "character": p.Character}
	}
	doc := map[string]any{"uri": u}
	for _, tc := range []struct {
		method string
		params map[string]any
		want   []string
	}{
		{"textDocument/selectionRange", map[string]any{"textDocument": doc, "positions": []any{at("ISSUE.summary", 2)}},
			[]string{`"parent":{"range"`, `"start":{"line":14,"character":8}`}},
		{"textDocument/documentHighlight", map[string]any{"textDocument": doc, "position": at("ISSUES.items", 1)},
			[]string{`"kind":3`, `"kind":2`, `"start":{"line":9,"character":66}`}},
		{"textDocument/declaration", map[string]any{"textDocument": doc, "position": at("default: summarize", 10)},
			[]string{`"start":{"line":12,"character":0}`}},
		{"textDocument/linkedEditingRange", map[string]any{"textDocument": doc, "position": at("summarize: fetch", 2)},
			[]string{`"ranges":[`, `"start":{"line":18,"character":9}`, `"wordPattern"`}},
		{"textDocument/rangeFormatting", map[string]any{"textDocument": doc, "range": map[string]any{"start": at("fetch:", 0), "end": at("summarize:", 0)},
			"options": map[string]any{"tabSize": 4, "insertSpaces": true}}, []string{`[]`}},
		{"textDocument/onTypeFormatting", map[string]any{"textDocument": doc, "position": at("fetch:", 6), "ch": ":",
			"options": map[string]any{"tabSize": 4, "insertSpaces": true}}, []string{`[]`}},
	} {
		r := c.call(tc.method, tc.params)
		t.Logf("%s -> %.200s", tc.method, r.Result)
		if len(r.Error) > 0 {
			t.Errorf("%s: error %s", tc.method, r.Error)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(string(r.Result), w) {
				t.Errorf("%s = %s, lacks %s", tc.method, r.Result, w)
			}
		}
	}
	// signature help in an unclosed call typed into the buffer
	typed := strings.Replace(text, "    $ llm prompt=", "    notify(agent=\"ops\", \n    $ llm prompt=", 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"text": typed}}})
	p := posOf(t, typed, `notify(agent="ops", `, 0, len(`notify(agent="ops", `))
	r := c.call("textDocument/signatureHelp", map[string]any{"textDocument": doc, "position": map[string]any{"line": p.Line, "character": p.Character}})
	var h struct {
		Signatures []struct {
			Label string `json:"label"`
		} `json:"signatures"`
		ActiveParameter *int `json:"activeParameter"`
	}
	must(t, json.Unmarshal(r.Result, &h))
	t.Logf("textDocument/signatureHelp in an unclosed call -> %s", r.Result)
	if len(h.Signatures) != 1 || !strings.HasPrefix(h.Signatures[0].Label, "notify(") || h.ActiveParameter == nil || *h.ActiveParameter != 1 {
		t.Errorf("signature help in an unclosed call = %s", r.Result)
	}
}
