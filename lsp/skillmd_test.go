package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
)

const skillMDDoc = `---
name: Report
description: Writes the weekly report.
owner: finance
---
See [missing](references/nope.md) and [ok](references/ok.md).
`

// TestSkillMD: a SKILL.md gets SKILL.md diagnostics with exact ranges,
// hover on frontmatter keys, key completion and no formatting edits.
func TestSkillMD(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "report")
	if err := os.MkdirAll(filepath.Join(pkg, "references"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "report/references/ok.md", "ok")
	writeFile(t, dir, "report/SKILL.md", skillMDDoc)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(filepath.Join(pkg, "SKILL.md")))
	c.open(u, skillMDDoc)
	got := c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	var have []string
	for _, d := range got.Diagnostics {
		code, _ := d.Code.(protocol.String)
		have = append(have, fmt.Sprintf("%s@%d:%d", code, d.Range.Start.Line, d.Range.Start.Character))
	}
	want := "skillmd-name-format@1:6 skillmd-name-dir-mismatch@1:6 skillmd-unknown-key@3:0 skillmd-broken-link@5:14"
	if strings.Join(have, " ") != want {
		t.Errorf("diagnostics %v, want %s", have, want)
	}
	if h := hoverText(t, c, u, posOf(t, skillMDDoc, "description:", 0, 3)); !strings.Contains(h, "what the skill does and when to use it") {
		t.Errorf("hover: %s", h)
	}
	if h := hoverText(t, c, u, posOf(t, skillMDDoc, "owner", 0, 1)); !strings.Contains(h, "skillmd-unknown-key") {
		t.Errorf("hover on a diagnostic: %s", h)
	}
	c.change(u, 2, "---\nname: report\nli\n---\n")
	var list protocol.CompletionList
	c.mustCall("textDocument/completion", docPos(u, protocol.Position{Line: 2, Character: 2}), &list)
	if l := labels(list); !l["license"] || l["name"] || l["metadata"] {
		t.Errorf("completion %v", l)
	}
	var edits []protocol.TextEdit
	c.mustCall("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": u}, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &edits)
	if len(edits) != 0 {
		t.Errorf("a SKILL.md must not be formatted as skillscript: %v", edits)
	}
}

// FuzzSkillMDFeatures runs the SKILL.md analysis and features, and the
// skillscript features a client may still ask for, over arbitrary SKILL.md
// sources and cursor offsets: none may panic and every diagnostic range
// lies inside the source.
func FuzzSkillMDFeatures(f *testing.F) {
	f.Add([]byte(skillMDDoc), uint16(20))
	f.Add([]byte("\ufeff---\r\nname: a: b\r\n---\r\n[x](../y)"), uint16(9))
	f.Add([]byte("---\n---\n"), uint16(4))
	f.Fuzz(func(t *testing.T, src []byte, at uint16) {
		env := emptyEnv()
		a := analyze(DefaultAnalyzer, "/nonexistent/pkg/SKILL.md", src, env, nil, nil)
		for _, d := range a.Diags {
			if d.Range != (ast.Range{}) && (!d.Range.IsValid() || d.Range.To.Offset() > len(src)) {
				t.Fatalf("%s: range %v outside %d bytes", d.Rule, d.Range, len(src))
			}
		}
		lines := ast.NewLineTable(src)
		snap := &snapshot{uri: "file:///nonexistent/pkg/SKILL.md", src: src, lines: lines, env: env, Analysis: a}
		off := int(at) % (len(src) + 1)
		for off > 0 && off < len(src) && !utf8.RuneStart(src[off]) {
			off--
		}
		_, _, _ = snap.skillMDKeyAt(off)
		_ = snap.skillMDCompletion(off)
		sym := snap.symbolAt(off)
		_ = snap.hoverText(sym)
		_ = snap.occurrences(sym)
		_ = encodeTokens(lines, snap.tokens())
	})
}
