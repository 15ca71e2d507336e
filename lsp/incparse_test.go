package lsp

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/syntax"
)

// TestSpliceMatchesParse applies random bursts of one to three edits to
// real skills and checks that wherever the incremental parse applies, its
// tree and parser diagnostics are those of parsing the new text whole; it
// also checks that it applies to most edits inside a target.
func TestSpliceMatchesParse(t *testing.T) {
	skills := propertySkills(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range skills {
			if !yield(n) {
				return
			}
		}
	})
	applied, tried := 0, 0
	for i, name := range names {
		r := rand.New(rand.NewPCG(uint64(i), 7))
		text := skills[name]
		for step := 0; step < 150; step++ {
			f, raw := syntax.Parse(name, []byte(text))
			old := &parsedTree{file: f, raw: raw}
			var spans []span
			next := text
			for k := r.IntN(3); k >= 0; k-- {
				var from, to int
				var ins string
				from, to, ins, next = randomEdit(r, next)
				spans = append(spans, span{from, to, len(ins)})
			}
			src := []byte(next)
			c := joinSpans(spans)
			if got := text[:c.from] + next[c.from:c.from+c.n] + text[c.to:]; got != next {
				t.Fatalf("%s: joinSpans(%v) = %v does not cover the edits", name, spans, c)
			}
			nf, nraw, _, ok := spliceTree(name, old, src, ast.NewLineTable(src), c)
			if _, _, in := targetChunk(src, c.from, c.from+c.n); in {
				tried++
			}
			if ok {
				applied++
				wf, wraw := syntax.Parse(name, src)
				if !reflect.DeepEqual(nf, wf) {
					g, w := dumpTree(nf), dumpTree(wf)
					gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
					j := 0
					for j < len(gl) && j < len(wl) && gl[j] == wl[j] {
						j++
					}
					t.Fatalf("%s step %d: the spliced tree differs (dumps equal: %v) from the parse at dump line %d:\n got: %q\nwant: %q\nchange %v of\n%s\ninto\n%s",
						name, step, g == w, j, gl[min(j, len(gl)-1)], wl[min(j, len(wl)-1)], c, text, next)
				}
				if g, w := diagKeys(nraw), diagKeys(wraw); g != w {
					t.Fatalf("%s step %d: spliced parser diagnostics\n%s\nwant\n%s\ntext:\n%s", name, step, g, w, next)
				}
				if g, w := sortedDiags(nraw), sortedDiags(wraw); !reflect.DeepEqual(g, w) {
					for j := range g {
						if !reflect.DeepEqual(g[j], w[j]) {
							t.Fatalf("%s step %d: spliced parser diagnostic\n%#v\nwant\n%#v", name, step, *g[j], *w[j])
						}
					}
				}
			}
			text = next
			if len(text) == 0 || step%8 == 7 {
				text = skills[name] // typing keeps most of a skill valid
			}
		}
	}
	// the others put a column-0 line that is no target line (a template
	// line) inside the target, or break the target's first line
	t.Logf("spliced %d of %d edit bursts inside a target", applied, tried)
	if applied*3 < tried {
		t.Errorf("the incremental parse applied to %d of %d edit bursts inside a target", applied, tried)
	}
}

// sortedDiags returns ds sorted by position and message.
func sortedDiags(ds ast.Diagnostics) ast.Diagnostics {
	out := slices.Clone(ds)
	slices.SortStableFunc(out, func(a, b *ast.Diagnostic) int {
		if a.Range.From != b.Range.From {
			return int(a.Range.From - b.Range.From)
		}
		return strings.Compare(a.Rule+a.Message, b.Rule+b.Message)
	})
	return out
}

// dumpTree prints f with its positions.
func dumpTree(f *ast.File) string {
	var b strings.Builder
	ast.Fprint(&b, f.Lines, f)
	return b.String()
}

// TestSpliceAppliesWhileTyping checks that typing inside the body of any
// target but the last of a realistic skill takes the incremental parse.
func TestSpliceAppliesWhileTyping(t *testing.T) {
	text := realisticSkill("main", 300, 5)
	f, raw := syntax.Parse("main.skill.md", []byte(text))
	old := &parsedTree{file: f, raw: raw}
	for i, tg := range f.Targets[:len(f.Targets)-1] {
		at := tg.Body.Stmts[0].Pos().Offset() + 4
		next := []byte(text[:at] + "${ZQ1}" + text[at:])
		nf, _, _, ok := spliceTree("main.skill.md", old, next, ast.NewLineTable(next), span{at, at, 6})
		if !ok {
			t.Fatalf("typing in target %d (%s) is not parsed incrementally", i, tg.Name.Name)
		}
		if wf, _ := syntax.Parse("main.skill.md", next); !reflect.DeepEqual(nf, wf) {
			t.Fatalf("typing in target %d: the spliced tree differs from the parse", i)
		}
	}
}

// TestReuseForComposes checks which previous analysis a splice's rule
// phase takes findings over from: the parse's own when it finished, else
// the one it was spliced from when both splices replaced the same target,
// with the chunks composed; none otherwise.
func TestReuseForComposes(t *testing.T) {
	kept, base := &lint.Kept{}, &lint.Kept{}
	ch := chunk{from: 100, oldTo: 150, to: 153}
	if r := reuseFor(kept, base, chunk{100, 148, 150}, ch); r.Prev != kept || r.From != 100 || r.OldTo != 150 || r.NewTo != 153 {
		t.Errorf("own analysis: %+v", r)
	}
	if r := reuseFor(nil, base, chunk{100, 148, 150}, ch); r.Prev != base || r.From != 100 || r.OldTo != 148 || r.NewTo != 153 {
		t.Errorf("composed: %+v", r)
	}
	for _, bc := range []chunk{{90, 148, 150}, {100, 148, 151}} {
		if r := reuseFor(nil, base, bc, ch); r.Prev != nil {
			t.Errorf("another target %+v: took over %+v", bc, r)
		}
	}
}
