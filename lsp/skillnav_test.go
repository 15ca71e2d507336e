package lsp

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// skillNavWorkspace writes three skills: a and b call helper, helper calls
// leaf; a is open (with an unsaved extra call).
func skillNavWorkspace(t *testing.T) (*testClient, string, string) {
	dir := t.TempDir()
	call := func(name string) string { return "    execute_skill(name=\"" + name + "\") -> R\n" }
	writeFile(t, dir, "a.skill.md", "# Skill: a\n# Status: Draft\n\nrun:\n"+call("helper")+"\ndefault: run\n")
	writeFile(t, dir, "b.skill.md", "# Skill: b\n# Status: Draft\n\nrun:\n"+call("helper")+"\ndefault: run\n")
	writeFile(t, dir, "helper.skill.md", "# Skill: helper\n# Status: Draft\n\nrun:\n"+call("leaf")+"\ndefault: run\n")
	writeFile(t, dir, "leaf.skill.md", "# Skill: leaf\n# Status: Draft\n\nrun:\n    emit(text=\"x\")\n\ndefault: run\n")
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(filepath.Join(dir, "a.skill.md")))
	text := "# Skill: a\n# Status: Draft\n\nrun:\n" + call("helper") + call("helper") + "\ndefault: run\n"
	c.open(u, text)
	c.waitDiags(u, atVersion(1))
	return c, dir, text
}

// TestSkillReferencesAndRenameAcrossFiles checks references and rename of
// a skill name over open buffers and files on disk.
func TestSkillReferencesAndRenameAcrossFiles(t *testing.T) {
	c, dir, text := skillNavWorkspace(t)
	u := string(uri.File(filepath.Join(dir, "a.skill.md")))
	at := docPos(u, posOf(t, text, `"helper"`, 0, 2))
	var locs []protocol.Location
	c.mustCall("textDocument/references", map[string]any{"textDocument": at["textDocument"], "position": at["position"],
		"context": map[string]any{"includeDeclaration": true}}, &locs)
	var got []string
	for _, l := range locs {
		got = append(got, filepath.Base(uri.URI(l.URI).FsPath())+":"+string(rune('0'+l.Range.Start.Line)))
	}
	sort.Strings(got)
	// a.skill.md twice (the unsaved buffer), b.skill.md once, the header of helper.skill.md
	if want := "a.skill.md:4,a.skill.md:5,b.skill.md:4,helper.skill.md:0"; strings.Join(got, ",") != want {
		t.Errorf("references = %s, want %s", strings.Join(got, ","), want)
	}
	var edit protocol.WorkspaceEdit
	c.mustCall("textDocument/rename", map[string]any{"textDocument": at["textDocument"], "position": at["position"], "newName": "assist"}, &edit)
	counts := map[string]int{}
	for du, edits := range edit.Changes {
		for _, e := range edits {
			if e.NewText != "assist" {
				t.Errorf("edit text %q", e.NewText)
			}
			counts[filepath.Base(uri.URI(du).FsPath())]++
		}
	}
	if counts["a.skill.md"] != 2 || counts["b.skill.md"] != 1 || counts["helper.skill.md"] != 1 || len(counts) != 3 {
		t.Errorf("rename edits per file = %v", counts)
	}
}

// TestCallHierarchyOverExecuteSkill checks incoming and outgoing calls.
func TestCallHierarchyOverExecuteSkill(t *testing.T) {
	c, dir, text := skillNavWorkspace(t)
	u := string(uri.File(filepath.Join(dir, "a.skill.md")))
	var items []protocol.CallHierarchyItem
	c.mustCall("textDocument/prepareCallHierarchy", docPos(u, posOf(t, text, `"helper"`, 0, 2)), &items)
	if len(items) != 1 || items[0].Name != "helper" || filepath.Base(items[0].URI.FsPath()) != "helper.skill.md" {
		t.Fatalf("prepare = %+v", items)
	}
	var in []protocol.CallHierarchyIncomingCall
	c.mustCall("callHierarchy/incomingCalls", map[string]any{"item": items[0]}, &in)
	var callers []string
	for _, call := range in {
		callers = append(callers, call.From.Name+"×"+string(rune('0'+len(call.FromRanges))))
	}
	sort.Strings(callers)
	if strings.Join(callers, ",") != "a×2,b×1" {
		t.Errorf("incoming = %v", callers)
	}
	var out []protocol.CallHierarchyOutgoingCall
	c.mustCall("callHierarchy/outgoingCalls", map[string]any{"item": items[0]}, &out)
	if len(out) != 1 || out[0].To.Name != "leaf" || filepath.Base(out[0].To.URI.FsPath()) != "leaf.skill.md" {
		t.Errorf("outgoing = %+v", out)
	}
}
