package lsp

import (
	"context"
	"regexp"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// selectionRange answers textDocument/selectionRange: for each position
// the chain word → ${…} → argument → call → statement → block → target →
// file, innermost first, each range strictly containing the previous.
func (s *Server) selectionRange(_ context.Context, p *protocol.SelectionRangeParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	out := make([]protocol.SelectionRange, 0, len(p.Positions))
	for _, pos := range p.Positions {
		out = append(out, snap.selectionAt(byteOffset(snap.lines, pos), pos))
	}
	return out, nil
}

// reWordChar matches the characters of a word for selection and linked
// editing (names may contain dashes).
var reWordChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w-]$`) })

// wordAt returns the range of the word around off, if any.
func wordAt(src []byte, off int) (ast.Range, bool) {
	from, to := off, off
	for from > 0 && reWordChar().Match(src[from-1:from]) {
		from--
	}
	for to < len(src) && reWordChar().Match(src[to:to+1]) {
		to++
	}
	return ast.RangeOf(from, to), to > from
}

// selectionAt builds the selection chain at off.
func (snap *snapshot) selectionAt(off int, pos protocol.Position) protocol.SelectionRange {
	var ranges []ast.Range // innermost first
	add := func(r ast.Range) {
		if !r.IsValid() || r.To.Offset() > len(snap.src) {
			return
		}
		if n := len(ranges); n > 0 {
			last := ranges[n-1]
			if r == last || !r.Contains(last) {
				return
			}
		}
		ranges = append(ranges, r)
	}
	if w, ok := wordAt(snap.src, off); ok {
		add(w)
	}
	path := pathAt(snap.File, off)
	for i := len(path) - 1; i >= 0; i-- {
		add(path[i].Span())
		if st, ok := path[i].(ast.Stmt); ok {
			add(snap.lineOf(st.Span())) // the statement with its indentation
		}
	}
	add(ast.RangeOf(0, len(snap.src)))
	if len(ranges) == 0 {
		r := protocol.Range{Start: pos, End: pos}
		return protocol.SelectionRange{Range: r}
	}
	var parent *protocol.SelectionRange
	for i := len(ranges) - 1; i >= 0; i-- {
		sr := &protocol.SelectionRange{Range: lspRange(snap.lines, ranges[i]), Parent: parent}
		parent = sr
	}
	return *parent
}

// lineOf widens r to the whole lines it spans (without the last newline).
func (snap *snapshot) lineOf(r ast.Range) ast.Range {
	from, to := r.From.Offset(), r.To.Offset()
	for from > 0 && snap.src[from-1] != '\n' {
		from--
	}
	for to < len(snap.src) && snap.src[to] != '\n' {
		to++
	}
	return ast.RangeOf(from, to)
}

// documentHighlight answers textDocument/documentHighlight: every use of
// the variable, target or secret under the cursor in the document; where
// it is bound or declared is a Write, every other use a Read.
func (s *Server) documentHighlight(_ context.Context, p *protocol.DocumentHighlightParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	sym := snap.symbolAt(byteOffset(snap.lines, p.Position))
	writes := map[ast.Range]bool{}
	switch sym.kind {
	case symVar:
		for _, b := range sym.binds {
			writes[b.Ident.Range] = true
		}
	case symTarget:
		if t := snap.File.Target(sym.name); t != nil && t.Name != nil {
			writes[t.Name.Range] = true
		}
	case symSecret:
		if req, ok := snap.Info.Secrets[sym.name]; ok && req.Key != nil {
			writes[req.Key.Range] = true
		}
	default:
		return []protocol.DocumentHighlight{}, nil
	}
	out := []protocol.DocumentHighlight{}
	for _, r := range snap.occurrences(sym) {
		kind := protocol.DocumentHighlightKindRead
		if writes[r] {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: lspRange(snap.lines, r), Kind: kind})
	}
	return out, nil
}

// declaration answers textDocument/declaration. A skillscript name has one
// place that introduces it (a target's name line, a variable's binding or
// # Vars: entry, a secret's # Requires: entry, a skill's # Skill: line), so
// the declaration is the definition.
func (s *Server) declaration(ctx context.Context, p *protocol.DeclarationParams) (any, error) {
	return s.definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: p.TextDocumentPositionParams})
}

// linkedEditingWord is the word pattern of linked target names.
const linkedEditingWord = `[A-Za-z_][\w-]*`

// linkedEditingRange answers textDocument/linkedEditingRange on a target
// name: its definition and every use in the document (needs entries,
// default:, ${name.output}) are edited together.
func (s *Server) linkedEditingRange(_ context.Context, p *protocol.LinkedEditingRangeParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	sym := snap.symbolAt(byteOffset(snap.lines, p.Position))
	if sym.kind != symTarget || snap.File.Target(sym.name) == nil {
		return nil, nil
	}
	occ := snap.occurrences(sym)
	if len(occ) < 2 {
		return nil, nil
	}
	word := linkedEditingWord
	out := &protocol.LinkedEditingRanges{WordPattern: &word}
	for _, r := range occ {
		out.Ranges = append(out.Ranges, lspRange(snap.lines, r))
	}
	return out, nil
}
