package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

const extrasSkill = "# Skill: x\n# Status: Draft\n\nfetch:\n    $set N = 3\n    $set L = [1, 2]\n    $set S = \"a ${N}\"\n\nmid: fetch\n    emit(text=\"${S}\")\n\nlast: mid\n    emit(text=\"done\")\n\ndefault: last\n"

// openExtras opens extrasSkill in a fresh server.
func openExtras(t *testing.T) (*testClient, string, map[string]any) {
	c := newTestClient(t, Options{})
	c.initialize(t.TempDir())
	u := "untitled:x"
	c.open(u, extrasSkill)
	c.waitDiags(u, atVersion(1))
	return c, u, map[string]any{"uri": u}
}

// TestSemanticTokensRangeAndDelta checks that a range request returns the
// tokens of the range and that a delta after an edit, applied to the
// previous tokens, gives the new full tokens.
func TestSemanticTokensRangeAndDelta(t *testing.T) {
	c, u, doc := openExtras(t)
	var full protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": doc}, &full)
	if full.ResultID == nil || len(full.Data) == 0 {
		t.Fatalf("full = %+v", full)
	}
	var rng protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/range", map[string]any{"textDocument": doc,
		"range": map[string]any{"start": map[string]any{"line": 8, "character": 0}, "end": map[string]any{"line": 10, "character": 0}}}, &rng)
	if len(rng.Data) == 0 || len(rng.Data) >= len(full.Data) || rng.Data[0] != 8 {
		t.Errorf("range tokens = %v (full has %d numbers)", rng.Data, len(full.Data))
	}
	edited := strings.Replace(extrasSkill, "emit(text=\"done\")", "emit(text=\"${N} done\")", 1)
	c.change(u, 2, edited)
	c.waitDiags(u, atVersion(2))
	var raw json.RawMessage
	c.mustCall("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": doc, "previousResultId": *full.ResultID}, &raw)
	var delta protocol.SemanticTokensDelta
	if err := json.Unmarshal(raw, &delta); err != nil || len(delta.Edits) != 1 {
		t.Fatalf("delta = %s (%v)", raw, err)
	}
	e := delta.Edits[0]
	got := append(append(append([]uint32{}, full.Data[:e.Start]...), e.Data...), full.Data[e.Start+e.DeleteCount:]...)
	var now protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": doc}, &now)
	if len(got) != len(now.Data) {
		t.Fatalf("delta applied has %d numbers, full has %d", len(got), len(now.Data))
	}
	for i := range got {
		if got[i] != now.Data[i] {
			t.Fatalf("delta applied differs at %d", i)
		}
	}
}

// TestInlayHintsAndCodeLens checks the $set type hints, the resolved
// dependencies of a target and the Run/Test lenses.
func TestInlayHintsAndCodeLens(t *testing.T) {
	c, _, doc := openExtras(t)
	var raw json.RawMessage
	c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": doc,
		"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 20, "character": 0}}}, &raw)
	var hints []struct {
		Position protocol.Position `json:"position"`
		Label    string            `json:"label"`
	}
	if err := json.Unmarshal(raw, &hints); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hints {
		got = append(got, fmt.Sprintf("%s@%d", h.Label, h.Position.Line))
	}
	want := ": number@4,: list[2]@5,: string (template)@6,after fetch@8,after fetch → mid@11"
	if strings.Join(got, ",") != want {
		t.Errorf("hints = %s, want %s", strings.Join(got, ","), want)
	}
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", map[string]any{"textDocument": doc}, &lenses)
	if len(lenses) != 2 || lenses[0].Command.Command != CommandRun || lenses[1].Command.Command != CommandTest ||
		len(lenses[0].Command.Arguments) != 1 || string(lenses[0].Command.Arguments[0]) != `"untitled:x"` {
		t.Errorf("lenses = %+v", lenses)
	}
}

