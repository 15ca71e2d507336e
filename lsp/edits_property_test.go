package lsp

// Property: whatever sequence of edits reaches a text, and however the
// server schedules, cancels and reuses work on the way (quick
// publications, the re-parse of one target, the parse made during the
// debounce, analyses dropped because an edit superseded them), the last
// publication of the final version holds exactly the findings of a
// from-scratch analysis of the final text.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// editSnippets are what the random edits insert: plain characters, lines
// that bind, reference or break things, a new target.
var editSnippets = []string{
	"x", " ", "\n", "\"", ":", "#", "${", "}", "${ZQ1}", "${PROJECT|upper}",
	"\n    $set ZZ = \"v\"", "\n    emit(text=\"${ZZ}\")", "\n    if ${A0} == \"x\":\n        emit(text=\"y\")",
	"\n\nnewt:\n    emit(text=\"${Q}\")\n", "    # skillc:ignore undeclared-var\n", "foreach X in [1]:",
}

// lspPos returns the LSP position (UTF-16 columns) of byte offset off.
func lspPos(text string, off int) map[string]any {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return map[string]any{"line": line, "character": len(utf16.Encode([]rune(text[start:off])))}
}

// runeStart moves off back to the start of a rune of text.
func runeStart(text string, off int) int {
	for off > 0 && off < len(text) && !utf8.RuneStart(text[off]) {
		off--
	}
	return off
}

// randomEdit returns a random one-range edit of text: its byte range,
// the inserted text and the new text.
func randomEdit(r *rand.Rand, text string) (from, to int, ins, out string) {
	from = runeStart(text, r.IntN(len(text)+1))
	to = from
	switch r.IntN(3) {
	case 0: // delete
		to = runeStart(text, min(len(text), from+1+r.IntN(20)))
		if to < from {
			to = from
		}
	case 1: // replace
		to = runeStart(text, min(len(text), from+1+r.IntN(4)))
		if to < from {
			to = from
		}
		ins = editSnippets[r.IntN(len(editSnippets))]
	default:
		ins = editSnippets[r.IntN(len(editSnippets))]
	}
	return from, to, ins, text[:from] + ins + text[to:]
}

// publishedKeys renders published diagnostics for comparison, sorted.
func publishedKeys(ds []protocol.Diagnostic) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		b, _ := json.Marshal(d)
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

// settled waits until version v of u was published and nothing more came
// for u during quiet, and returns the last publication of v.
func (c *testClient) settled(u string, v int32, quiet time.Duration) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	c.waitDiags(u, atVersion(v))
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n := c.published()
		time.Sleep(quiet)
		if c.published() == n || time.Now().After(deadline) {
			break
		}
	}
	return c.waitDiags(u, atVersion(v))
}

// propertySkills returns real skills of the repository's testdata (a
// deterministic sample) and a generated 1,000-line one.
func propertySkills(t *testing.T) map[string]string {
	t.Helper()
	var paths []string
	for _, root := range []string{"../testdata/examples", "../testdata/lsp/ws", "../testdata/lint", "../testdata/corpus"} {
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, SkillExt) {
				paths = append(paths, p)
			}
			return nil
		})
	}
	sort.Strings(paths)
	out := map[string]string{}
	step := max(1, len(paths)/14)
	for i := 0; i < len(paths); i += step {
		b, err := os.ReadFile(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("p%02d-%s", i/step, filepath.Base(paths[i]))] = string(b)
	}
	out["realistic.skill.md"] = realisticSkill("realistic", 1000, 5)
	return out
}

// TestEditsMatchFromScratch applies random edit sequences to real skills,
// in bursts that supersede analyses under way, and compares the final
// publication with a from-scratch analysis by a second server.
func TestEditsMatchFromScratch(t *testing.T) {
	skills := propertySkills(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range skills {
			if !yield(n) {
				return
			}
		}
	})
	for _, mode := range []struct {
		name string
		opts Options
	}{
		// every document takes the quick path; a debounce of 2 ms lets
		// some analyses start and be superseded
		{"quick-debounced", Options{Debounce: 2 * time.Millisecond, quickMin: 1}},
		{"quick-at-once", Options{Debounce: -1, quickMin: 1}},
		{"default", Options{Debounce: 2 * time.Millisecond}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			dir := benchWorkspace(t, 5)
			for _, n := range names {
				must(t, os.WriteFile(filepath.Join(dir, n), []byte(skills[n]), 0o644))
			}
			c := newTestClient(t, mode.opts)
			c.initialize(dir)
			ref := newTestClient(t, Options{Debounce: -1, quickMin: 1 << 30})
			ref.initialize(dir)
			for i, n := range names {
				seed := uint64(1000*len(mode.name) + i)
				r := rand.New(rand.NewPCG(seed, 25))
				u := string(uri.File(filepath.Join(dir, n)))
				text := skills[n]
				c.open(u, text)
				v := int32(1)
				for step := 0; step < 40; step++ {
					from, to, ins, next := randomEdit(r, text)
					v++
					c.notify("textDocument/didChange", map[string]any{
						"textDocument": map[string]any{"uri": u, "version": v},
						"contentChanges": []any{map[string]any{
							"range": map[string]any{"start": lspPos(text, from), "end": lspPos(text, to)},
							"text":  ins}},
					})
					text = next
					switch r.IntN(8) {
					case 0: // let this version's publications happen
						c.waitDiags(u, atVersion(v))
					case 1:
						time.Sleep(time.Duration(r.IntN(6)) * time.Millisecond)
					}
				}
				got := c.settled(u, v, 150*time.Millisecond)
				// the reference server has the same documents open with
				// their final texts and analyses this one from scratch
				ref.open(u, text)
				want := ref.waitDiags(u, atVersion(1))
				g, w := publishedKeys(got.Diagnostics), publishedKeys(want.Diagnostics)
				if !slices.Equal(g, w) {
					t.Errorf("%s (seed %d): after 40 edits the server published %d findings, a from-scratch analysis %d\ngot:  %s\nwant: %s\nfinal text:\n%s",
						n, seed, len(g), len(w), strings.Join(g, "\n      "), strings.Join(w, "\n      "), text)
				}
			}
		})
	}
}
