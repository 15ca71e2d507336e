package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func TestDiagnosticsOpenChangeClose(t *testing.T) {
	dir := workspaceCopy(t)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(dir + "/broken.skill.md"))
	text := read(t, dir, "broken.skill.md")
	c.open(u, text)
	got := c.waitDiags(u, atVersion(1))
	want := map[string]protocol.Position{
		"single-equals":        posOf(t, text, "= \"x\"", 0, 0),
		"malformed-op-grammar": posOf(t, text, `emit(text="bye"`, 0, 0),
	}
	seen := map[string]bool{}
	for _, d := range got.Diagnostics {
		code, _ := d.Code.(protocol.String)
		seen[string(code)] = true
		if w, ok := want[string(code)]; ok && d.Range.Start.Line != w.Line {
			t.Errorf("%s at line %d, want %d", code, d.Range.Start.Line, w.Line)
		}
		if d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("%s severity %d", code, d.Severity)
		}
		if !strings.HasSuffix(string(d.CodeDescription.Href), "#"+string(code)) {
			t.Errorf("%s link %q", code, d.CodeDescription.Href)
		}
	}
	if sing := findDiag(got, "single-equals"); sing == nil || sing.Range.Start != want["single-equals"] {
		t.Errorf("single-equals range = %+v, want start %+v", sing, want["single-equals"])
	}
	for code := range want {
		if !seen[code] {
			t.Errorf("missing %s in %+v", code, got.Diagnostics)
		}
	}
	fixed := strings.Replace(strings.Replace(text, `= "x"`, `== "x"`, 1), `emit(text="bye"`, `emit(text="bye")`, 1)
	c.change(u, 2, fixed)
	clean := c.waitDiags(u, atVersion(2))
	if len(clean.Diagnostics) != 0 {
		t.Errorf("diagnostics after fix: %+v", clean.Diagnostics)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
	c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool {
		_, ok := p.Version.Get()
		return !ok && len(p.Diagnostics) == 0
	})
}

func findDiag(p protocol.PublishDiagnosticsParams, code string) *protocol.Diagnostic {
	for i, d := range p.Diagnostics {
		if c, _ := d.Code.(protocol.String); string(c) == code {
			return &p.Diagnostics[i]
		}
	}
	return nil
}