// TestSettingsFromEditor checks that the "skillc" settings the editor
// returns for workspace/configuration reach configuration discovery: an
// env override of SKILLSCRIPT_HOME finds the connectors.json there.
func TestSettingsFromEditor(t *testing.T) {
	home := t.TempDir()
	writeFile(t, home, "connectors.json", read(t, filepath.Join("..", "testdata", "lsp", "ws"), "connectors.json"))
	c := newTestClient(t, Options{})
	c.settings = map[string]any{"skillscriptHome": home, "server": map[string]any{"debounceMs": 0}}
	c.initialize(t.TempDir())
	u := "untitled:s"
	text := "# Skill: s\n# Status: Draft\n# Timeout: 9\n\nrun:\n    $ tracker.search query=\"x\" bogus=1 -> R\n\ndefault: run\n"
	// the settings are pulled after initialized: wait until the tool's
	// schema is known (without the settings nothing is reported)
	deadline := time.Now().Add(10 * time.Second)
	for v := 1; ; v++ {
		if v == 1 {
			c.open(u, text)
		} else {
			c.change(u, v, text+strings.Repeat("\n", v%2))
		}
		p := c.waitDiags(u, atVersion(int32(v)))
		if strings.Contains(fmt.Sprint(codes(p)), "unknown-connector-arg") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("connectors.json in the SKILLSCRIPT_HOME from the settings not used: %v", codes(p))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestCapabilities pins what initialize announces to the list in
// docs/editors.md: diagnostics are pulled only by a client that says it
// pulls them (pushed otherwise, never both).
func TestCapabilities(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "editors.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(doc), "<!-- capabilities -->\n")
	list, _, ok2 := strings.Cut(list, "<!-- /capabilities -->")
	if !ok || !ok2 {
		t.Fatal("docs/editors.md has no <!-- capabilities --> list")
	}
	var all, pushed []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		name, _, _ := strings.Cut(strings.TrimPrefix(line, "- `"), "`")
		all = append(all, name)
		if !strings.Contains(line, "(pull;") {
			pushed = append(pushed, name)
		}
	}
	sort.Strings(all)
	sort.Strings(pushed)
	for _, pull := range []bool{false, true} {
		c := newTestClient(t, Options{})
		caps := map[string]any{}
		if pull {
			caps["textDocument"] = map[string]any{"diagnostic": map[string]any{}}
		}
		var res map[string]any
		c.mustCall("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps}, &res)
		got := capabilityNames(res)
		want := strings.Join(pushed, ",")
		if pull {
			want = strings.Join(all, ",")
		}
		if got != want {
			t.Errorf("pull %v, capabilities:\n got %s\nwant %s (docs/editors.md)", pull, got, want)
		}
		sem, _ := res["capabilities"].(map[string]any)["semanticTokensProvider"].(map[string]any)
		if full, _ := sem["full"].(map[string]any); full["delta"] != true || sem["range"] != true {
			t.Errorf("semantic tokens: %v", sem)
		}
	}
}

// capabilityNames lists the capability keys of an initialize result.
func capabilityNames(res map[string]any) string {
	caps, _ := res["capabilities"].(map[string]any)
	var got []string
	for k := range caps {
		got = append(got, k)
	}
	sort.Strings(got)
	return strings.Join(got, ",")
}

// TestPullClientGetsNoPush checks that a client pulling diagnostics gets
// them from textDocument/diagnostic and no publishDiagnostics for the
// document.
func TestPullClientGetsNoPush(t *testing.T) {
	c := newTestClient(t, Options{})
	var res map[string]any
	c.mustCall("initialize", map[string]any{"processId": nil, "rootUri": nil,
		"capabilities": map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}}}, &res)
	c.notify("initialized", map[string]any{})
	u := "untitled:p"
	c.open(u, "# Skill: p\n\nrun:\n    emit(text=\"${NAEM}\")\n\ndefault: run\n")
	var rep struct {
		Kind  string                `json:"kind"`
		Items []protocol.Diagnostic `json:"items"`
	}
	c.mustCall("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}}, &rep)
	if rep.Kind != "full" || !strings.Contains(fmt.Sprint(rep.Items), "undeclared-var") {
		t.Fatalf("pulled %+v", rep)
	}
	time.Sleep(100 * time.Millisecond)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.diags {
		if string(p.URI) == u && len(p.Diagnostics) > 0 {
			t.Errorf("diagnostics pushed to a pulling client: %+v", p)
		}
	}
}

// TestWorkspaceDiagnosticPull: workspace/diagnostic answers a full report
// for each open document (with its version, from the buffer) and for each
// skill file of the workspace that is not open (from the disk).
func TestWorkspaceDiagnosticPull(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "open.skill.md", "# Skill: open\n# Timeout: 30\n\nrun:\n    emit(text=\"fine\")\n\ndefault: run\n")
	writeFile(t, dir, "disk.skill.md", "# Skill: disk\n# Timeout: 30\n\nrun:\n    emit(text=\"${OOPS}\")\n\ndefault: run\n")
	c := newTestClient(t, Options{})
	var res map[string]any
	c.mustCall("initialize", map[string]any{"processId": nil, "rootUri": string(uri.File(dir)),
		"capabilities": map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}}}, &res)
	c.notify("initialized", map[string]any{})
	open := string(uri.File(filepath.Join(dir, "open.skill.md")))
	// the buffer differs from the disk: the open document's report is the buffer's
	c.open(open, "# Skill: open\n# Timeout: 30\n\nrun:\n    emit(text=\"${NAEM}\")\n\ndefault: run\n")
	var rep struct {
		Items []struct {
			URI     string                `json:"uri"`
			Kind    string                `json:"kind"`
			Version *int                  `json:"version"`
			Items   []protocol.Diagnostic `json:"items"`
		} `json:"items"`
	}
	c.mustCall("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &rep)
	got := map[string]string{}
	for _, it := range rep.Items {
		if it.Kind != "full" {
			t.Errorf("%s: kind %q, want full", it.URI, it.Kind)
		}
		var msgs []string
		for _, d := range it.Items {
			msgs = append(msgs, fmt.Sprint(d.Code, ":", d.Message))
		}
		got[filepath.Base(it.URI)] = strings.Join(msgs, "; ")
		if filepath.Base(it.URI) == "open.skill.md" && (it.Version == nil || *it.Version != 1) {
			t.Errorf("open document reported without its version: %v", it.Version)
		}
	}
	if len(got) != 2 || !strings.Contains(got["open.skill.md"], "NAEM") || !strings.Contains(got["disk.skill.md"], "undeclared-var:undeclared variable OOPS") {
		t.Fatalf("workspace/diagnostic reports = %v", got)
	}
}
