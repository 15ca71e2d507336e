package lsp

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
)

// document is one open text document, keyed by the URI string the client
// sent. Its text is replaced, never mutated, so a snapshot may keep
// referring to an older text while edits arrive. Fields other than
// snapMu and snap are guarded by Server.mu.
type document struct {
	uri     string
	version int32
	text    []byte
	lines   *ast.LineTable
	edit    int // counts text replacements
	deps    int // counts changes of skills this document may call
	// now mirrors edit for analyses running without s.mu, and is -1 once
	// the document closed: an analysis of an older edit stops at its next
	// checkpoint (see superseded).
	now atomic.Int64
	// fullAt is when (unix ns) the last full analysis result reached the
	// carry, or the document opened: an analysis is not stopped once that
	// is progressAfter ago (see superseded).
	fullAt atomic.Int64

	// snapMu serialises analysis of this document; snap caches the latest
	// (dropped when the document leaves the recently used set).
	snapMu sync.Mutex
	snap   atomic.Pointer[snapshot]

	timer *time.Timer // pending debounced diagnostics, or nil

	// The quick first publication after an edit: the parser's findings of
	// the new text plus the rule findings of the last full analysis
	// (carry), moved through the edits made since. parsed holds the
	// parser's findings of edit parsedEdit.
	parsed     ast.Diagnostics
	parsedEdit int
	pre        *preParse // a parse of edit preEdit for the full analysis, or nil
	preEdit    int
	// inc are the parser's findings of the last quick publication and the
	// edits made since, for re-parsing only the edited target next time.
	inc incremental
	// tree is the last parse of the document kept for the incremental
	// parse of the next full analysis, treeLog the spans of the edits
	// since (see incparse.go).
	tree        *parsedTree
	treeLog     []editSpan
	carry       ast.Diagnostics
	carryEdit   int        // the edit whose full analysis carry comes from
	log         []editSpan // the spans of the edits after carryEdit
	fullVersion int32      // newest version whose full diagnostics were sent
	// lane is the last lane step (lane.go); carryLane, when not nil, says
	// that carry was set by the lane step that left it: its local rules'
	// findings are the lane's (keepCarry keeps them when an older whole
	// analysis renews the other rules' findings)
	lane       *laneStep
	carryLane  *lint.Kept
	wholeTimer *time.Timer // the pending whole analysis after a lane step

	// pulled are the newest diagnostics of version pulledVersion, for a
	// client that pulls them.
	pulled        []protocol.Diagnostic
	pulledVersion int32

	// tokens are the semantic tokens last sent, with their result id.
	tokens   []uint32
	tokensID string
}

// stopTimers stops d's pending publications (s.mu held).
func (d *document) stopTimers() {
	if d.timer != nil {
		d.timer.Stop()
	}
	if d.wholeTimer != nil {
		d.wholeTimer.Stop()
	}
}

// progressAfter bounds how long a document being edited goes without a
// full analysis result: an analysis that is superseded is stopped only
// while the last result is younger than this. Without it, edits arriving
// faster than an analysis (a loaded machine, a large document) stopped
// every analysis and the rule findings waited for the typing to pause.
const progressAfter = 250 * time.Millisecond

// superseded returns the checkpoint question of an analysis of edit of
// d: whether the text was replaced (or the document closed) since, and
// the document had a full analysis result recently enough. A superseded
// analysis that runs to its end still serves: its rule findings, moved
// past the edits since, become the carry of the quick publications.
func (d *document) superseded(edit int) func() bool {
	return func() bool {
		now := d.now.Load()
		if now == int64(edit) {
			return false
		}
		return now < 0 || time.Since(time.Unix(0, d.fullAt.Load())) < progressAfter
	}
}

// editSpan is the spans of one edit of a document.
type editSpan struct {
	edit  int
	spans []span
}

// maxLog bounds the edits remembered for moving an older analysis's
// findings to the current text.
const maxLog = 512

