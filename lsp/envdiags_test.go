package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The language server loads the same environment as `skillc check`: the
// lint options report unused suppressions, and the problems of the
// configuration files are published against those files.
func TestConfigProblemsArePublishedLikeCheck(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "skillscript.config.json", "{\n  \"securedMode\": \"nope\"\n}\n")
	writeFile(t, dir, "connectors.json", "{\n  \"gh\": {\"class\": \"HttpConector\", \"config\": {\"url\": \"https://x\"}}\n}\n")
	skill := "# Skill: s\n\nt:\n    emit(text=\"fine\") # skillc:ignore undeclared-var\n\ndefault: t\n"
	writeFile(t, dir, "s.skill.md", skill)
	c := newTestClient(t, Options{Debounce: -1, Home: t.TempDir()})
	c.initialize(dir)
	u := string(uri.File(filepath.Join(dir, "s.skill.md")))
	c.open(u, skill)
	if got := c.waitDiags(u, atVersion(1)); findDiag(got, "unused-suppression") == nil {
		t.Errorf("no unused-suppression in %+v", got.Diagnostics)
	}
	conns := c.waitDiags(string(uri.File(filepath.Join(dir, "connectors.json"))), func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	d := findDiag(conns, "unknown-connector-class")
	if d == nil || d.Range.Start.Line != 1 || d.Range.Start.Character != 18 || d.Range.End.Character != 32 {
		t.Errorf("connectors.json diagnostics = %+v", conns.Diagnostics)
	}
	cfg := c.waitDiags(string(uri.File(filepath.Join(dir, "skillscript.config.json"))), func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if len(cfg.Diagnostics) != 1 || !strings.Contains(fmt.Sprint(cfg.Diagnostics[0].Message), "securedMode") || cfg.Diagnostics[0].Range.Start.Line != 1 {
		t.Errorf("config diagnostics = %+v", cfg.Diagnostics)
	}
}

// A related location in another skill is sent with that file's URI and
// its range there.
func TestRelatedInformationPointsAtTheOtherFile(t *testing.T) {
	dir := t.TempDir()
	body := "\nt:\n    emit(text=\"x\")\n\ndefault: t\n"
	writeFile(t, dir, "a.skill.md", "# Skill: report"+body)
	writeFile(t, dir, "b.skill.md", "# Timeout: 30\n# Skill: report"+body)
	c := newTestClient(t, Options{Debounce: -1, Home: t.TempDir()})
	c.initialize(dir)
	u := string(uri.File(filepath.Join(dir, "a.skill.md")))
	c.open(u, "# Skill: report"+body)
	d := findDiag(c.waitDiags(u, atVersion(1)), "duplicate-skill-name")
	if d == nil || len(d.RelatedInformation) != 1 {
		t.Fatalf("duplicate-skill-name = %+v", d)
	}
	loc := d.RelatedInformation[0].Location
	want := protocol.Range{Start: protocol.Position{Line: 1, Character: 9}, End: protocol.Position{Line: 1, Character: 15}}
	if string(loc.URI) != string(uri.File(filepath.Join(dir, "b.skill.md"))) || loc.Range != want {
		t.Errorf("related location = %+v, want b.skill.md at %+v", loc, want)
	}
}
