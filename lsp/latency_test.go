package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
)

// codes returns the rule ids of a publication, in order.
func codes(p protocol.PublishDiagnosticsParams) []string {
	var out []string
	for _, d := range p.Diagnostics {
		if s, ok := d.Code.(protocol.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

// incremental sends a one-range edit at version v.
func (c *testClient) incremental(u string, v int, line, char uint32, text string) {
	pos := map[string]any{"line": line, "character": char}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": v},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "text": text}}})
}

// TestQuickPublicationCarriesRuleFindings pins the two-step publication
// of a large document: right after an edit, the parser's findings of the
// new text together with the rule findings of the last full analysis,
// moved past the edit; then the full analysis.
func TestQuickPublicationCarriesRuleFindings(t *testing.T) {
	c := newTestClient(t, Options{Debounce: 300 * time.Millisecond})
	c.initialize(t.TempDir())
	text := realisticSkill("main", 1000, 0) + "\nlast:\n    emit(text=\"${B0|upper}\")\n"
	if len(text) < quickMinBytes {
		t.Fatalf("test skill of %d bytes is below the quick threshold", len(text))
	}
	u := "untitled:main"
	c.open(u, text)
	c.waitPublications(u, 1, 2)
	first := c.waitDiags(u, atVersion(1))
	if got := strings.Join(codes(first), ","); !strings.Contains(got, "unknown-filter") {
		t.Fatalf("full analysis of version 1: %s", got)
	}
	lastLine := uint32(strings.Count(text, "\n") - 1)
	// line 8 is inside target t0: an unclosed call is a parse error
	c.incremental(u, 2, 8, 0, "    emit(text=\"oops\"\n")
	quick := c.waitDiags(u, atVersion(2))
	got := strings.Join(codes(quick), ",")
	if !strings.Contains(got, "malformed-op-grammar") || !strings.Contains(got, "unknown-filter") {
		t.Fatalf("quick publication of version 2 = %s, want the parse error and the carried finding", got)
	}
	for _, d := range quick.Diagnostics {
		if d.Code == protocol.String("unknown-filter") && d.Range.Start.Line != lastLine+1 {
			t.Errorf("carried finding on line %d, want %d (moved by the inserted line)", d.Range.Start.Line, lastLine+1)
		}
	}
	c.waitPublications(u, 2, 2)
	full := c.waitDiags(u, atVersion(2))
	if strings.Join(codes(full), ",") != got {
		t.Errorf("full analysis %v differs from the quick publication %s", codes(full), got)
	}
}

// TestShiftDiagsDropsTouched pins how carried findings follow an edit.
func TestShiftDiagsDropsTouched(t *testing.T) {
	// findings on "aaaa bbbb cccc"
	var ds ast.Diagnostics
	for _, r := range [][2]int{{0, 4}, {5, 9}, {10, 14}} {
		ds = append(ds, ast.Errorf("r", ast.RangeOf(r[0], r[1]), "finding"))
	}
	// replace "bbbb" (5..9) by "xy": the middle finding goes, the last moves by -2
	out := shiftDiags(ds, []span{{5, 9, 2}})
	if len(out) != 2 || out[0].Range != ast.RangeOf(0, 4) || out[1].Range != ast.RangeOf(8, 12) {
		t.Fatalf("shifted = %v", out)
	}
	if ds[2].Range != ast.RangeOf(10, 14) {
		t.Error("shiftDiags modified its input")
	}
}

// TestOpenRechecksOnlyDependents pins that opening a skill whose
// declaration matches the disk re-checks nothing, and that changing what
// it declares re-checks the open documents that mention it, and only them.
func TestOpenRechecksOnlyDependents(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"caller.skill.md": "# Skill: caller\n# Status: Draft\n\nrun:\n    execute_skill(name=\"callee\") -> R\n    emit(text=\"${R.ANSWER}\")\n\ndefault: run\n",
		"callee.skill.md": "# Skill: callee\n# Status: Draft\n# Returns: ANSWER\n\nrun:\n    $set ANSWER = \"42\"\n\ndefault: run\n",
		"other.skill.md":  "# Skill: other\n# Status: Draft\n\nrun:\n    emit(text=\"hi\")\n\ndefault: run\n",
	}
	for name, text := range files {
		writeFile(t, dir, name, text)
	}
	c := newTestClient(t, Options{})
	c.initialize(dir)
	uriOf := func(name string) string { return string(uri.File(filepath.Join(dir, name))) }
	for _, name := range []string{"caller.skill.md", "other.skill.md"} {
		c.open(uriOf(name), files[name])
		c.waitDiags(uriOf(name), atVersion(1))
	}
	count := func(name string) int {
		c.mu.Lock()
		defer c.mu.Unlock()
		n := 0
		for _, p := range c.diags {
			if string(p.URI) == uriOf(name) {
				n++
			}
		}
		return n
	}
	callee := uriOf("callee.skill.md")
	c.open(callee, files["callee.skill.md"])
	c.waitDiags(callee, atVersion(1))
	time.Sleep(200 * time.Millisecond) // room for (wrong) re-checks to arrive
	if count("caller.skill.md") != 1 || count("other.skill.md") != 1 {
		t.Fatalf("opening an unchanged skill re-checked others: caller %d, other %d", count("caller.skill.md"), count("other.skill.md"))
	}
	c.change(callee, 2, strings.Replace(files["callee.skill.md"], "# Returns: ANSWER", "# Returns: RESULT", 1))
	c.waitDiags(callee, atVersion(2))
	deadline := time.Now().Add(10 * time.Second)
	for count("caller.skill.md") < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the caller was not re-checked after the callee's returns changed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if n := count("other.skill.md"); n != 1 {
		t.Errorf("an unrelated document was re-checked %d times", n-1)
	}
}

// TestFormattingBrokenDocument pins that formatting a document with
// syntax errors returns no edits rather than an error.
func TestFormattingBrokenDocument(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize(t.TempDir())
	u := "untitled:broken"
	c.open(u, "# Skill: b\n\nrun:\n    emit(text=\"x\"\n\ndefault: run\n")
	var edits []protocol.TextEdit
	if err := c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": u},
		"options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &edits); err != nil {
		t.Fatalf("formatting a broken document: %v", err)
	}
	if edits == nil || len(edits) != 0 {
		t.Errorf("edits = %#v, want an empty list", edits)
	}
}

