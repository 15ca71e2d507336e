package lsp

import (
	"bytes"
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// Formatter formats a skill source in the `skillc fmt` layout.
type Formatter func(name string, src []byte) ([]byte, error)

// formatting answers textDocument/formatting with one edit replacing the
// whole document (none when it is already formatted).
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
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "cannot format: %v", err)
	}
	if bytes.Equal(out, snap.src) {
		return []protocol.TextEdit{}, nil
	}
	whole := lspRange(snap.lines, ast.RangeOf(0, len(snap.src)))
	return []protocol.TextEdit{{Range: whole, NewText: string(out)}}, nil
}
