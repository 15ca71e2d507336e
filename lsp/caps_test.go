package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// rangeText returns the text of an LSP range of text.
func rangeText(text string, r protocol.Range) string {
	src := []byte(text)
	return text[byteOffsetIn(src, r.Start):byteOffsetIn(src, r.End)]
}

// TestSelectionRange expands the selection from a word inside a
// substitution of a real skill: word → ${…} → argument → call →
// statement → block → target → file, each step strictly larger.
func TestSelectionRange(t *testing.T) {
	c, _, u, text := openBrief(t)
	var res []protocol.SelectionRange
	c.mustCall("textDocument/selectionRange", map[string]any{"textDocument": map[string]any{"uri": u},
		"positions": []protocol.Position{posOf(t, text, "ISSUE.summary", 0, 2)}}, &res)
	if len(res) != 1 {
		t.Fatalf("%d selection ranges for one position", len(res))
	}
	var chain []string
	prevLen := 0
	for sr := &res[0]; sr != nil; sr = sr.Parent {
		s := rangeText(text, sr.Range)
		if len(chain) > 0 && (len(s) <= prevLen || !strings.Contains(s, chain[len(chain)-1])) {
			t.Errorf("%q does not strictly contain %q", s, chain[len(chain)-1])
		}
		chain, prevLen = append(chain, s), len(s)
	}
	t.Logf("selection chain: %q", chain)
	want := []string{
		"ISSUE",
		"${ISSUE.summary|trim}",
		`text="${ISSUE.id}: ${ISSUE.summary|trim}"`,
		`emit(text="${ISSUE.id}: ${ISSUE.summary|trim}")`,
		`        emit(text="${ISSUE.id}: ${ISSUE.summary|trim}")`,
		"    foreach ISSUE in ${ISSUES.items}:\n        emit(",
		"summarize: fetch\n",
		text,
	}
	i := 0
	for _, s := range chain {
		if i < len(want) && (s == want[i] || strings.HasPrefix(s, want[i]) && strings.Contains(want[i], "\n")) {
			i++
		}
	}
	if i != len(want) {
		t.Fatalf("selection chain misses %q (steps found in order: %d of %d)", want[i], i, len(want))
	}
}

// TestDocumentHighlight highlights a variable of a real skill at its
// binding (Write) and every reference (Read), and a target at its
// definition (Write) and its needs entry and default: (Read).
func TestDocumentHighlight(t *testing.T) {
	c, _, u, text := openBrief(t)
	show := func(hs []protocol.DocumentHighlight) string {
		var out []string
		for _, h := range hs {
			kind := map[protocol.DocumentHighlightKind]string{1: "Text", 2: "Read", 3: "Write"}[h.Kind]
			out = append(out, fmt.Sprintf("%d:%d %s %s", h.Range.Start.Line+1, h.Range.Start.Character+1, rangeText(text, h.Range), kind))
		}
		return strings.Join(out, ", ")
	}
	cases := []struct {
		at   protocol.Position
		want string
	}{
		// from a reference: the binding "-> ISSUES" is the write
		{posOf(t, text, "ISSUES.items", 0, 1), "10:67 ISSUES Write, 14:24 ISSUES Read, 16:31 ISSUES Read"},
		// from a # Vars: declaration
		{posOf(t, text, "PROJECT=", 0, 1), "4:9 PROJECT Write, 10:39 PROJECT Read, 11:50 PROJECT Read, 17:52 PROJECT Read"},
		// a target from its use in default:
		{posOf(t, text, "default: summarize", 0, 10), "13:1 summarize Write, 19:10 summarize Read"},
		{posOf(t, text, "summarize: fetch", 0, 12), "9:1 fetch Write, 13:12 fetch Read"},
		// a secret
		{posOf(t, text, "secret.API_KEY}}", 0, 8), "5:20 API_KEY Write, 11:62 {{secret.API_KEY}} Read"},
	}
	for _, tc := range cases {
		var hs []protocol.DocumentHighlight
		c.mustCall("textDocument/documentHighlight", docPos(u, tc.at), &hs)
		got := show(hs)
		t.Logf("documentHighlight at %d:%d: %s", tc.at.Line+1, tc.at.Character+1, got)
		if got != tc.want {
			t.Errorf("at %d:%d got\n %s\nwant\n %s", tc.at.Line+1, tc.at.Character+1, got, tc.want)
		}
	}
	// nothing to highlight on an op name
	var hs []protocol.DocumentHighlight
	c.mustCall("textDocument/documentHighlight", docPos(u, posOf(t, text, "emit(", 0, 1)), &hs)
	if len(hs) != 0 {
		t.Errorf("highlights on an op name: %s", show(hs))
	}
}

