package lsp

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/syntax"
)

// The incremental parse of the full analysis: when the edits since the
// document's last parsed tree all fall inside one target (not the last),
// only that target is parsed again; the nodes before it are the old
// tree's, those after it shifted copies (ast.Shifted). Targets are
// independent units of the grammar: the parser keeps no state from one
// top-level target line to the next, so the parse of the whole new text
// is the old parse with that target's part replaced
// (TestSpliceMatchesParse checks it on random edits of real skills).

// parsedTree is a parse of one edit of a document kept for the next
// incremental parse.
type parsedTree struct {
	edit int
	file *ast.File
	raw  ast.Diagnostics // the parser's diagnostics as it made them (never handed to the linter)
	// kept is what the full analysis of this parse left for the next
	// one's incremental rule phase (lint.Reuse), made in environment
	// generation gen; nil until that analysis finished (s.mu).
	kept *lint.Kept
	gen  int
	// base is the kept analysis this parse was spliced from and bc the
	// splice's chunk relative to base's text: when this parse's own
	// analysis is superseded, the next splice of the same target can
	// still take over base's findings (the two chunks compose).
	base *lint.Kept
	bc   chunk
}

// chunk is where a splice replaced one target: [from, oldTo) of the old
// text is [from, to) of the new one.
type chunk struct{ from, oldTo, to int }

// maxTreeLog bounds the edits remembered after the last parsed tree.
const maxTreeLog = 64

// logTreeSpans records the spans of edit for the incremental parse (s.mu held).
func (d *document) logTreeSpans(edit int, spans []span) {
	if len(d.treeLog) >= maxTreeLog {
		d.treeLog = append(d.treeLog[:0], d.treeLog[len(d.treeLog)-maxTreeLog/2:]...)
	}
	d.treeLog = append(d.treeLog, editSpan{edit, spans})
}

// keepTree records the parse of edit as the start of the next incremental
// parse, unless a newer one is kept (s.mu held).
func (d *document) keepTree(t *parsedTree) {
	if d.tree != nil && d.tree.edit >= t.edit {
		return
	}
	d.tree = t
	i := 0
	for i < len(d.treeLog) && d.treeLog[i].edit <= t.edit {
		i++
	}
	d.treeLog = append(d.treeLog[:0], d.treeLog[i:]...)
}

// treeSpan returns the last parsed tree of d and the one span covering the
// edits after it up to edit; ok is false when there is no tree, it is not
// older than edit, or the log misses an edit (s.mu held).
func (d *document) treeSpan(edit int) (*parsedTree, span, bool) {
	t := d.tree
	if t == nil || t.edit >= edit {
		return nil, span{}, false
	}
	var spans []span
	next := t.edit + 1
	for _, e := range d.treeLog {
		if e.edit <= t.edit || e.edit > edit {
			continue
		}
		if e.edit != next {
			return nil, span{}, false
		}
		spans = append(spans, e.spans...)
		next++
	}
	if next != edit+1 || len(spans) == 0 {
		return nil, span{}, false
	}
	return t, joinSpans(spans), true
}

// joinSpans returns the one span that covers the edits spans made one
// after the other: from and to in the first text, n the length of the
// replaced part in the last.
func joinSpans(spans []span) span {
	c := spans[0]
	for _, s := range spans[1:] {
		// the part of the text before s that c and s replaced, [from, end)
		from, end := min(c.from, s.from), max(c.from+c.n, s.to)
		// end is past c's part: in the first text it is c's change of
		// length further back
		to := end - (c.n - (c.to - c.from))
		c = span{from: from, to: to, n: end - from + s.n - (s.to - s.from)}
	}
	return c
}

