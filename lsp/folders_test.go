package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestWorkspaceFoldersAtRunTime: a folder added with
// workspace/didChangeWorkspaceFolders is indexed (its skill resolves, is
// found by workspace/symbol and is the definition of a call to it) and a
// removed folder leaves the index; initialize advertises the support.
func TestWorkspaceFoldersAtRunTime(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	caller := "# Skill: caller\n# Status: Draft\n\nrun:\n    execute_skill(name=\"other\", timeout=10) -> R\n    emit(text=\"${R}\")\n\ndefault: run\n"
	writeFile(t, a, "caller.skill.md", caller)
	writeFile(t, b, "other.skill.md", "# Skill: other\n# Status: Draft\n\nrun:\n    emit(text=\"other\")\n\ndefault: run\n")
	c := newTestClient(t, Options{})
	var res map[string]any
	c.mustCall("initialize", map[string]any{"processId": nil, "rootUri": string(uri.File(a)),
		"workspaceFolders": []any{map[string]any{"uri": string(uri.File(a)), "name": "a"}},
		"capabilities":     map[string]any{"workspace": map[string]any{"workspaceFolders": true}}}, &res)
	wf := fmt.Sprint(res["capabilities"].(map[string]any)["workspace"])
	t.Logf("capabilities.workspace = %s", wf)
	if wf != "map[workspaceFolders:map[changeNotifications:true supported:true]]" {
		t.Errorf("workspace folders not advertised: %s", wf)
	}
	c.notify("initialized", map[string]any{})
	u := string(uri.File(filepath.Join(a, "caller.skill.md")))
	c.open(u, caller)
	if p := c.waitDiags(u, atVersion(1)); len(unknownSkillRef(p)) != 1 {
		t.Fatalf("before the folder is added: %v", p.Diagnostics)
	}
	symbols := func() []string {
		var syms []protocol.SymbolInformation
		c.mustCall("workspace/symbol", map[string]any{"query": "other"}, &syms)
		var out []string
		for _, s := range syms {
			out = append(out, s.Name+"@"+filepath.Base(string(s.Location.URI)))
		}
		return out
	}
	if got := symbols(); len(got) != 0 {
		t.Errorf("workspace/symbol before the folder is added: %v", got)
	}
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": string(uri.File(b)), "name": "b"}}, "removed": []any{}}})
	p := c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool { return len(unknownSkillRef(p)) == 0 })
	t.Logf("after adding the folder: %d diagnostics, none unknown-skill-reference", len(p.Diagnostics))
	got := symbols()
	t.Logf("workspace/symbol other: %v", got)
	if fmt.Sprint(got) != "[other@other.skill.md]" {
		t.Errorf("workspace/symbol after adding the folder: %v", got)
	}
	var locs []protocol.Location
	c.mustCall("textDocument/definition", docPos(u, posOf(t, caller, `"other"`, 0, 2)), &locs)
	if len(locs) != 1 || locs[0].URI.FsPath() != filepath.Join(b, "other.skill.md") {
		t.Errorf("definition of other: %+v", locs)
	}
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{}, "removed": []any{map[string]any{"uri": string(uri.File(b)), "name": "b"}}}})
	c.change(u, 2, caller) // a fresh analysis after the removal
	if p := c.waitDiags(u, atVersion(2)); len(unknownSkillRef(p)) != 1 {
		t.Errorf("after removing the folder: %v", p.Diagnostics)
	}
	if got := symbols(); len(got) != 0 {
		t.Errorf("workspace/symbol after removing the folder: %v", got)
	}
}

// TestClosedFilesDiagnostics: a client that only takes pushed diagnostics
// gets those of the workspace's skill files with an error that it has not
// opened; a file without errors gets none; fixing the file on disk clears
// them; opening the file, its buffer's diagnostics win.
func TestClosedFilesDiagnostics(t *testing.T) {
	dir := t.TempDir()
	bad := "# Skill: bad\n# Status: Draft\n\nrun:\n    emit(text=\"x\"\n\ndefault: run\n"
	good := "# Skill: good\n# Status: Draft\n\nrun:\n    emit(text=\"x\")\n\ndefault: run\n"
	writeFile(t, dir, "bad.skill.md", bad)
	writeFile(t, dir, "good.skill.md", good)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	badURI := string(uri.File(filepath.Join(dir, "bad.skill.md")))
	p := c.waitDiags(badURI, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	t.Logf("closed bad.skill.md: %d diagnostic(s), first %q at line %d", len(p.Diagnostics), p.Diagnostics[0].Message, p.Diagnostics[0].Range.Start.Line+1)
	if p.Diagnostics[0].Severity != protocol.DiagnosticSeverityError || p.Diagnostics[0].Range.Start.Line != 4 {
		t.Errorf("closed file diagnostics = %+v", p.Diagnostics)
	}
	// fixed on disk: cleared
	writeFile(t, dir, "bad.skill.md", strings.Replace(bad, `"x"`, `"x")`, 1))
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": badURI, "type": 2}}})
	c.waitDiags(badURI, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	t.Logf("bad.skill.md fixed on disk: diagnostics cleared")
	// broken again, then opened with a fixed buffer: the buffer wins
	writeFile(t, dir, "bad.skill.md", bad)
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": badURI, "type": 2}}})
	c.waitDiags(badURI, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	c.open(badURI, strings.Replace(bad, `"x"`, `"x")`, 1))
	c.waitDiags(badURI, atVersion(1))
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.diags {
		if filepath.Base(string(p.URI)) == "good.skill.md" {
			t.Errorf("diagnostics pushed for a closed file without errors: %+v", p)
		}
	}
	if last := c.diags[len(c.diags)-1]; string(last.URI) == badURI && len(last.Diagnostics) > 0 {
		t.Errorf("the disk's diagnostics replaced the open buffer's: %+v", last)
	}
}
