package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/lang"
)

// signatureHelp answers textDocument/signatureHelp inside the parentheses
// of a function-call op (and on the line of a typed-contract dispatch).
func (s *Server) signatureHelp(_ context.Context, p *protocol.SignatureHelpParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off := byteOffset(snap.lines, p.Position)
	o, args, ok := snap.callAt(off)
	if !ok {
		return nil, nil
	}
	sig := protocol.SignatureInformation{Label: signature(o),
		Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: o.Summary}}
	for _, prm := range o.Params {
		sig.Parameters = append(sig.Parameters, protocol.ParameterInformation{
			Label: protocol.String(prm.Name + "=…"), Documentation: protocol.String(prm.Doc)})
	}
	zero := uint32(0)
	help := &protocol.SignatureHelp{Signatures: []protocol.SignatureInformation{sig}, ActiveSignature: &zero}
	if i := activeParam(o, args, off); i >= 0 {
		help.ActiveParameter = protocol.NewNullable(uint32(i))
	}
	return help, nil
}

// callAt returns the op whose argument list contains off.
func (snap *snapshot) callAt(off int) (lang.OpSpec, []*ast.Arg, bool) {
	path := pathAt(snap.File, off)
	p := ast.PosOf(off)
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.CallStmt:
			if n.Name == nil || p <= n.Lparen || (n.Rparen.IsValid() && p > n.Rparen) {
				continue
			}
			if o, ok := lang.Op(n.Name.Name); ok {
				return o, n.Args, true
			}
		case *ast.DispatchStmt:
			if n.Connector == nil && n.Tool != nil && p > n.Tool.To {
				if o, ok := lang.Op(n.Tool.Name); ok && len(o.Params) > 0 {
					return o, n.Args, true
				}
			}
		}
	}
	return lang.OpSpec{}, nil, false
}

// activeParam returns the index of the parameter being written at off: the
// kwarg whose range holds the cursor, else the first required one missing.
func activeParam(o lang.OpSpec, args []*ast.Arg, off int) int {
	p := ast.PosOf(off)
	for _, a := range args {
		if a.Key != nil && a.From <= p && p <= a.To {
			return paramIndex(o, a.Key.Name)
		}
	}
	given := map[string]bool{}
	for _, a := range args {
		if a.Key != nil {
			given[a.Key.Name] = true
		}
	}
	for i, prm := range o.Params {
		if !given[prm.Name] {
			return i
		}
	}
	return -1
}

// paramIndex returns the index of a parameter, or -1.
func paramIndex(o lang.OpSpec, name string) int {
	for i, prm := range o.Params {
		if prm.Name == name {
			return i
		}
	}
	return -1
}