// logSpans records the spans of edit (s.mu held).
func (d *document) logSpans(edit int, spans []span) {
	if len(d.log) >= maxLog {
		d.log = append(d.log[:0], d.log[len(d.log)-maxLog/2:]...)
	}
	d.log = append(d.log, editSpan{edit, spans})
}

// spansSince returns the spans of the edits after edit up to the current
// one; ok is false when the log does not hold them all (s.mu held).
func (d *document) spansSince(edit int) ([]span, bool) {
	var out []span
	next := edit + 1
	for _, e := range d.log {
		if e.edit < next {
			continue
		}
		if e.edit != next {
			return nil, false
		}
		out = append(out, e.spans...)
		next++
	}
	return out, next == d.edit+1
}

// incremental is what an incremental re-parse starts from.
type incremental struct {
	ok     bool
	parsed ast.Diagnostics // the parser's findings, in the text before spans
	spans  []span          // the edits since
}

// span is one replacement in byte offsets of the text it applied to:
// [from, to) became n bytes.
type span struct{ from, to, n int }

// applyChanges applies content changes in order and returns the new text
// and the replaced spans.
func applyChanges(text []byte, changes []protocol.TextDocumentContentChangeEvent) ([]byte, []span, error) {
	spans := make([]span, 0, len(changes))
	for _, ch := range changes {
		switch c := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			spans = append(spans, span{0, len(text), len(c.Text)})
			text = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			var sp span
			text, sp = splice(text, c.Range, c.Text)
			spans = append(spans, sp)
		default:
			return text, spans, errors.New("unsupported content change")
		}
	}
	return text, spans, nil
}

// splice replaces the LSP range r of text with s into a new slice.
func splice(text []byte, r protocol.Range, s string) ([]byte, span) {
	from, to := byteOffsetIn(text, r.Start), byteOffsetIn(text, r.End)
	if to < from {
		from, to = to, from
	}
	out := make([]byte, 0, len(text)-(to-from)+len(s))
	out = append(out, text[:from]...)
	out = append(out, s...)
	return append(out, text[to:]...), span{from, to, len(s)}
}

// shiftDiags moves diagnostics through the edits spans. A diagnostic
// whose range touches an edited span is dropped (the next full analysis
// decides about it); so is a related location in the same file.
func shiftDiags(ds ast.Diagnostics, spans []span) ast.Diagnostics {
	out := ds[:0:0]
	for _, d := range ds {
		r, ok := shiftRange(d.Range, spans)
		if !ok {
			continue
		}
		cp := *d
		cp.Range = r
		cp.Related = nil
		for _, rel := range d.Related {
			if rel.File == "" {
				if rel.Range, ok = shiftRange(rel.Range, spans); !ok {
					continue
				}
			}
			cp.Related = append(cp.Related, rel)
		}
		cp.Fixes = shiftFixes(d.Fixes, spans)
		out = append(out, &cp)
	}
	return out
}

// shiftFixes moves the edits of fixes through spans. A fix with an edit
// that a later edit touched is dropped: applied to the new text it would
// change the wrong bytes.
func shiftFixes(fixes []ast.Fix, spans []span) []ast.Fix {
	if len(fixes) == 0 {
		return fixes
	}
	out := make([]ast.Fix, 0, len(fixes))
next:
	for _, f := range fixes {
		edits := make([]ast.TextEdit, len(f.Edits))
		for i, e := range f.Edits {
			r, ok := shiftRange(e.Range, spans)
			if !ok {
				continue next
			}
			edits[i] = ast.TextEdit{Range: r, NewText: e.NewText}
		}
		out = append(out, ast.Fix{Title: f.Title, Edits: edits})
	}
	return out
}

// shiftRange moves r through spans; ok is false when an edit touched it.
func shiftRange(r ast.Range, spans []span) (ast.Range, bool) {
	if !r.From.IsValid() {
		return r, true // not a place in the text
	}
	for _, sp := range spans {
		switch {
		case r.To.Offset() < sp.from:
		case r.From.Offset() > sp.to:
			delta := ast.Pos(sp.n - (sp.to - sp.from))
			r.From += delta
			r.To += delta
		default:
			return r, false
		}
	}
	return r, true
}
