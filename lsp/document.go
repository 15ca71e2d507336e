package lsp

import (
	"errors"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// document is one open text document, keyed by the URI string the client
// sent. Its text is replaced, never mutated, so a snapshot may keep
// referring to an older text while edits arrive.
type document struct {
	uri     string
	version int32
	text    []byte
	lines   *ast.LineTable
	edit    int // counts text replacements

	// snapMu serialises analysis of this document; snap caches the latest.
	snapMu sync.Mutex
	snap   *snapshot

	timer *time.Timer // pending debounced diagnostics, or nil
}

// applyChanges applies content changes in order and returns the new text.
func applyChanges(text []byte, changes []protocol.TextDocumentContentChangeEvent) ([]byte, error) {
	for _, ch := range changes {
		switch c := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			text = splice(text, c.Range, c.Text)
		default:
			return text, errors.New("unsupported content change")
		}
	}
	return text, nil
}

// splice replaces the LSP range r of text with s into a new slice.
func splice(text []byte, r protocol.Range, s string) []byte {
	lines := ast.NewLineTable(text)
	from, to := byteOffset(lines, r.Start), byteOffset(lines, r.End)
	if to < from {
		from, to = to, from
	}
	out := make([]byte, 0, len(text)-(to-from)+len(s))
	out = append(out, text[:from]...)
	out = append(out, s...)
	return append(out, text[to:]...)
}
