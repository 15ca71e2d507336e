package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestFullDelaySetting pins how the delay of the whole analysis after a
// lane step is chosen: Options.FullDelay (0: the default, negative: no
// lane), replaced by the editor's server.fullAnalysisDelayMs (0 or
// negative: no lane).
func TestFullDelaySetting(t *testing.T) {
	for _, c := range []struct {
		opts     time.Duration
		settings string
		want     time.Duration
	}{
		{0, `{}`, DefaultFullDelay},
		{-1, `{}`, 0},
		{50 * time.Millisecond, `{}`, 50 * time.Millisecond},
		{0, `{"server": {"fullAnalysisDelayMs": 0}}`, 0},
		{0, `{"server": {"fullAnalysisDelayMs": -5}}`, 0},
		{-1, `{"server": {"fullAnalysisDelayMs": 120}}`, 120 * time.Millisecond},
		{0, `{"server": {"debounceMs": 3}}`, DefaultFullDelay},
	} {
		s := &Server{opts: Options{FullDelay: c.opts}}
		var st settings
		if err := json.Unmarshal([]byte(c.settings), &st); err != nil {
			t.Fatal(err)
		}
		s.settings.set(st)
		if got := s.fullDelay(); got != c.want {
			t.Errorf("FullDelay %v, settings %s: delay %v, want %v", c.opts, c.settings, got, c.want)
		}
	}
}

// localRules are the rules a lane step reports (lint's rules marked
// local, decision LJ2).
var localRules = []string{"undeclared-var", "unset-template-var", "parse-error", "secret-use-only", "secret-undeclared",
	"secret-dynamic-name", "credential-in-args", "malformed-call", "malformed-op-grammar", "approval-not-literal",
	"unconfirmed-mutation", "filter-arity", "unknown-filter", "unknown-connector-arg", "unknown-skill-reference",
	"disabled-skill-reference"}

// TestLanePublicationsMatchFromScratch types into a 1,000-line skill as
// the typing benchmark does, with the whole analysis put off for the
// test's length, so that every edit is answered by a lane step; each
// publication's findings of the local rules must equal a from-scratch
// analysis's of the same text.
func TestLanePublicationsMatchFromScratch(t *testing.T) {
	dir := benchWorkspace(t, 5)
	text := realisticSkill("main", 1000, 5)
	path := filepath.Join(dir, "main.skill.md")
	must(t, os.WriteFile(path, []byte(text), 0o644))
	var laned atomic.Int64
	var mu sync.Mutex
	fullV := int32(0)
	opts := Options{FullDelay: time.Hour, maxStale: time.Hour, laned: func(string) { laned.Add(1) },
		sent: func(_ string, v int32, full bool, _ []protocol.Diagnostic) {
			if full {
				mu.Lock()
				fullV = max(fullV, v)
				mu.Unlock()
			}
		}}
	c := newTestClient(t, opts)
	c.initialize(dir)
	ref := newTestClient(t, Options{Debounce: -1, quickMin: 1 << 30})
	ref.initialize(dir)
	u := string(uri.File(path))
	c.open(u, text)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		v := fullV
		mu.Unlock()
		if v == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no full analysis of the opened document")
		}
	}
	lines := strings.Split(text, "\n")
	var editLines []int
	for i, l := range lines {
		if strings.HasPrefix(l, "    $set A") {
			editLines = append(editLines, i)
		}
	}
	local := func(ds []protocol.Diagnostic) []protocol.Diagnostic {
		var out []protocol.Diagnostic
		for _, d := range ds {
			if slices.Contains(localRules, fmt.Sprint(d.Code)) {
				out = append(out, d)
			}
		}
		return out
	}
	const edits = 40
	for e := 0; e < edits; e++ {
		ln := editLines[(e*7)%len(editLines)]
		col := strings.Index(lines[ln], "\"value ") + 7
		ins := fmt.Sprintf("${ZQ%d}", e)
		v := int32(e + 2)
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": u, "version": v},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": map[string]any{"line": ln, "character": col},
					"end": map[string]any{"line": ln, "character": col}},
				"text": ins}},
		})
		lines[ln] = lines[ln][:col] + ins + lines[ln][col:]
		text = strings.Join(lines, "\n")
		mark := fmt.Sprintf("undeclared variable ZQ%d:", e)
		got := c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool {
			if !atVersion(v)(p) {
				return false
			}
			for _, d := range p.Diagnostics {
				if strings.HasPrefix(fmt.Sprint(d.Message), mark) {
					return true
				}
			}
			return false
		})
		ref.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
		ref.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": u, "languageId": "skillscript", "version": v, "text": text}})
		want := ref.waitDiags(u, atVersion(v))
		if g, w := publishedKeys(local(got.Diagnostics)), publishedKeys(local(want.Diagnostics)); !slices.Equal(g, w) {
			t.Fatalf("edit %d: the local rules' findings differ from a from-scratch analysis\ngot:  %s\nwant: %s",
				e, strings.Join(g, "\n      "), strings.Join(w, "\n      "))
		}
	}
	t.Logf("%d of %d edits answered by a lane step", laned.Load(), edits)
	if laned.Load() < edits/2 {
		t.Errorf("only %d of %d edits answered by a lane step", laned.Load(), edits)
	}
}
