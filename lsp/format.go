package lsp

import (
	"bytes"
	"context"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// Formatter formats a skill source in the `skillc fmt` layout.
type Formatter func(name string, src []byte) ([]byte, error)

// formatting answers textDocument/formatting with one edit replacing the
// whole document (none when it is already formatted or has syntax errors).
func (s *Server) formatting(_ context.Context, p *protocol.DocumentFormattingParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if isSkillMD(snap.uri) {
		return []protocol.TextEdit{}, nil // Markdown, not skillscript
	}
	format := s.opts.Format
	if format == nil {
		format = defaultFormatter()
	}
	out, err := format(docName(snap.uri), snap.src)
	if err != nil {
		// A document with errors is left as it is: editors format on save,
		// and an error reply would pop up on every save of a broken file.
		s.logf("not formatting %s: %v", snap.uri, err)
		return []protocol.TextEdit{}, nil
	}
	if bytes.Equal(out, snap.src) {
		return []protocol.TextEdit{}, nil
	}
	whole := lspRange(snap.lines, ast.RangeOf(0, len(snap.src)))
	return []protocol.TextEdit{{Range: whole, NewText: string(out)}}, nil
}