// TestWatcherRegistration runs the server binary and checks that it asks
// a client with dynamic registration to watch skills, connectors.json,
// the configuration and .env.
func TestWatcherRegistration(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc")
	}
	dir := t.TempDir()
	c := startExt(t, dir, nil)
	c.initialize(dir)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c.mu.Lock()
		var reg *extMsg
		for i := range c.messages {
			if c.messages[i].Method == "client/registerCapability" {
				reg = &c.messages[i]
			}
		}
		c.mu.Unlock()
		if reg != nil {
			for _, g := range []string{"**/*.skill.md", "**/connectors.json", "**/skillscript.config.json", "**/.env"} {
				if !strings.Contains(string(reg.Params), g) {
					t.Errorf("registration %s lacks %s", reg.Params, g)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no client/registerCapability")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDocumentLinksAndWorkspaceSymbols checks that execute_skill names link
// to the files defining them and that workspace/symbol finds skills.
func TestDocumentLinksAndWorkspaceSymbols(t *testing.T) {
	dir := workspaceCopy(t)
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(filepath.Join(dir, "brief.skill.md")))
	c.open(u, read(t, dir, "brief.skill.md"))
	c.waitDiags(u, atVersion(1))
	var links []protocol.DocumentLink
	c.mustCall("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": u}}, &links)
	want := string(uri.File(filepath.Join(dir, "helper.skill.md")))
	if len(links) != 1 || links[0].Target == nil || string(*links[0].Target) != want {
		t.Fatalf("links = %+v, want one to %s", links, want)
	}
	if p := posOf(t, read(t, dir, "brief.skill.md"), `name="helper"`, 0, 6); links[0].Range.Start != p {
		t.Errorf("link starts at %v, want %v", links[0].Range.Start, p)
	}
	var syms []protocol.SymbolInformation
	c.mustCall("workspace/symbol", map[string]any{"query": "HELP"}, &syms)
	if len(syms) != 1 || syms[0].Name != "helper" || string(syms[0].Location.URI) != want || syms[0].Location.Range.Start.Line != 0 {
		t.Errorf("workspace symbols = %+v", syms)
	}
}

