package lsp

// Property: whatever sequence of edits reaches a text (random ones, edits
// inside a target, of a target's first line, of the headers, undoing the
// last edit, bursts of keystrokes), and however the server schedules,
// cancels and reuses work on the way (quick publications, the re-parse of
// one target, the incremental parse of the full analysis, analyses
// dropped because an edit superseded them), the last
// publication of a version (its full analysis; the quick one before it
// is a preview) holds exactly the findings of a from-scratch analysis of
// its text.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	// what the rules that run over the edited target only (lint.Reuse)
	// read elsewhere: bindings other targets use, loop bindings (the
	// hint names their line), inlined skills, secrets and credentials,
	// a malformed substitution
	"\n    $set ZQ9 = \"v\"", "\n    emit(text=\"x\") -> ZQ1", "\n    foreach ZQ9 in [1]:\n        emit(text=\"${ZQ9}\")",
	"\n    inline(skill=\"helper\")", "{{secret.API_KEY}}", "\n    shell(command=\"curl -H 'X: {{secret.TOKEN}}'\")",
	" api_key=\"sk-abcdef123\"", "${ZQ9", "${ZQ9|fallback:\"d\"}", "\n    needs: newt", " newt",
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

// reBinder matches the name a statement binds: $set NAME, -> NAME,
// foreach NAME.
var reBinder = regexp.MustCompile(`(\$set |-> |foreach )([A-Za-z_][A-Za-z0-9_]*)`)

// bindEdit returns an edit of the name a statement of text binds, on its
// line: renamed, or replaced by ZQ9 (which the typing bursts reference),
// so that references elsewhere resolve differently while the target
// keeps its lines (the case the incremental rule phase must notice).
func bindEdit(r *rand.Rand, text string) (from, to int, ins string, ok bool) {
	ms := reBinder.FindAllStringSubmatchIndex(text, -1)
	if len(ms) == 0 {
		return 0, 0, "", false
	}
	m := ms[r.IntN(len(ms))]
	if r.IntN(2) == 0 {
		return m[4] + 1, m[4] + 1, "x", true
	}
	return m[4], m[5], "ZQ9", true
}

// headerSnippets are what the edits of the header block insert.
var headerSnippets = []string{"# Vars: ZQ1\n", "# Timeout: 30\n", "x", "ZQ2, ", "\n", "# Returns: A0\n"}

