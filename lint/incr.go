package lint

import (
	"bytes"
	"slices"
	"sort"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// The incremental rule phase of the language server (decision LJ2). After
// an edit that stayed inside one target E, the rules marked local run over
// E only and the findings they made about the rest of the file in the run
// before the edit are taken over, moved by the edit's change of length.
//
// A rule is local when what it reports about a node depends only on the
// top-level node the node is in (its target, header, template...), on
// what lies outside every target (headers, defaults, the template, the
// context), and on the interface of the other targets: their names and
// the names they bind, by kind and scope, the lines of the loops that bind
// them, and the skills they inline. The take-over is only made when E's
// interface is the same before and after the edit (ifaceOf) and E has as
// many lines as before, so that every line number a message gives of a
// node outside E is unchanged too; otherwise, and whenever a finding to
// take over points into E (a related location, a fix), the rule runs over
// the whole file. TestReuseMatchesWholeRun and TestReuseSeesOtherTargets
// (lint) and TestEditsMatchFromScratch (lsp) compare the result with a
// whole run after random and targeted edits.

// Reuse is how a caller lets one run take over the local rules' findings
// of the previous run on the same document. From, OldTo and NewTo say
// that the previous run's text [From, OldTo) became [From, NewTo) of this
// run's text, inside one target both times, and nothing else changed; the
// options and context must be those of the previous run. The run records
// what the next one needs in Next (also when it can take nothing over).
type Reuse struct {
	Prev               *Kept
	From, OldTo, NewTo int
	Next               *Kept
	// TookOver is set by the run when its local rules ran over the edited
	// target only.
	TookOver bool
}

// Kept is what a run leaves for the next one: its file and checker facts
// and the findings of its local rules before suppressions and severity
// overrides, by rule.
type Kept struct {
	file *ast.File
	info *check.Info
	raw  map[string]ast.Diagnostics
	// root is the did-you-mean candidates of the skill scope, when a rule
	// asked for them: the same names while the edited target's interface
	// and the target names stay the same (state.namesVisible)
	root *nameSet
	// base is, for a lane step (Lane), the whole run the chain started
	// from; nil for a whole run
	base *Kept
}

// incr is one run's side of a Reuse.
type incr struct {
	r    *Reuse
	ok   bool // the previous findings may be taken over
	next *Kept
}

// newIncr checks whether r's previous findings can be taken over by the
// run over f and info.
func newIncr(f *ast.File, info *check.Info, r *Reuse) *incr {
	in := &incr{r: r, next: &Kept{file: f, info: info, raw: map[string]ast.Diagnostics{}}}
	r.Next = in.next
	p := r.Prev
	if p == nil || p.file == nil || p.info == nil || f.NotText || p.file.NotText {
		return in
	}
	os, ns := p.file.Src, f.Src
	if r.From < 0 || r.From > r.OldTo || r.From > r.NewTo || r.OldTo > len(os) || r.NewTo > len(ns) ||
		len(ns)-r.NewTo != len(os)-r.OldTo {
		return in
	}
	if bytes.Count(os[r.From:r.OldTo], nl) != bytes.Count(ns[r.From:r.NewTo], nl) {
		return in
	}
	oe := ifaceOf(p.file, p.info, r.From, r.OldTo)
	ne := ifaceOf(f, info, r.From, r.NewTo)
	in.ok = oe != nil && ne != nil && slices.Equal(oe, ne)
	r.TookOver = in.ok
	return in
}

var nl = []byte{'\n'}

// ifaceOf returns what the local rules may read of the one target in
// [from, to) of f while they look at other nodes, as comparable strings;
// nil when [from, to) is not exactly one target.
func ifaceOf(f *ast.File, info *check.Info, from, to int) []string {
	var t *ast.Target
	for _, c := range f.Targets {
		if c.Pos().Offset() >= from && c.End().Offset() <= to {
			if t != nil {
				return nil
			}
			t = c
		}
	}
	if t == nil {
		return nil
	}
	// what lies outside the targets must not change
	overlaps := func(n ast.Node) bool { return n.Pos().Offset() < to && n.End().Offset() > from }
	for _, h := range f.Headers {
		if overlaps(h) {
			return nil
		}
	}
	for _, d := range f.Defaults {
		if overlaps(d) {
			return nil
		}
	}
	for _, tm := range f.Templates {
		if overlaps(tm) {
			return nil
		}
	}
	out := []string{"target"}
	if t.Name != nil {
		out = append(out, t.Name.Name)
	}
	for _, n := range t.Needs {
		out = append(out, "needs", n.Name)
	}
	for _, b := range info.Binds {
		if b.Target != t {
			continue
		}
		sk := -1
		line := 0
		if b.Scope != nil {
			sk = int(b.Scope.Kind)
			if b.Scope.Kind == check.ScopeLoop && b.Scope.Node != nil {
				line = f.Lines.Position(b.Scope.Node.Pos()).Line
			}
		}
		out = append(out, "bind", b.Name, itoa(int(b.Kind)), itoa(sk), itoa(line))
	}
	for _, op := range info.Ops {
		if c, ok := op.Stmt.(*ast.CallStmt); ok && op.Target == t && c.Name != nil && c.Name.Name == "inline" {
			out = append(out, "inline", string(f.Src[c.Pos().Offset():c.End().Offset()]))
		}
	}
	return out
}

// outsideOf reports whether r lies before [from, to) or after it; an
// empty range on either end is neither outside nor inside (it may belong
// to the target or to its neighbour), nor is a range without positions.
func outsideOf(r ast.Range, from, to int) bool {
	if !r.From.IsValid() || !r.To.IsValid() {
		return false
	}
	f, t := r.From.Offset(), r.To.Offset()
	return t <= from && f < from || f >= to && t > f || f > to
}

// seed gives st what the previous run computed that the edit cannot
// have changed: the skill scope's did-you-mean candidates.
func (in *incr) seed(st *state) {
	if in.ok && in.r.Prev.root != nil {
		st.visible = map[*check.Scope]*nameSet{st.info.Root: in.r.Prev.root}
	}
}

// finish records what the next run may seed from this one.
func (in *incr) finish(st *state) {
	if ns, ok := st.visible[st.info.Root]; ok && st.info.Root != nil {
		in.next.root = ns
	}
}

// skip reports whether a local rule running over E only may pass over
// a node at n: one outside E (its finding is taken over).
func (in *incr) skip(n ast.Range) bool { return outsideOf(n, in.r.From, in.r.NewTo) }

// run runs the local rule r with p, appending to *ds: over E only with
// the previous findings outside E taken over when it can, over the whole
// file otherwise; either way it keeps the rule's findings for the next run.
func (in *incr) run(r *Rule, p *Pass, ds *ast.Diagnostics) {
	start := len(*ds)
	prev, have := ast.Diagnostics(nil), false
	if in.ok {
		prev, have = in.takeOver(r.ID)
	}
	if !have {
		r.Run(p)
		in.keep(r.ID, (*ds)[start:])
		return
	}
	p.onlyE, p.st.scanIn = in, in
	r.Run(p)
	p.st.scanIn = nil
	// the rule's findings about E, then those taken over (the sort after
	// the rules puts them in place; ties keep each region's order)
	out := (*ds)[:start]
	for _, d := range (*ds)[start:] {
		if !outsideOf(d.Range, in.r.From, in.r.NewTo) {
			out = append(out, d)
		}
	}
	delta := in.r.NewTo - in.r.OldTo
	for _, d := range prev {
		cp := *d
		if d.Range.From.Offset() >= in.r.OldTo {
			moveDiag(&cp, delta)
		}
		out = append(out, &cp)
	}
	*ds = out
	in.keep(r.ID, (*ds)[start:])
}

// takeOver returns the previous findings of rule id to take over: all
// but those about E (inside it in the previous text: the rule finds them
// again), each movable; ok is false when there are none recorded or one
// is not movable.
func (in *incr) takeOver(id string) (ast.Diagnostics, bool) {
	prev, ok := in.r.Prev.raw[id]
	if !ok {
		return nil, false
	}
	n := 0
	for _, d := range prev {
		if in.inside(d.Range) {
			continue
		}
		if !in.movable(d) {
			return nil, false
		}
		n++
	}
	if n == len(prev) {
		return prev, true
	}
	out := make(ast.Diagnostics, 0, n)
	for _, d := range prev {
		if !in.inside(d.Range) {
			out = append(out, d)
		}
	}
	return out, true
}

// inside reports whether r of the previous text lies inside E, off its
// ends (an empty range on an end may belong to the neighbour).
func (in *incr) inside(r ast.Range) bool {
	if !r.From.IsValid() || !r.To.IsValid() {
		return false
	}
	f, t := r.From.Offset(), r.To.Offset()
	if f == t {
		return f > in.r.From && f < in.r.OldTo
	}
	return f >= in.r.From && t <= in.r.OldTo
}

// movable reports whether a previous finding lies outside E and points
// nowhere into it (its related locations in the file, its fixes), so that
// it can be taken over as it is or moved.
func (in *incr) movable(d *ast.Diagnostic) bool {
	outside := func(r ast.Range) bool { return outsideOf(r, in.r.From, in.r.OldTo) }
	if !outside(d.Range) {
		return false
	}
	for _, r := range d.Related {
		if r.File == "" && !outside(r.Range) {
			return false
		}
	}
	for _, f := range d.Fixes {
		for _, e := range f.Edits {
			if !outside(e.Range) {
				return false
			}
		}
	}
	return true
}

// keep records copies of a local rule's findings for the next run (the
// run's own are changed afterwards: severities, enclosing targets).
func (in *incr) keep(id string, ds ast.Diagnostics) {
	k := make(ast.Diagnostics, len(ds))
	for i, d := range ds {
		cp := *d
		k[i] = &cp
	}
	in.next.raw[id] = k
}

// moveDiag moves d's ranges in this file (its own, related ones and those
// of its fixes) by delta; the slices are copied, not changed.
func moveDiag(d *ast.Diagnostic, delta int) {
	d.Range = d.Range.Moved(delta)
	if d.Related != nil {
		rel := make([]ast.Related, len(d.Related))
		for i, r := range d.Related {
			if r.File == "" {
				r.Range = r.Range.Moved(delta)
			}
			rel[i] = r
		}
		d.Related = rel
	}
	if d.Fixes != nil {
		fixes := make([]ast.Fix, len(d.Fixes))
		for i, f := range d.Fixes {
			edits := make([]ast.TextEdit, len(f.Edits))
			for j, e := range f.Edits {
				e.Range = e.Range.Moved(delta)
				edits[j] = e
			}
			fixes[i] = ast.Fix{Title: f.Title, Edits: edits}
		}
		d.Fixes = fixes
	}
}

// topLevelIn returns the top-level nodes of f inside [from, to), in
// source order: what the scan of a run over E goes through.
func topLevelIn(f *ast.File, from, to int) []ast.Node {
	var out []ast.Node
	add := func(n ast.Node) {
		if n.Pos().IsValid() && n.Pos().Offset() >= from && n.End().Offset() <= to {
			out = append(out, n)
		}
	}
	for _, n := range f.Headers {
		add(n)
	}
	for _, n := range f.Targets {
		add(n)
	}
	for _, n := range f.Defaults {
		add(n)
	}
	for _, n := range f.Templates {
		add(n)
	}
	for _, n := range f.Comments {
		add(n)
	}
	for _, n := range f.Bad {
		add(n)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}
