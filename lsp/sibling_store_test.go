package lsp

import (
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// unknownSkillRef returns the unknown-skill-reference diagnostics of p.
func unknownSkillRef(p protocol.PublishDiagnosticsParams) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range p.Diagnostics {
		if c, _ := d.Code.(protocol.String); c == "unknown-skill-reference" {
			out = append(out, d)
		}
	}
	return out
}

// TestMissingSiblingLikeCheck pins decision C13 for the language server:
// with a workspace open, its skills are the store, so a sibling that does
// not exist is unknown-skill-reference (warning) at the name, as skillc
// check reports it; creating the sibling on disk clears it.
func TestMissingSiblingLikeCheck(t *testing.T) {
	dir := t.TempDir()
	main := "# Skill: main\n# Status: Draft\n\nrun:\n    execute_skill(name=\"sibling\", timeout=10) -> R\n    emit(text=\"${R}\")\n\ndefault: run\n"
	writeFile(t, dir, "main.skill.md", main)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(filepath.Join(dir, "main.skill.md")))
	c.open(u, main)
	p := c.waitDiags(u, atVersion(1))
	got := unknownSkillRef(p)
	if len(got) != 1 {
		t.Fatalf("want one unknown-skill-reference, got %v", p.Diagnostics)
	}
	d := got[0]
	// line 5, column 24 in skillc check's 1-based terms
	if d.Range.Start.Line != 4 || d.Range.Start.Character != 23 || d.Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("diagnostic at %d:%d severity %v, want 4:23 warning", d.Range.Start.Line, d.Range.Start.Character, d.Severity)
	}
	writeFile(t, dir, "sibling.skill.md", "# Skill: sibling\n# Status: Draft\n\ngo:\n    emit(text=\"hi\")\n\ndefault: go\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": string(uri.File(filepath.Join(dir, "sibling.skill.md"))), "type": 1}}})
	c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool { return len(unknownSkillRef(p)) == 0 })
}
