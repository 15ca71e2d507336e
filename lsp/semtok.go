package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/format/highlight"
)

// semanticLegend is the legend announced in the capabilities.
func semanticLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{
		TokenTypes:     highlight.Names(),
		TokenModifiers: []string{"declaration", "readonly", "defaultLibrary"},
	}
}

// token is one classified range.
type token struct {
	rng       ast.Range
	typ, mods int
}

// tokens classifies the document (the shared classifier of
// internal/format/highlight, whose kinds and modifiers are this legend's indexes
// and bits).
func (snap *snapshot) tokens() []token {
	hs := highlight.Tokens(snap.File)
	out := make([]token, len(hs))
	for i, t := range hs {
		out[i] = token{t.Range, int(t.Kind), int(t.Mods)}
	}
	return out
}

// encodeTokens encodes tokens in the relative LSP format, splitting
// multi-line tokens into one token per line.
func encodeTokens(lines *ast.LineTable, toks []token) []uint32 {
	data := []uint32{}
	var prevLine, prevChar uint32
	emit := func(from, to int, typ, mods int) {
		start, end := lspPosition(lines, from), lspPosition(lines, to)
		if end.Character <= start.Character {
			return
		}
		dl := start.Line - prevLine
		dc := start.Character
		if dl == 0 {
			dc -= prevChar
		}
		data = append(data, dl, dc, end.Character-start.Character, uint32(typ), uint32(mods))
		prevLine, prevChar = start.Line, start.Character
	}
	for _, t := range toks {
		from, to := t.rng.From.Offset(), t.rng.To.Offset()
		for from < to {
			line := lines.Position(ast.PosOf(from)).Line
			end := min(lines.LineEnd(line), to)
			emit(from, end, t.typ, t.mods)
			next := lines.LineStart(line + 1)
			if next <= from || line >= lines.LineCount() {
				break
			}
			from = next
		}
	}
	return data
}
