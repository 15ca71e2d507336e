package lsp

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
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
	inc         incremental
	carry       ast.Diagnostics
	fullVersion int32 // newest version whose full diagnostics were sent

	// pulled are the newest diagnostics of version pulledVersion, for a
	// client that pulls them.
	pulled        []protocol.Diagnostic
	pulledVersion int32

	// tokens are the semantic tokens last sent, with their result id.
	tokens   []uint32
	tokensID string
}

// superseded returns the checkpoint question of an analysis of edit of
// d: whether the text was replaced (or the document closed) since.
func (d *document) superseded(edit int) func() bool {
	return func() bool { return d.now.Load() != int64(edit) }
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
		out = append(out, &cp)
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