// TestDeclaration answers declaration like definition: a variable's
// binding, a target's name line.
func TestDeclaration(t *testing.T) {
	c, _, u, text := openBrief(t)
	for _, tc := range []struct {
		at   protocol.Position
		want string
	}{
		{posOf(t, text, "ISSUES.items", 0, 1), "ISSUES@10"},
		{posOf(t, text, "default: summarize", 0, 10), "summarize@13"},
		{posOf(t, text, "${LIMIT}", 0, 3), "LIMIT@4"},
	} {
		var decl, def []protocol.Location
		c.mustCall("textDocument/declaration", docPos(u, tc.at), &decl)
		c.mustCall("textDocument/definition", docPos(u, tc.at), &def)
		if len(decl) != 1 {
			t.Fatalf("declaration: %+v", decl)
		}
		got := fmt.Sprintf("%s@%d", rangeText(text, decl[0].Range), decl[0].Range.Start.Line+1)
		t.Logf("declaration at %d:%d: %s", tc.at.Line+1, tc.at.Character+1, got)
		if got != tc.want || fmt.Sprint(decl) != fmt.Sprint(def) {
			t.Errorf("declaration %s (definition %v), want %s", got, def, tc.want)
		}
	}
}

// TestSignatureHelpUnclosed: while a call is still open (no ")" yet, the
// line does not parse) signature help answers from the tokens before the
// cursor, with the parameter being written active.
func TestSignatureHelpUnclosed(t *testing.T) {
	c, _, u, text := openBrief(t)
	v := 1
	for _, tc := range []struct {
		line, label string
		active      int // -1: none
	}{
		{`emit(text="a", `, "emit(", -1},
		{`emit(text="a(b", `, "emit(", -1},
		{`notify(agent="ops", `, "notify(", 1},
		{`notify(agent="ops", event_type=`, "notify(", 2},
		{`notify(message="x", `, "notify(", 0},
		{"notify(agent=\"ops\",\n        message=", "notify(", 1},
		{`emit(text="${X|default(`, "emit(", 0},
	} {
		v++
		doc := strings.Replace(text, "    $ llm prompt=", "    "+tc.line+"\n    $ llm prompt=", 1)
		c.change(u, v, doc)
		at := posOf(t, doc, tc.line, 0, 0)
		lines := strings.Split(tc.line, "\n")
		at.Line += uint32(len(lines) - 1)
		if len(lines) > 1 {
			at.Character = uint32(len(lines[len(lines)-1]))
		} else {
			at.Character += uint32(len(tc.line))
		}
		var h protocol.SignatureHelp
		c.mustCall("textDocument/signatureHelp", docPos(u, at), &h)
		if len(h.Signatures) != 1 {
			t.Fatalf("%q: no signature: %+v", tc.line, h)
		}
		got, ok := h.ActiveParameter.Get()
		t.Logf("%q -> %s active=%v", tc.line, h.Signatures[0].Label, map[bool]any{true: got, false: "none"}[ok])
		if !strings.HasPrefix(h.Signatures[0].Label, tc.label) || ok != (tc.active >= 0) || (ok && int(got) != tc.active) {
			t.Errorf("%q: signature %q active %v %v, want %s… active %d", tc.line, h.Signatures[0].Label, got, ok, tc.label, tc.active)
		}
	}
	// outside any call: no help
	var h *protocol.SignatureHelp
	c.mustCall("textDocument/signatureHelp", docPos(u, posOf(t, text, "summarize: fetch", 0, 3)), &h)
	if h != nil && len(h.Signatures) > 0 {
		t.Errorf("signature help outside a call: %+v", h)
	}
}

