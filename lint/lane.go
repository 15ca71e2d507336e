package lint

import (
	"bytes"
	"slices"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

// The local lane of the language server (decision LT1). While a user
// types, each edit that stays inside one target E whose interface and
// number of lines are unchanged is answered by checking E alone against
// the facts of the last whole analysis (check.Lane) and running the local
// rules over E only, taking over their findings about the rest of the
// file from the step before; the checker over the whole file, the rules
// that are not local and the shifted copy of the nodes after E are left
// to the whole analysis, which the server runs when typing pauses. Steps
// chain: every step keeps the interface and line count of the target it
// edits, so the interface of every target, the names bound in the skill
// scope and the line of every node are those of the last whole analysis
// (the base) all along the chain, and what a local rule reads of another
// target can be read from the base. TestLaneMatchesWholeRun compares the
// lane's findings with a whole run's local-rule findings after random
// chains of edits of the real skills.

// Lane is one step of the local lane: prev is the Kept of the whole run
// or lane step over the previous text (prev's own text), src the new text
// (lines its line table), in which [from, newTo) replaced [from, oldTo) of
// the previous text, exactly one target both times. It returns the
// findings of the local rules over the whole new text (suppressions and
// severity overrides applied, no parser findings, sorted) and what the
// next step takes over; ok is false when the step cannot be made (the
// target's interface or line count changed, a finding to take over points
// into the target, the previous run did not run every enabled local rule,
// the part does not parse as one target...): the caller then runs the
// whole analysis.
func Lane(prev *Kept, src []byte, lines *ast.LineTable, from, oldTo, newTo int, ctx *Context, opts Options) (ds ast.Diagnostics, next *Kept, ok bool) {
	if prev == nil || prev.file == nil || prev.info == nil {
		return nil, nil, false
	}
	w := prev
	if prev.base != nil {
		w = prev.base
	}
	pf := prev.file
	old := pf.Src
	if pf.NotText || pf.Fence.IsValid() || w.file.NotText || w.file.Fence.IsValid() ||
		from < 0 || from >= oldTo || from >= newTo || oldTo > len(old) || newTo > len(src) ||
		len(src)-newTo != len(old)-oldTo || len(pf.Targets) != len(w.file.Targets) ||
		bytes.Count(old[from:oldTo], nl) != bytes.Count(src[from:newTo], nl) {
		return nil, nil, false
	}
	i := slices.IndexFunc(pf.Targets, func(t *ast.Target) bool {
		return t.Pos().Offset() == from && t.End().Offset() <= oldTo
	})
	if i < 0 {
		return nil, nil, false
	}
	wE := w.file.Targets[i]
	if wE.Name == nil || pf.Targets[i].Name == nil || wE.Name.Name != pf.Targets[i].Name.Name {
		return nil, nil, false
	}
	cf, _ := syntax.Parse(pf.Name, src[from:newTo])
	if cf.NotText || len(cf.Targets) != 1 || cf.Targets[0].Pos().Offset() != 0 ||
		len(cf.Headers) > 0 || len(cf.Defaults) > 0 || len(cf.Templates) > 0 {
		return nil, nil, false
	}
	e := ast.Shifted(cf.Targets, from)[0]
	delta := newTo - oldTo
	lf := &ast.File{Range: ast.RangeOf(0, len(src)), Name: pf.Name, Src: src, Lines: lines}
	var ok1, ok2, ok3, ok4, ok5, ok6 bool
	lf.Headers, ok1 = laneNodes(pf.Headers, nil, from, oldTo, delta, true)
	lf.Defaults, ok2 = laneNodes(pf.Defaults, nil, from, oldTo, delta, true)
	lf.Templates, ok3 = laneNodes(pf.Templates, nil, from, oldTo, delta, true)
	lf.Comments, ok4 = laneNodes(pf.Comments, ast.Shifted(cf.Comments, from), from, oldTo, delta, true)
	lf.Bad, ok5 = laneNodes(pf.Bad, ast.Shifted(cf.Bad, from), from, oldTo, delta, true)
	lf.Targets, ok6 = laneNodes(pf.Targets, []*ast.Target{e}, from, oldTo, delta, false)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || len(lf.Headers) != len(pf.Headers) ||
		len(lf.Defaults) != len(pf.Defaults) || len(lf.Templates) != len(pf.Templates) {
		return nil, nil, false
	}
	info := check.Lane(lf, e, wE, w.info)
	oi := ifaceOf(w.file, w.info, wE.Pos().Offset(), wE.End().Offset())
	ni := ifaceOf(lf, info, from, newTo)
	if oi == nil || ni == nil || !slices.Equal(oi, ni) {
		return nil, nil, false
	}
	r := &Reuse{Prev: prev, From: from, OldTo: oldTo, NewTo: newTo}
	in := &incr{r: r, ok: true, next: &Kept{file: lf, info: info, raw: map[string]ast.Diagnostics{}, base: w}}
	st := newState(lf, info)
	st.laneLines, st.laneE = w.file.Lines, e
	in.seed(st)
	p := &Pass{File: lf, Info: info, Ctx: ctx, st: st, diags: &ds} // one for every rule in turn, as in lint
	for _, rule := range opts.registry().runnable {
		if !rule.local {
			continue
		}
		if _, on := opts.severity(rule.ID, rule.Severity); !on {
			continue
		}
		if _, have := in.takeOver(rule.ID); !have {
			return nil, nil, false
		}
		p.rule, p.onlyE = rule, nil
		in.run(rule, p, &ds)
	}
	in.finish(st)
	opts.ReportUnusedSuppressions = false
	ds = finish(lf, st, ds, opts)
	ds.Sort()
	return ds, in.next, true
}

// Local reports whether k holds the findings of rule, i.e. whether rule
// is a local rule that ran (the language server keeps the other rules'
// findings of the last whole analysis next to a lane's).
func (k *Kept) Local(rule string) bool {
	_, ok := k.raw[rule]
	return ok
}

// laneNodes returns old's nodes before [from, oldTo), then part, then
// old's nodes after it moved by delta: deep copies (ast.Shifted) when deep,
// else shallow copies of the top-level node with its range moved (the
// lane reads only the names and ranges of the targets it did not parse).
// ok is false when a node of old overlaps the range's ends.
func laneNodes[N ast.Node](old, part []N, from, oldTo, delta int, deep bool) ([]N, bool) {
	if len(old) == 0 && len(part) == 0 {
		return old, true
	}
	out := make([]N, 0, len(old)+len(part))
	placed := false
	for _, n := range old {
		f, t := n.Pos().Offset(), n.End().Offset()
		switch {
		case t <= from && f < from:
			out = append(out, n)
		case f >= from && t <= oldTo:
			// replaced by part
		case f >= oldTo && t > f:
			if !placed {
				out, placed = append(out, part...), true
			}
			out = append(out, moved(n, delta, deep))
		default:
			return nil, false
		}
	}
	if !placed {
		out = append(out, part...)
	}
	return out, true
}

// moved returns n moved by delta (see laneNodes).
func moved[N ast.Node](n N, delta int, deep bool) N {
	if deep {
		return ast.Shifted([]N{n}, delta)[0]
	}
	if t, ok := any(n).(*ast.Target); ok {
		cp := *t
		cp.Range = t.Range.Moved(delta)
		return any(&cp).(N)
	}
	return ast.Shifted([]N{n}, delta)[0]
}