// spliceTree parses text, the result of replacing [c.from, c.to) of the
// text of old by c.n bytes, re-using old. ok is false when the change is
// not inside one target followed by another in both texts, or the
// target's part does not parse as one target alone; the caller then
// parses the whole text. The chunk says which target was parsed again.
func spliceTree(name string, old *parsedTree, text []byte, lines *ast.LineTable, c span) (*ast.File, ast.Diagnostics, chunk, bool) {
	of := old.file
	if of == nil || of.NotText || of.Fence.IsValid() {
		return nil, nil, chunk{}, false
	}
	delta := c.n - (c.to - c.from)
	from, to, ok := targetChunk(text, c.from, c.from+c.n)
	if !ok {
		return nil, nil, chunk{}, false
	}
	ofrom, oto, ok := targetChunk(of.Src, c.from, c.to)
	if !ok || ofrom != from || oto != to-delta {
		return nil, nil, chunk{}, false
	}
	cf, craw := syntax.Parse(name, text[from:to])
	if cf.NotText || len(cf.Targets) != 1 || cf.Targets[0].Pos().Offset() != 0 ||
		len(cf.Headers) > 0 || len(cf.Defaults) > 0 || len(cf.Templates) > 0 {
		return nil, nil, chunk{}, false
	}
	nf := *of
	nf.Src, nf.Lines = text, lines
	nf.Range = ast.RangeOf(0, len(text))
	b := bounds{from: from, oldTo: oto, delta: delta}
	if nf.Headers, ok = spliceNodes(b, of.Headers, cf.Headers); !ok {
		return nil, nil, chunk{}, false
	}
	if nf.Targets, ok = spliceNodes(b, of.Targets, cf.Targets); !ok {
		return nil, nil, chunk{}, false
	}
	if nf.Defaults, ok = spliceNodes(b, of.Defaults, cf.Defaults); !ok {
		return nil, nil, chunk{}, false
	}
	if nf.Templates, ok = spliceNodes(b, of.Templates, cf.Templates); !ok {
		return nil, nil, chunk{}, false
	}
	if nf.Comments, ok = spliceNodes(b, of.Comments, cf.Comments); !ok {
		return nil, nil, chunk{}, false
	}
	if nf.Bad, ok = spliceNodes(b, of.Bad, cf.Bad); !ok {
		return nil, nil, chunk{}, false
	}
	raw := make(ast.Diagnostics, 0, len(old.raw)+len(craw))
	var inChunk ast.Diagnostics
	for _, d := range old.raw {
		switch b.place(d.Range) {
		case placeBefore:
			raw = append(raw, d)
		case placeInside:
		case placeAfter:
			raw = append(raw, moveDiag(d, delta))
		default:
			return nil, nil, chunk{}, false
		}
	}
	for _, d := range craw {
		if !d.Range.From.IsValid() || d.Range.To.Offset() > to-from {
			return nil, nil, chunk{}, false // about the part as a whole file
		}
		inChunk = append(inChunk, moveDiag(d, from))
	}
	// the parser reports in source order: the part's findings go where
	// its text is
	i := 0
	for i < len(raw) && raw[i].Range.From.IsValid() && raw[i].Range.To.Offset() <= from {
		i++
	}
	raw = append(raw[:i], append(inChunk, raw[i:]...)...)
	return &nf, raw, chunk{from, oto, to}, true
}

// bounds is where a splice replaces a target: [from, oldTo) of the old
// text became delta bytes longer.
type bounds struct{ from, oldTo, delta int }

// The places of an old node relative to the replaced part.
const (
	placeBefore = iota + 1
	placeInside
	placeAfter
)

// place returns where r of the old text lies relative to the replaced
// part, or 0 when it overlaps a boundary (or sits on one, empty).
func (b bounds) place(r ast.Range) int {
	if !r.From.IsValid() {
		return 0
	}
	f, t := r.From.Offset(), r.To.Offset()
	switch {
	case f == t && (f == b.from || f == b.oldTo):
		return 0
	case t <= b.from:
		return placeBefore
	case f >= b.from && t <= b.oldTo:
		return placeInside
	case f >= b.oldTo:
		return placeAfter
	}
	return 0
}

// spliceNodes returns the old nodes before the replaced part, the part's
// nodes (parsed alone, moved to b.from) and shifted copies of the old
// nodes after it; ok is false when an old node overlaps a boundary or the
// old nodes are not in source order around the part.
func spliceNodes[N ast.Node](b bounds, old, part []N) ([]N, bool) {
	if len(old) == 0 && len(part) == 0 {
		return old, true
	}
	var before, after int
	phase := placeBefore
	for _, n := range old {
		pl := b.place(n.Span())
		if pl == 0 || pl < phase {
			return nil, false
		}
		phase = pl
		switch pl {
		case placeBefore:
			before++
		case placeAfter:
			after++
		}
	}
	if before+len(part)+after == 0 {
		return nil, true // as the parser leaves a list it appended nothing to
	}
	out := make([]N, 0, before+len(part)+after)
	out = append(out, old[:before]...)
	out = append(out, ast.Shifted(part, b.from)...)
	out = append(out, ast.Shifted(old[len(old)-after:], b.delta)...)
	return out, true
}

// moveDiag returns a copy of d with its ranges in this file (its own,
// related ones and those of its fixes) moved by delta.
func moveDiag(d *ast.Diagnostic, delta int) *ast.Diagnostic {
	cp := *d
	cp.Range = d.Range.Moved(delta)
	if d.Related != nil {
		cp.Related = make([]ast.Related, len(d.Related))
		for i, r := range d.Related {
			if r.File == "" {
				r.Range = r.Range.Moved(delta)
			}
			cp.Related[i] = r
		}
	}
	if d.Fixes != nil {
		cp.Fixes = make([]ast.Fix, len(d.Fixes))
		for i, f := range d.Fixes {
			edits := make([]ast.TextEdit, len(f.Edits))
			for j, e := range f.Edits {
				e.Range = e.Range.Moved(delta)
				edits[j] = e
			}
			cp.Fixes[i] = ast.Fix{Title: f.Title, Edits: edits}
		}
	}
	return &cp
}
