package lint_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/syntax"
)

// TestLaneMatchesWholeRun edits real skills inside one target at a time
// and answers each edit with a lane step (lint.Lane, chained from step to
// step from a whole run, as the language server does while typing); the
// lane's findings must equal a whole run's findings of the local rules on
// the same text, every time. A step the lane refuses starts a new chain
// from a whole run.
func TestLaneMatchesWholeRun(t *testing.T) {
	paths, ctx := editedSkills(t)
	whole := func(p, text string) (*ast.File, *lint.Kept, ast.Diagnostics) {
		f, parsed := syntax.Parse(p, []byte(text))
		reuse := &lint.Reuse{}
		_, ds := lint.CheckParsed(f, copyDiags(parsed), ctx, lint.Options{Reuse: reuse})
		return f, reuse.Next, ds
	}
	var steps, lanes, chained int
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 26))
		text := string(src)
		f, kept, _ := whole(p, text)
		run := 0 // lane steps since the chain's whole run
		for step := 0; step < 16; step++ {
			from, to, ins, ok := reuseEdit(r, f, text)
			if !ok {
				break
			}
			next := text[:from] + ins + text[to:]
			ts, te, ok1 := targetOf(f, from, to)
			nf, _ := syntax.Parse(p, []byte(next))
			ne, ok2 := targetEndAt(nf, ts)
			steps++
			var got ast.Diagnostics
			var nk *lint.Kept
			laned := false
			if ok1 && ok2 {
				got, nk, laned = lint.Lane(kept, []byte(next), nf.Lines, ts, te, ne, ctx, lint.Options{})
			}
			if !laned {
				text = next
				f, kept, _ = whole(p, text)
				run = 0
				continue
			}
			lanes++
			if run > 0 {
				chained++
			}
			run++
			_, all := lint.CheckParsed(nf, nil, ctx, lint.Options{})
			var want ast.Diagnostics
			for _, d := range all {
				if nk.Local(d.Rule) {
					want = append(want, d)
				}
			}
			if len(got) == 0 {
				got = nil // an empty list is no findings, as want's nil
			}
			if g, w := diagJSON(got), diagJSON(want); g != w {
				t.Fatalf("%s step %d (lane step %d of its chain; edit [%d,%d) -> %q in target [%d,%d)):\ngot:  %s\nwant: %s\ntext:\n%s",
					p, step, run, from, to, ins, ts, te, g, w, next)
			}
			text, f, kept = next, nf, nk
			if r.IntN(6) == 0 {
				f, kept, _ = whole(p, text) // the whole analysis after a pause
				run = 0
			}
		}
	}
	t.Logf("%d edits, %d answered by a lane step (%d of them chained after another)", steps, lanes, chained)
	if lanes < steps/4 || chained < lanes/4 {
		t.Errorf("only %d of %d edits answered by a lane step, %d chained", lanes, steps, chained)
	}
}