// TestLinkedEditingTargetName: on a target's name line or a use of it,
// the definition, the needs entry and default: are linked.
func TestLinkedEditingTargetName(t *testing.T) {
	c, _, u, text := openBrief(t)
	for _, at := range []protocol.Position{posOf(t, text, "summarize: fetch", 0, 2), posOf(t, text, "default: summarize", 0, 12)} {
		var le protocol.LinkedEditingRanges
		c.mustCall("textDocument/linkedEditingRange", docPos(u, at), &le)
		var got []string
		for _, r := range le.Ranges {
			got = append(got, fmt.Sprintf("%d:%d %s", r.Start.Line+1, r.Start.Character+1, rangeText(text, r)))
		}
		t.Logf("linkedEditingRange at %d:%d: %v", at.Line+1, at.Character+1, got)
		if want := "[13:1 summarize 19:10 summarize]"; fmt.Sprint(got) != want || le.WordPattern == nil {
			t.Errorf("linked ranges %v (pattern %v), want %s", got, le.WordPattern, want)
		}
	}
	var le protocol.LinkedEditingRanges
	c.mustCall("textDocument/linkedEditingRange", docPos(u, posOf(t, text, "fetch:", 0, 1)), &le)
	if len(le.Ranges) != 2 || rangeText(text, le.Ranges[1]) != "fetch" || le.Ranges[1].Start.Line != 12 {
		t.Errorf("fetch: linked ranges %+v", le.Ranges)
	}
	// a variable is not linked (rename does that)
	var none *protocol.LinkedEditingRanges
	c.mustCall("textDocument/linkedEditingRange", docPos(u, posOf(t, text, "ISSUES.items", 0, 1)), &none)
	if none != nil && len(none.Ranges) > 0 {
		t.Errorf("linked ranges on a variable: %+v", none)
	}
}

// applyEdits applies LSP text edits (non-overlapping) to text.
func applyEdits(text string, tes []protocol.TextEdit) string {
	src := []byte(text)
	for i := len(tes) - 1; i >= 0; i-- {
		from, to := byteOffsetIn(src, tes[i].Range.Start), byteOffsetIn(src, tes[i].Range.End)
		src = append(src[:from:from], append([]byte(tes[i].NewText), src[to:]...)...)
	}
	return string(src)
}

