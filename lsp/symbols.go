package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// documentSymbol answers textDocument/documentSymbol: headers (with their
// declared names), targets with their ops, and default:.
func (s *Server) documentSymbol(_ context.Context, p *protocol.DocumentSymbolParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentSymbol{}
	for _, h := range snap.File.Headers {
		out = append(out, snap.headerSymbol(h))
	}
	for _, t := range snap.File.Targets {
		if t.Name != nil {
			out = append(out, snap.targetSymbol(t))
		}
	}
	for _, d := range snap.File.Defaults {
		name := "default"
		if d.Goal != nil {
			name = "default: " + d.Goal.Name
		}
		out = append(out, snap.docSymbol(name, "", protocol.SymbolKindKey, d.Range, d.Range))
	}
	return out, nil
}

// docSymbol builds one symbol.
func (snap *snapshot) docSymbol(name, detail string, kind protocol.SymbolKind, full, sel ast.Range) protocol.DocumentSymbol {
	ds := protocol.DocumentSymbol{Name: name, Kind: kind, Range: lspRange(snap.lines, full), SelectionRange: lspRange(snap.lines, sel)}
	if detail != "" {
		ds.Detail = &detail
	}
	return ds
}

// headerSymbol describes a header; # Vars: and # Returns: list their names.
func (snap *snapshot) headerSymbol(h *ast.Header) protocol.DocumentSymbol {
	key := "# " + h.Kind.String() + ":"
	if h.Kind == ast.HeaderUnknown && h.Key != nil {
		key = "# " + h.Key.Name + ":"
	}
	ds := snap.docSymbol(key, oneLine(h.Value), protocol.SymbolKindProperty, h.Range, h.Range)
	for _, v := range h.Vars {
		if v.Name != nil {
			ds.Children = append(ds.Children, snap.docSymbol(v.Name.Name, "", protocol.SymbolKindVariable, v.Range, v.Name.Range))
		}
	}
	if h.Kind == ast.HeaderReturns {
		for _, id := range h.Names {
			ds.Children = append(ds.Children, snap.docSymbol(id.Name, "", protocol.SymbolKindVariable, id.Range, id.Range))
		}
	}
	return ds
}

// targetSymbol describes a target and its statements.
func (snap *snapshot) targetSymbol(t *ast.Target) protocol.DocumentSymbol {
	var deps []string
	for _, n := range t.Needs {
		deps = append(deps, n.Name)
	}
	detail := ""
	if len(deps) > 0 {
		detail = "needs " + strings.Join(deps, ", ")
	}
	ds := snap.docSymbol(t.Name.Name, detail, protocol.SymbolKindFunction, t.Range, t.Name.Range)
	if t.Body != nil {
		ds.Children = snap.stmtSymbols(t.Body.Stmts)
	}
	if t.Else != nil && t.Else.Body != nil {
		e := snap.docSymbol("else", "error handler", protocol.SymbolKindEvent, t.Else.Range, t.Else.Range)
		e.Children = snap.stmtSymbols(t.Else.Body.Stmts)
		ds.Children = append(ds.Children, e)
	}
	return ds
}

// stmtSymbols describes statements, nesting blocks.
func (snap *snapshot) stmtSymbols(stmts []ast.Stmt) []protocol.DocumentSymbol {
	var out []protocol.DocumentSymbol
	for _, st := range stmts {
		name := oneLine(strings.TrimSpace(firstLine(snap.text(st.Span()))))
		kind := protocol.SymbolKindMethod
		var children []protocol.DocumentSymbol
		switch n := st.(type) {
		case *ast.SetStmt, *ast.AppendStmt:
			kind = protocol.SymbolKindVariable
		case *ast.IfStmt:
			kind = protocol.SymbolKindOperator
			for _, c := range n.Clauses {
				if c.Body != nil {
					children = append(children, snap.stmtSymbols(c.Body.Stmts)...)
				}
			}
			if n.Else != nil && n.Else.Body != nil {
				children = append(children, snap.stmtSymbols(n.Else.Body.Stmts)...)
			}
		case *ast.ForeachStmt:
			kind = protocol.SymbolKindArray
			if n.Body != nil {
				children = snap.stmtSymbols(n.Body.Stmts)
			}
		case *ast.NeedsStmt, *ast.BadStmt:
			continue
		}
		if name == "" {
			continue
		}
		ds := snap.docSymbol(name, "", kind, st.Span(), st.Span())
		ds.Children = children
		out = append(out, ds)
	}
	return out
}

// foldingRange answers textDocument/foldingRange: the header block,
// targets, else handlers, if/foreach blocks, # Tests: and multi-line
// strings.
func (s *Server) foldingRange(_ context.Context, p *protocol.FoldingRangeParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	add := func(r ast.Range, kind protocol.FoldingRangeKind) {
		if !r.IsValid() || r.To <= r.From {
			return
		}
		start, end := snap.line(r.From), snap.line(r.To-1)
		if end > start {
			out = append(out, protocol.FoldingRange{StartLine: uint32(start - 1), EndLine: uint32(end - 1), Kind: kind})
		}
	}
	if n := len(snap.File.Headers); n > 1 {
		add(snap.File.Headers[0].Range.Join(snap.File.Headers[n-1].Range), protocol.FoldingRangeKindRegion)
	}
	ast.Inspect(snap.File, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.Target, *ast.ElseBlock, *ast.CondClause, *ast.ForeachStmt, *ast.TestsBlock, *ast.Template:
			add(v.Span(), protocol.FoldingRangeKindRegion)
		case *ast.StringLit:
			if v.Kind == ast.TripleQuoted {
				add(v.Range, protocol.FoldingRangeKindRegion)
			}
		}
		return true
	})
	return out, nil
}
