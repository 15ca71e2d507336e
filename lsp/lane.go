package lsp

import (
	"runtime/debug"
	"time"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

// The local lane (decision LT1). After an edit of a large document the
// debounced publication first tries a lane step (lint.Lane): the edited
// target alone is checked against the facts of the last whole analysis
// and the local rules run over it, their findings elsewhere taken over
// from the step before; the publication holds the parser's findings, the
// lane's and the other rules' findings of the last whole analysis moved
// through the edits since. The whole analysis (checker and every rule
// over the whole file) runs when typing pauses for the full-analysis
// delay, and at the latest fullMaxStale after the last whole result while
// typing goes on. When the lane cannot answer (an edit across targets or
// of a header, a changed interface, no whole analysis yet...), the whole
// analysis runs at once, as it did before the lane.

// DefaultFullDelay is the quiet time after the last edit before the whole
// analysis runs when edits are answered by the local lane.
const DefaultFullDelay = 300 * time.Millisecond

// fullMaxStale bounds how long the whole-file findings lag behind while
// typing goes on without a pause: the whole analysis then runs at the
// latest this long after the last whole result.
const fullMaxStale = time.Second

// laneStep is the last lane step of a document.
type laneStep struct {
	edit int
	text []byte
	kept *lint.Kept
	gen  int
}

// fullDelay returns the delay of the whole analysis after a lane step; 0
// when every edit gets the whole analysis (no lane).
func (s *Server) fullDelay() time.Duration {
	s.settings.mu.Lock()
	d := s.settings.fullDelay
	s.settings.mu.Unlock()
	if d != nil {
		return max(*d, 0)
	}
	switch {
	case s.opts.FullDelay == 0:
		return DefaultFullDelay
	case s.opts.FullDelay < 0:
		return 0
	}
	return s.opts.FullDelay
}

// publishLane is the debounced publication of version v of u: a lane step
// when one applies, else the whole analysis.
func (s *Server) publishLane(u string, v int32) {
	defer s.recoverPublish(u)
	if s.fullDelay() > 0 && s.defaultAnalyzer && s.laneStep(u, v) {
		return
	}
	s.publish(u, v)
}

// laneStep answers version v of u with a lane step; it reports false when
// none applies (the caller runs the whole analysis), true when it
// published or there is nothing left to publish for v. A panic of the
// step is logged and answered by the whole analysis.
func (s *Server) laneStep(u string, v int32) (done bool) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic in the local lane of %s: %v\n%s", u, r, debug.Stack())
			done = false
		}
	}()
	s.mu.Lock()
	d := s.docs[u]
	if d == nil || d.version != v || d.fullVersion >= v {
		s.mu.Unlock()
		return true
	}
	edit, text, lines := d.edit, d.text, d.lines
	var base *laneStep
	if t := d.tree; t != nil && t.kept != nil && t.file != nil {
		base = &laneStep{edit: t.edit, text: t.file.Src, kept: t.kept, gen: t.gen}
	}
	if l := d.lane; l != nil && (base == nil || l.edit > base.edit) {
		base = l
	}
	var c span
	ok := base != nil && base.edit < edit && d.parsedEdit == edit
	if ok {
		c, ok = d.spanAfter(base.edit, edit)
	}
	parsed, carry := d.parsed, d.carry
	s.mu.Unlock()
	if !ok {
		return false
	}
	env, gen := s.ws.env(u)
	if gen != base.gen {
		return false
	}
	delta := c.n - (c.to - c.from)
	from, to, ok := targetChunk(text, c.from, c.from+c.n)
	if !ok {
		return false
	}
	ofrom, oto, ok := targetChunk(base.text, c.from, c.to)
	if !ok || ofrom != from || oto != to-delta {
		return false
	}
	var ctx lint.Context
	var opts lint.Options
	if env != nil && env.Lint != nil {
		ctx, opts = *env.Lint, env.LintOptions
	}
	ctx.FilePath = docName(u)
	if opts.Rules == nil {
		opts.Rules = rulesets.All()
	}
	ds, kept, ok := lint.Lane(base.kept, text, lines, from, oto, to, &ctx, opts)
	if !ok {
		return false
	}
	if s.opts.laned != nil {
		s.opts.laned(u)
	}
	// the lane's findings replace the local rules' of the carry
	nc := make(ast.Diagnostics, 0, len(ds)+len(carry))
	nc = append(nc, ds...)
	for _, d := range carry {
		if !kept.Local(d.Rule) {
			nc = append(nc, d)
		}
	}
	s.mu.Lock()
	current := d.edit == edit
	if current {
		d.lane = &laneStep{edit: edit, text: text, kept: kept, gen: gen}
		d.carry, d.carryEdit, d.carryLane = nc, edit, kept
	}
	s.mu.Unlock()
	if !current {
		return true // a newer edit has its own publication coming
	}
	all := make(ast.Diagnostics, 0, len(parsed)+len(nc))
	all = append(append(all, parsed...), nc...)
	all.Sort()
	s.send(u, v, s.lspDiagnosticsOf(u, lines, all), false)
	s.mu.Lock()
	if s.docs[u] == d && d.edit == edit {
		s.armWholeLocked(d)
	}
	s.mu.Unlock()
	return true
}

// armWholeLocked (re)arms the whole analysis of d after a lane step: the
// full-analysis delay after this edit, but no later than fullMaxStale
// after the last whole result (s.mu held).
func (s *Server) armWholeLocked(d *document) {
	if d.wholeTimer != nil {
		d.wholeTimer.Stop()
	}
	wait := s.fullDelay()
	maxStale := fullMaxStale
	if s.opts.maxStale > 0 {
		maxStale = s.opts.maxStale
	}
	if stale := time.Until(time.Unix(0, d.fullAt.Load()).Add(maxStale)); stale < wait {
		wait = max(stale, 0)
	}
	u := d.uri
	d.wholeTimer = time.AfterFunc(wait, func() {
		s.mu.Lock()
		cur := s.docs[u] == d
		v := d.version
		s.mu.Unlock()
		if cur {
			s.publish(u, v)
		}
	})
}

// lspDiagnosticsOf converts ds of u (lines its line table).
func (s *Server) lspDiagnosticsOf(u string, lines *ast.LineTable, ds ast.Diagnostics) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, s.lspDiagnosticIn(u, lines, d))
	}
	return out
}

// spanAfter returns the one span covering the edits after base up to
// edit; ok is false when the log misses one (s.mu held).
func (d *document) spanAfter(base, edit int) (span, bool) {
	var spans []span
	next := base + 1
	for _, e := range d.treeLog {
		if e.edit <= base || e.edit > edit {
			continue
		}
		if e.edit != next {
			return span{}, false
		}
		spans = append(spans, e.spans...)
		next++
	}
	if next != edit+1 || len(spans) == 0 {
		return span{}, false
	}
	return joinSpans(spans), true
}