// TestRangeFormatting formats only the selected statements of a badly
// laid out skill, and refuses a document that does not parse with an error
// naming the syntax error.
func TestRangeFormatting(t *testing.T) {
	dir := t.TempDir()
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := "file://" + dir + "/fmtme.skill.md"
	text := "# Skill: fmtme\n# Timeout: 30\n\nfirst:\n  emit(text=\"a\" )\n  emit(text = \"b\")\n\nsecond:   first\n      emit(text=\"c\")\n      $set  X =  1\n\ndefault: second\n"
	c.open(u, text)
	format := func(from, to protocol.Position) ([]protocol.TextEdit, error) {
		var tes []protocol.TextEdit
		err := c.call("textDocument/rangeFormatting", map[string]any{"textDocument": map[string]any{"uri": u},
			"range": protocol.Range{Start: from, End: to}, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &tes)
		return tes, err
	}
	// the body of "first" (lines 5-6)
	tes, err := format(protocol.Position{Line: 4}, protocol.Position{Line: 6})
	if err != nil {
		t.Fatal(err)
	}
	got := applyEdits(text, tes)
	want := strings.Replace(text, "  emit(text=\"a\" )\n  emit(text = \"b\")\n", "    emit(text=\"a\")\n    emit(text=\"b\")\n", 1)
	t.Logf("rangeFormatting lines 5-6: %d edits; result:\n%s", len(tes), got)
	if got != want {
		t.Errorf("formatting lines 5-6 gave\n%s\nwant\n%s", got, want)
	}
	// one statement of "second", selected inside the line: re-indenting it
	// alone would break its block, so the target is formatted with it
	tes, err = format(posOf(t, text, "$set", 0, 1), posOf(t, text, "$set", 0, 3))
	if err != nil {
		t.Fatal(err)
	}
	got = applyEdits(text, tes)
	t.Logf("rangeFormatting inside the $set line: %d edits; result:\n%s", len(tes), got)
	if want := strings.Replace(text, "second:   first\n      emit(text=\"c\")\n      $set  X =  1\n", "second: first\n    emit(text=\"c\")\n    $set X = 1\n", 1); got != want {
		t.Errorf("formatting the $set line gave\n%s\nwant\n%s", got, want)
	}
	// a broken document is refused
	broken := strings.Replace(text, "emit(text=\"c\")", "emit(text=\"c\"", 1)
	c.change(u, 2, broken)
	_, err = format(protocol.Position{Line: 7}, protocol.Position{Line: 10})
	t.Logf("rangeFormatting of a broken range: %v", err)
	if err == nil || !strings.Contains(err.Error(), "not formatting lines 8-10") || !strings.Contains(err.Error(), "line 9") {
		t.Errorf("broken range: error %v, want a refusal naming line 9", err)
	}
}

// TestOnTypeFormatting re-indents as a target body is typed: one step
// under a line ending with ":", like the previous statement otherwise,
// "else:" back to its if; nothing outside a body.
func TestOnTypeFormatting(t *testing.T) {
	dir := t.TempDir()
	c := newTestClient(t, Options{})
	c.initialize(dir)
	u := "file://" + dir + "/type.skill.md"
	v := 1
	c.open(u, "")
	for _, tc := range []struct {
		text string // "|" marks the cursor after the typed character
		ch   string
		want string // the line after the edit
	}{
		{"# Skill: t\n\nrun:\n|", "\n", "    "},
		{"# Skill: t\n\nrun: prep\n|", "\n", "    "},
		{"# Skill: t\n\nrun:\n    if ${X} == \"a\":\n  |", "\n", "        "},
		{"# Skill: t\n\nrun:\n    if ${X} == \"a\":\n        emit(text=\"a\")\n|", "\n", "        "},
		{"# Skill: t\n\nrun:\n    if ${X} == \"a\":\n        emit(text=\"a\")\n        else:|", ":", "    else:"},
		{"# Skill: t\n\nrun:\n    foreach I in ${L}:\n        if ${I} == \"a\":\n            emit(text=\"a\")\n            elif ${I} == \"b\":|", ":", "        elif ${I} == \"b\":"},
		{"# Skill: t\n# Vars: X\n|", "\n", ""}, // headers: no edit
		{"# Skill: t\n\nrun:\n    emit(text=\"a\")\n\ndefault: run\n|", "\n", ""},
	} {
		v++
		i := strings.Index(tc.text, "|")
		text := tc.text[:i] + tc.text[i+1:]
		c.change(u, v, text)
		at := posOf(t, tc.text, "|", 0, 0)
		var tes []protocol.TextEdit
		c.mustCall("textDocument/onTypeFormatting", map[string]any{"textDocument": map[string]any{"uri": u},
			"position": at, "ch": tc.ch, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &tes)
		lines := strings.Split(applyEdits(text, tes), "\n")
		got := lines[at.Line]
		t.Logf("typed %q: line %d becomes %q (%d edit(s))", tc.ch, at.Line+1, got, len(tes))
		if got != tc.want {
			t.Errorf("%q typed %q: line %q, want %q", tc.text, tc.ch, got, tc.want)
		}
	}
}
