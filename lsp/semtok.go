package lsp

import (
	"sort"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// Semantic token types, indexes into semanticLegend().TokenTypes.
const (
	tokKeyword = iota
	tokVariable
	tokFunction
	tokMethod
	tokParameter
	tokProperty
	tokNumber
	tokComment
	tokNamespace
	tokType
	tokEnumMember
	tokDecorator
	tokMacro
	tokString
)

// Semantic token modifiers, bits of semanticLegend().TokenModifiers.
const (
	modDeclaration = 1 << iota
	modReadonly
	modDefaultLibrary
)

// semanticLegend is the legend announced in the capabilities.
func semanticLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{
		TokenTypes: []string{"keyword", "variable", "function", "method", "parameter", "property", "number",
			"comment", "namespace", "type", "enumMember", "decorator", "macro", "string"},
		TokenModifiers: []string{"declaration", "readonly", "defaultLibrary"},
	}
}

// token is one classified range.
type token struct {
	rng       ast.Range
	typ, mods int
}

// tokens classifies the document.
func (snap *snapshot) tokens() []token {
	var out []token
	add := func(r ast.Range, typ, mods int) {
		if r.IsValid() && r.To > r.From {
			out = append(out, token{r, typ, mods})
		}
	}
	for _, c := range snap.File.Comments {
		add(c.Range, tokComment, 0)
	}
	ast.Inspect(snap.File, func(n ast.Node) bool {
		snap.classify(n, add)
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].rng.From < out[j].rng.From })
	return dropOverlaps(out)
}

// classify adds the tokens of one node.
func (snap *snapshot) classify(n ast.Node, add func(ast.Range, int, int)) {
	switch v := n.(type) {
	case *ast.Header:
		if v.Key != nil {
			add(ast.Range{From: v.From, To: v.Key.To}, tokMacro, 0)
		}
	case *ast.Target:
		if v.Name != nil {
			add(v.Name.Range, tokType, modDeclaration)
		}
		for _, d := range v.Needs {
			add(d.Range, tokType, 0)
		}
	case *ast.DefaultDecl:
		add(ast.Range{From: v.From, To: minPos(v.From+7, v.To)}, tokKeyword, 0)
		if v.Goal != nil {
			add(v.Goal.Range, tokType, 0)
		}
	case *ast.NeedsStmt:
		for _, d := range v.Names {
			add(d.Range, tokType, 0)
		}
	case *ast.SetStmt:
		add(v.Keyword, tokKeyword, 0)
		if v.Name != nil {
			add(v.Name.Range, tokVariable, modDeclaration)
		}
	case *ast.AppendStmt:
		add(v.Keyword, tokKeyword, 0)
		if v.Name != nil {
			add(v.Name.Range, tokVariable, 0)
		}
	case *ast.DispatchStmt:
		snap.classifyDispatch(v, add)
	case *ast.CallStmt:
		if v.Name != nil {
			add(v.Name.Range, tokFunction, modDefaultLibrary)
		}
	case *ast.Arg:
		if v.Key != nil {
			add(v.Key.Range, tokParameter, 0)
		}
	case *ast.Binding:
		add(v.Arrow, tokKeyword, 0)
		if v.Name != nil {
			add(v.Name.Range, tokVariable, modDeclaration)
		}
	case *ast.Fallback:
		add(v.Keyword, tokKeyword, 0)
	case *ast.CondClause:
		add(v.Keyword, tokKeyword, 0)
	case *ast.ForeachStmt:
		add(ast.Range{From: v.From, To: minPos(v.From+7, v.To)}, tokKeyword, 0)
		if v.Iter != nil {
			add(v.Iter.Range, tokVariable, modDeclaration)
		}
		add(v.In, tokKeyword, 0)
	case *ast.VarDecl:
		if v.Name != nil {
			add(v.Name.Range, tokVariable, modDeclaration)
		}
	case *ast.Subst:
		if v.Root != nil {
			add(v.Root.Range, tokVariable, 0)
		}
		for _, p := range v.Path {
			add(p.Range, tokProperty, 0)
		}
	case *ast.Filter:
		if v.Name != nil {
			add(v.Name.Range, tokFunction, modDefaultLibrary)
		}
	case *ast.SecretRef:
		add(v.Range, tokDecorator, modReadonly)
	case *ast.NumberLit:
		add(v.Range, tokNumber, 0)
	case *ast.BoolLit, *ast.NullLit:
		add(v.Span(), tokEnumMember, 0)
	case *ast.OutputSpec:
		if v.Kind != nil {
			add(v.Kind.Range, tokEnumMember, 0)
		}
	case *ast.Trigger:
		if v.Source != nil {
			add(v.Source.Range, tokEnumMember, 0)
		}
	}
}

// classifyDispatch adds the tokens of a $ dispatch.
func (snap *snapshot) classifyDispatch(v *ast.DispatchStmt, add func(ast.Range, int, int)) {
	add(v.Dollar, tokKeyword, 0)
	if v.Connector != nil {
		add(v.Connector.Range, tokNamespace, 0)
		if v.Tool != nil {
			add(v.Tool.Range, tokMethod, 0)
		}
	} else if v.Tool != nil {
		add(v.Tool.Range, tokFunction, modDefaultLibrary)
	}
}

func minPos(a, b ast.Pos) ast.Pos {
	if a < b {
		return a
	}
	return b
}

// dropOverlaps keeps the first of overlapping tokens (sorted by start),
// preferring the narrower one when two start together.
func dropOverlaps(toks []token) []token {
	var out []token
	for _, t := range toks {
		if n := len(out); n > 0 && t.rng.From < out[n-1].rng.To {
			if t.rng.From == out[n-1].rng.From && t.rng.To < out[n-1].rng.To {
				out[n-1] = t
			}
			continue
		}
		out = append(out, t)
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