// TestDiskChangeRechecksDependents: a skill that is not open changes on
// disk (workspace/didChangeWatchedFiles); the open document that calls it
// gets diagnostics against the new declaration.
func TestDiskChangeRechecksDependents(t *testing.T) {
	dir := t.TempDir()
	caller := "# Skill: caller\n# Status: Draft\n\nrun:\n    execute_skill(name=\"callee\") -> R\n    emit(text=\"${R.ANSWER}\")\n\ndefault: run\n"
	writeFile(t, dir, "caller.skill.md", caller)
	writeFile(t, dir, "callee.skill.md", "# Skill: callee\n# Status: Draft\n# Returns: ANSWER\n\nrun:\n    $set ANSWER = \"42\"\n\ndefault: run\n")
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := string(uri.File(filepath.Join(dir, "caller.skill.md")))
	c.open(u, caller)
	if p := c.waitDiags(u, atVersion(1)); strings.Contains(fmt.Sprint(p.Diagnostics), "ANSWER") {
		t.Fatalf("diagnostics about ANSWER while the callee returns it: %v", p.Diagnostics)
	}
	writeFile(t, dir, "callee.skill.md", "# Skill: callee\n# Status: Draft\n# Returns: RESULT\n\nrun:\n    $set RESULT = \"42\"\n\ndefault: run\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": string(uri.File(filepath.Join(dir, "callee.skill.md"))), "type": 2}}})
	c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool {
		return strings.Contains(fmt.Sprint(p.Diagnostics), "unexported-final-var-access") &&
			strings.Contains(fmt.Sprint(p.Diagnostics), "skill callee does not export ANSWER")
	})
}

// TestShiftDiagsMovesFixes pins that a carried finding's quick fixes move
// with it, and that a fix whose edit a later edit touched is dropped
// rather than applied to the wrong bytes.
func TestShiftDiagsMovesFixes(t *testing.T) {
	// "aaaa bbbb cccc dddd": the finding on cccc has one fix editing cccc
	// and one editing bbbb
	d := ast.Errorf("r", ast.RangeOf(10, 14), "finding").
		WithFix("rename", ast.RangeOf(10, 14), "CCCC").
		WithFix("touch bbbb", ast.RangeOf(5, 9), "BBBB")
	// insert "xyz" at offset 2 (inside aaaa): everything after moves by 3
	out := shiftDiags(ast.Diagnostics{d}, []span{{2, 2, 3}})
	if len(out) != 1 || len(out[0].Fixes) != 2 {
		t.Fatalf("shifted = %+v", out)
	}
	if got := out[0].Fixes[0].Edits[0].Range; got != ast.RangeOf(13, 17) {
		t.Errorf("first fix edit at %v, want %v", got, ast.RangeOf(13, 17))
	}
	if got := out[0].Fixes[1].Edits[0].Range; got != ast.RangeOf(8, 12) {
		t.Errorf("second fix edit at %v, want %v", got, ast.RangeOf(8, 12))
	}
	if d.Fixes[0].Edits[0].Range != ast.RangeOf(10, 14) {
		t.Error("shiftDiags modified its input's fixes")
	}
	// replace "bbbb": the finding stays, the fix that edits bbbb goes
	out = shiftDiags(ast.Diagnostics{d}, []span{{5, 9, 2}})
	if len(out) != 1 || len(out[0].Fixes) != 1 || out[0].Fixes[0].Title != "rename" {
		t.Fatalf("after an edit of bbbb: %+v", out)
	}
	if got := out[0].Fixes[0].Edits[0].Range; got != ast.RangeOf(8, 12) {
		t.Errorf("kept fix edit at %v, want %v", got, ast.RangeOf(8, 12))
	}
}