// targetEdit returns a random edit of one target of text: inside its
// body (the incremental parse's case), or of its first line (renaming it,
// breaking it, or adding a target in front of it).
func targetEdit(r *rand.Rand, text string) (from, to int, ins string, ok bool) {
	var starts []int // offsets of the target lines
	for off := 0; off < len(text); {
		line := text[off:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if reTargetLine().MatchString(line) && !strings.HasPrefix(line, "default") {
			starts = append(starts, off)
		}
		off += len(line) + 1
	}
	if len(starts) == 0 {
		return 0, 0, "", false
	}
	at := starts[r.IntN(len(starts))]
	switch r.IntN(6) {
	case 0: // rename the target
		return at, at, "x", true
	case 1: // break its first line (delete the colon)
		colon := at + strings.IndexByte(text[at:], ':')
		return colon, colon + 1, "", true
	case 2: // a new target in front of it
		return at, at, "zq:\n    emit(text=\"${ZQ3}\")\n\n", true
	default: // inside its body
		body := at + strings.IndexByte(text[at:], '\n') + 1
		if body <= at || body >= len(text) {
			return 0, 0, "", false
		}
		end := body + strings.IndexByte(text[body:], '\n')
		if end < body {
			end = len(text)
		}
		from = runeStart(text, body+r.IntN(end-body+1))
		return from, from, editSnippets[r.IntN(len(editSnippets))], true
	}
}

// headerEdit returns a random insertion in the header block of text (its
// first lines starting with '#').
func headerEdit(r *rand.Rand, text string) (from, to int, ins string) {
	end := 0
	for end < len(text) && text[end] == '#' {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			break
		}
		end += i + 1
	}
	from = runeStart(text, r.IntN(end+1))
	return from, from, headerSnippets[r.IntN(len(headerSnippets))]
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
		// some analyses start and be superseded; the whole analysis after
		// every edit (no local lane)
		{"quick-debounced", Options{Debounce: 2 * time.Millisecond, quickMin: 1, FullDelay: -1}},
		{"quick-at-once", Options{Debounce: -1, quickMin: 1, FullDelay: -1}},
		{"default", Options{Debounce: 2 * time.Millisecond, FullDelay: -1}},
		// the local lane answers edits inside one target, the whole
		// analysis follows 5 ms after the last edit (or 1 s after the last
		// whole result), so that edits land in every phase
		{"lane", Options{Debounce: 2 * time.Millisecond, quickMin: 1, FullDelay: 5 * time.Millisecond}},
		// the default delay: fewer whole analyses, longer lane chains
		{"lane-default-delay", Options{Debounce: 2 * time.Millisecond, quickMin: 1}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			dir := benchWorkspace(t, 5)
			for _, n := range names {
				must(t, os.WriteFile(filepath.Join(dir, n), []byte(skills[n]), 0o644))
			}
			var mu sync.Mutex
			full := map[string][]protocol.Diagnostic{} // "uri@version" -> its full publication
			opts := mode.opts
			var spliced, tookOver, laned atomic.Int64
			opts.spliced = func(string) { spliced.Add(1) }
			opts.laned = func(string) { laned.Add(1) }
			opts.tookOver = func(string) { tookOver.Add(1) }
			opts.sent = func(u string, v int32, isFull bool, diags []protocol.Diagnostic) {
				if isFull {
					mu.Lock()
					full[fmt.Sprintf("%s@%d", u, v)] = diags
					mu.Unlock()
				}
			}
			// fullOf waits for the full publication of version v of u
			fullOf := func(u string, v int32) []protocol.Diagnostic {
				deadline := time.Now().Add(2 * time.Minute)
				for {
					mu.Lock()
					ds, ok := full[fmt.Sprintf("%s@%d", u, v)]
					mu.Unlock()
					if ok {
						return ds
					}
					if time.Now().After(deadline) {
						t.Fatalf("no full publication of %s version %d", u, v)
					}
					time.Sleep(2 * time.Millisecond)
				}
			}
			c := newTestClient(t, opts)
			c.initialize(dir)
			ref := newTestClient(t, Options{Debounce: -1, quickMin: 1 << 30})
			ref.initialize(dir)
			refV := int32(0)
			for i, n := range names {
				seed := uint64(1000*len(mode.name) + i)
				r := rand.New(rand.NewPCG(seed, 25))
				u := string(uri.File(filepath.Join(dir, n)))
				text := skills[n]
				c.open(u, text)
				v := int32(1)
				// compare compares the settled publication of the current
				// version with the reference server's analysis of the text
				compare := func(step int) {
					got := fullOf(u, v)
					refV++
					ref.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
					ref.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
						"uri": u, "languageId": "skillscript", "version": refV, "text": text}})
					want := ref.waitDiags(u, atVersion(refV))
					g, w := publishedKeys(got), publishedKeys(want.Diagnostics)
					if !slices.Equal(g, w) {
						t.Errorf("%s (seed %d): after %d edits the server published %d findings, a from-scratch analysis %d\ngot:  %s\nwant: %s\ntext:\n%s",
							n, seed, step, len(g), len(w), strings.Join(g, "\n      "), strings.Join(w, "\n      "), text)
					}
				}
				// edit sends one change; undo is the change that reverts
				// the last one
				var undo func()
				var edit func(from, to int, ins string)
				edit = func(from, to int, ins string) {
					removed := text[from:to]
					v++
					c.notify("textDocument/didChange", map[string]any{
						"textDocument": map[string]any{"uri": u, "version": v},
						"contentChanges": []any{map[string]any{
							"range": map[string]any{"start": lspPos(text, from), "end": lspPos(text, to)},
							"text":  ins}},
					})
					text = text[:from] + ins + text[to:]
					undo = func() { edit(from, from+len(ins), removed) }
				}
				for step := 1; step <= 40; step++ {
					switch k := r.IntN(10); {
					case k < 4:
						from, to, ins, _ := randomEdit(r, text)
						edit(from, to, ins)
					case k < 7:
						if from, to, ins, ok := targetEdit(r, text); ok {
							edit(from, to, ins)
						}
					case k < 8:
						if r.IntN(2) == 0 {
							edit(headerEdit(r, text))
						} else if from, to, ins, ok := bindEdit(r, text); ok {
							edit(from, to, ins)
						}
					case k < 9 && undo != nil:
						undo()
					default: // typing: a burst of keystrokes at one place
						from, _, _, ok := targetEdit(r, text)
						if !ok {
							from = runeStart(text, r.IntN(len(text)+1))
						}
						for _, ch := range "${ZQ9}" {
							edit(from, from, string(ch))
							from++
							time.Sleep(time.Duration(r.IntN(1500)) * time.Microsecond)
						}
					}
					switch r.IntN(10) {
					case 0: // let this version's publications happen
						c.waitDiags(u, atVersion(v))
					case 1, 2, 3: // the next edit lands during its parse or analysis
						time.Sleep(time.Duration(r.IntN(4000)) * time.Microsecond)
					case 4:
						if step > 1 {
							compare(step)
						}
					}
				}
				compare(40)
			}
			t.Logf("%d full analyses parsed incrementally, %d ran the local rules over the edited target only, %d edits answered by the local lane",
				spliced.Load(), tookOver.Load(), laned.Load())
			if lane := mode.opts.FullDelay >= 0; lane {
				if laned.Load() == 0 {
					t.Errorf("no edit was answered by the local lane")
				}
				return // whole analyses mostly follow edits of several targets
			}
			if laned.Load() > 0 {
				t.Errorf("%d lane steps with the lane off", laned.Load())
			}
			if spliced.Load() == 0 {
				t.Errorf("no full analysis took the incremental parse")
			}
			if tookOver.Load() == 0 {
				t.Errorf("no full analysis took over the local rules' findings")
			}
		})
	}
}
