// Package highlight classifies the ranges of a parsed skill for colouring:
// keywords, variables, targets, connectors, literals, comments. The
// language server encodes these as semantic tokens and the dashboard
// renders them as HTML spans, so an editor and the operator's review
// colour a skill the same way.
package highlight

import (
	"sort"

	"github.com/skillscript/skillc/ast"
)

// Kind is a token's class. The order is the language server's semantic
// token legend (lsp/semtok.go), which indexes by these values.
type Kind int

// The token kinds.
const (
	Keyword Kind = iota
	Variable
	Function
	Method
	Parameter
	Property
	Number
	Comment
	Namespace
	Type
	EnumMember
	Decorator
	Macro
	String
)

var kindNames = [...]string{"keyword", "variable", "function", "method", "parameter", "property", "number",
	"comment", "namespace", "type", "enumMember", "decorator", "macro", "string"}

// String returns the kind's legend name ("keyword", "enumMember", ...).
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// Names returns the legend names, indexed by Kind.
func Names() []string { return append([]string(nil), kindNames[:]...) }

// Mod is a bit set of token modifiers.
type Mod int

// The token modifiers, bits in the language server's legend order.
const (
	Declaration Mod = 1 << iota
	Readonly
	DefaultLibrary
)

// Token is one classified range.
type Token struct {
	Range ast.Range
	Kind  Kind
	Mods  Mod
}

// Tokens classifies the ranges of f that carry a colour, sorted by start
// and without overlaps. Text outside every token is plain.
func Tokens(f *ast.File) []Token {
	var out []Token
	add := func(r ast.Range, typ Kind, mods Mod) {
		if r.IsValid() && r.To > r.From {
			out = append(out, Token{r, typ, mods})
		}
	}
	if f == nil {
		return nil
	}
	for _, c := range f.Comments {
		add(c.Range, Comment, 0)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		classify(n, add)
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Range.From < out[j].Range.From })
	return dropOverlaps(out)
}

// classify adds the tokens of one node.
func classify(n ast.Node, add func(ast.Range, Kind, Mod)) {
	switch v := n.(type) {
	case *ast.Header:
		if v.Key != nil {
			add(ast.Range{From: v.From, To: v.Key.To}, Macro, 0)
		}
	case *ast.Target:
		if v.Name != nil {
			add(v.Name.Range, Type, Declaration)
		}
		for _, d := range v.Needs {
			add(d.Range, Type, 0)
		}
	case *ast.DefaultDecl:
		add(ast.Range{From: v.From, To: minPos(v.From+7, v.To)}, Keyword, 0)
		if v.Goal != nil {
			add(v.Goal.Range, Type, 0)
		}
	case *ast.NeedsStmt:
		for _, d := range v.Names {
			add(d.Range, Type, 0)
		}
	case *ast.SetStmt:
		add(v.Keyword, Keyword, 0)
		if v.Name != nil {
			add(v.Name.Range, Variable, Declaration)
		}
	case *ast.AppendStmt:
		add(v.Keyword, Keyword, 0)
		if v.Name != nil {
			add(v.Name.Range, Variable, 0)
		}
	case *ast.DispatchStmt:
		classifyDispatch(v, add)
	case *ast.CallStmt:
		if v.Name != nil {
			add(v.Name.Range, Function, DefaultLibrary)
		}
	case *ast.Arg:
		if v.Key != nil {
			add(v.Key.Range, Parameter, 0)
		}
	case *ast.Binding:
		add(v.Arrow, Keyword, 0)
		if v.Name != nil {
			add(v.Name.Range, Variable, Declaration)
		}
	case *ast.Fallback:
		add(v.Keyword, Keyword, 0)
	case *ast.CondClause:
		add(v.Keyword, Keyword, 0)
	case *ast.ForeachStmt:
		add(ast.Range{From: v.From, To: minPos(v.From+7, v.To)}, Keyword, 0)
		if v.Iter != nil {
			add(v.Iter.Range, Variable, Declaration)
		}
		add(v.In, Keyword, 0)
	case *ast.VarDecl:
		if v.Name != nil {
			add(v.Name.Range, Variable, Declaration)
		}
	case *ast.Subst:
		if v.Root != nil {
			add(v.Root.Range, Variable, 0)
		}
		for _, p := range v.Path {
			add(p.Range, Property, 0)
		}
	case *ast.Filter:
		if v.Name != nil {
			add(v.Name.Range, Function, DefaultLibrary)
		}
	case *ast.SecretRef:
		add(v.Range, Decorator, Readonly)
	case *ast.NumberLit:
		add(v.Range, Number, 0)
	case *ast.BoolLit, *ast.NullLit:
		add(v.Span(), EnumMember, 0)
	case *ast.OutputSpec:
		if v.Kind != nil {
			add(v.Kind.Range, EnumMember, 0)
		}
	case *ast.Trigger:
		if v.Source != nil {
			add(v.Source.Range, EnumMember, 0)
		}
	}
}

// classifyDispatch adds the tokens of a $ dispatch.
func classifyDispatch(v *ast.DispatchStmt, add func(ast.Range, Kind, Mod)) {
	add(v.Dollar, Keyword, 0)
	if v.Connector != nil {
		add(v.Connector.Range, Namespace, 0)
		if v.Tool != nil {
			add(v.Tool.Range, Method, 0)
		}
	} else if v.Tool != nil {
		add(v.Tool.Range, Function, DefaultLibrary)
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
func dropOverlaps(toks []Token) []Token {
	var out []Token
	for _, t := range toks {
		if n := len(out); n > 0 && t.Range.From < out[n-1].Range.To {
			if t.Range.From == out[n-1].Range.From && t.Range.To < out[n-1].Range.To {
				out[n-1] = t
			}
			continue
		}
		out = append(out, t)
	}
	return out
}
