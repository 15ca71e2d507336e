package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// TestSchemaTypesFromRealServer runs `skillc lsp` against a real MCP
// server process whose search tool declares an outputSchema: once
// tools/list is warm, completion after "${R." offers the result's fields
// with their types, hover on a field shows its type and description, an
// inlay hint shows the bound variable's type, a misspelt field is an
// unknown-result-field warning, and the echo tool (no outputSchema) gives
// no type and no finding (docs/types.md).
func TestSchemaTypesFromRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc and the MCP test server")
	}
	srv, err := mcpTestServer()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	conns, _ := json.Marshal(map[string]any{"srv": map[string]any{"class": "RemoteMcpConnector",
		"config": map[string]any{"command": srv, "framing": "newline"}}})
	writeFile(t, dir, "connectors.json", string(conns))
	text := "# Skill: typed\n# Status: Draft\n# Timeout: 30\n\nrun:\n" +
		"    $ srv.search query=\"x\" -> R\n" + // line 5
		"    emit(text=\"${R.totl} ${R.items.0.title}\")\n" + // line 6
		"    foreach IT in ${R.items}:\n" + // line 7
		"        emit(text=\"${IT.}\")\n" + // line 8
		"    $ srv.echo text=\"x\" -> E\n" + // line 9
		"    emit(text=\"${E.anything} ${R.}\")\n" + // line 10
		"\ndefault: run\n"
	path := filepath.Join(dir, "typed.skill.md")
	writeFile(t, dir, "typed.skill.md", text)
	c := startExt(t, dir, nil)
	c.initialize(dir)
	u := string(uri.File(path))
	c.open(u, text)
	c.waitVersion(u, 1)
	pos := func(line, char int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": line, "character": char}}
	}
	complete := func(line, char int) string { return string(c.call("textDocument/completion", pos(line, char)).Result) }
	col := func(line int, needle string) int {
		l := strings.Split(text, "\n")[line]
		i := strings.Index(l, needle)
		if i < 0 {
			t.Fatalf("%q not on line %d", needle, line)
		}
		return i + len(needle)
	}
	// ${R.| on line 10: the fields of the result, with types
	waitFor(t, "the result's fields in completion", func() bool {
		return strings.Contains(complete(10, col(10, "${R.")), `"label":"total"`)
	})
	fields := complete(10, col(10, "${R."))
	for _, w := range []string{`"label":"items"`, `"detail":"integer (required)"`, "matches in all", `array of object {id, labels, title}`} {
		if !strings.Contains(fields, w) {
			t.Errorf("completion after ${R. lacks %s: %s", w, fields)
		}
	}
	// ${IT.| inside the loop: the item's fields
	items := complete(8, col(8, "${IT."))
	if !strings.Contains(items, `"label":"title"`) || !strings.Contains(items, "one-line summary") {
		t.Errorf("completion after ${IT. = %s", items)
	}
	// no outputSchema: nothing offered after ${E.
	if got := complete(10, col(10, "${E.")); strings.Contains(got, `"label"`) {
		t.Errorf("completion after ${E. (no outputSchema) = %s", got)
	}
	// hover on .title of ${R.items.0.title}
	hover := string(c.call("textDocument/hover", pos(6, col(6, "${R.items.0.ti"))).Result)
	if !strings.Contains(hover, "R.items.0.title") || !strings.Contains(hover, "string") || !strings.Contains(hover, "one-line summary") {
		t.Errorf("hover on .title = %s", hover)
	}
	// the inlay hint after -> R
	hints := string(c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 12, "character": 0}}}).Result)
	if !strings.Contains(hints, ": object {items, total}") || !strings.Contains(hints, ": object {id, labels, title}") {
		t.Errorf("inlay hints = %s", hints)
	}
	// the misspelt field, and only it
	var diags string
	waitFor(t, "unknown-result-field", func() bool {
		diags = string(c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}}).Result)
		return strings.Contains(diags, "unknown-result-field")
	})
	if n := strings.Count(diags, `"code":"unknown-result-field"`); n != 1 || !strings.Contains(diags, "did you mean total?") {
		t.Errorf("%d unknown-result-field findings, want 1 (R.totl): %s", n, diags)
	}
}
