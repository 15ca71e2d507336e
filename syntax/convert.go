package syntax

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/skillscript/skillc/ast"
)

// Conversion from the participle grammar structs to package ast nodes.

func (p *parser) ident(t lexer.Token) *ast.Ident {
	if t.Value == "" {
		return nil
	}
	return p.newIdent(tokRange(t), t.Value)
}

func (p *parser) convStmt(s *gStmt) ast.Stmt {
	switch {
	case s.Set != nil:
		return p.convSet(s.Set)
	case s.Append != nil:
		return p.convAppend(s.Append)
	case s.Dispatch != nil:
		return p.convDispatch(s.Dispatch)
	default:
		return p.convCall(s.Call)
	}
}

func (p *parser) convSet(g *gSet) ast.Stmt {
	r := tokensRange(g.Tokens)
	st := &ast.SetStmt{Range: r, Keyword: tokRange(g.Kw), Name: p.ident(g.Name)}
	if g.Eq.Value != "" {
		st.Eq = ast.PosOf(g.Eq.Pos.Offset)
	}
	if g.Value != nil {
		st.Value = p.convValue(g.Value)
	}
	switch {
	case st.Name == nil:
		p.errorf("malformed-op-grammar", r, "$set needs a variable name: $set NAME = value")
	case g.Eq.Value == "":
		p.errorf("malformed-op-grammar", r, "$set needs \"=\" between the name and the value: $set %s = value", st.Name.Name).
			WithFix("insert \" =\"", ast.Range{From: st.Name.To, To: st.Name.To}, " =")
	case st.Value == nil:
		p.errorf("malformed-op-grammar", r, "$set %s has no value after \"=\"; use \"\" for an empty string", st.Name.Name)
	}
	return st
}

func (p *parser) convAppend(g *gAppend) ast.Stmt {
	r := tokensRange(g.Tokens)
	st := &ast.AppendStmt{Range: r, Keyword: tokRange(g.Kw), Name: p.ident(g.Name)}
	if g.Value != nil {
		st.Value = p.convValue(g.Value)
	}
	switch {
	case st.Name == nil:
		p.errorf("malformed-op-grammar", r, "$append needs a variable name: $append NAME value")
	case st.Value == nil:
		p.errorf("malformed-op-grammar", r, "$append %s has no value to append", st.Name.Name)
	}
	return st
}

func (p *parser) convDispatch(g *gDispatch) ast.Stmt {
	r := tokensRange(g.Tokens)
	st := &ast.DispatchStmt{Range: r, Dollar: tokRange(g.Dollar)}
	switch {
	case g.Target.Type == tDotted:
		dot := strings.IndexByte(g.Target.Value, '.')
		off := g.Target.Pos.Offset
		st.Connector = &ast.Ident{Range: ast.RangeOf(off, off+dot), Name: g.Target.Value[:dot]}
		st.Dot = ast.PosOf(off + dot)
		st.Tool = &ast.Ident{Range: ast.RangeOf(off+dot+1, off+len(g.Target.Value)), Name: g.Target.Value[dot+1:]}
	case g.Target.Value != "":
		st.Tool = p.ident(g.Target)
	default:
		p.errorf("malformed-op-grammar", r, "\"$\" must be followed by a connector and tool (\"$ conn.tool k=v\") or a typed-contract op (\"$ llm prompt=...\")")
	}
	st.Args, st.Positional = p.convItems(g.Items)
	st.Bind, st.Fallback = p.convTrailers(g.Trailer)
	return st
}

func (p *parser) convCall(g *gCall) ast.Stmt {
	r := tokensRange(g.Tokens)
	st := &ast.CallStmt{Range: r, Name: p.ident(g.Name), Rparen: ast.PosOf(g.Rparen.Pos.Offset)}
	st.Lparen = ast.PosOf(g.Name.Pos.Offset + len(g.Name.Value))
	for _, t := range g.Tokens {
		if t.Value == "(" {
			st.Lparen = ast.PosOf(t.Pos.Offset)
			break
		}
	}
	st.Args, st.Positional = p.convItems(g.Items)
	st.Bind, st.Fallback = p.convTrailers(g.Trailer)
	return st
}

func (p *parser) convItems(items []*gItem) ([]*ast.Arg, []ast.Expr) {
	var args []*ast.Arg
	var pos []ast.Expr
	for _, it := range items {
		if it.Arg != nil {
			args = append(args, p.convArg(it.Arg))
		} else {
			pos = append(pos, p.convValue(it.Value))
		}
	}
	return args, pos
}

func (p *parser) convArg(g *gArg) *ast.Arg {
	r := tokensRange(g.Tokens)
	a := &ast.Arg{Range: r}
	switch {
	case g.Key.Value != "":
		a.Key = p.ident(g.Key)
		a.Eq = tokRange(g.Eq)
		if g.Value != nil {
			a.Value = p.convValue(g.Value)
		}
	case g.ColonKey.Value != "":
		off := g.ColonKey.Pos.Offset
		name := strings.TrimSuffix(g.ColonKey.Value, ":")
		a.Key = &ast.Ident{Range: ast.RangeOf(off, off+len(name)), Name: name}
		a.Eq = ast.RangeOf(off+len(name), off+len(name)+1)
		a.Colon = true
		if g.CValue != nil {
			a.Value = p.convValue(g.CValue)
		}
	default:
		off := g.ColonWord.Pos.Offset
		i := strings.IndexByte(g.ColonWord.Value, ':')
		a.Key = &ast.Ident{Range: ast.RangeOf(off, off+i), Name: g.ColonWord.Value[:i]}
		a.Eq = ast.RangeOf(off+i, off+i+1)
		a.Colon = true
		a.Value = p.scalarAt(off+i+1, off+len(g.ColonWord.Value))
	}
	if a.Value == nil {
		p.errorf("malformed-op-grammar", r, "argument %s has no value; write %s=\"...\"", a.Key.Name, a.Key.Name)
	}
	return a
}

func (p *parser) convTrailers(ts []*gTrailer) (*ast.Binding, *ast.Fallback) {
	var b *ast.Binding
	var f *ast.Fallback
	for _, t := range ts {
		switch {
		case t.Bind != nil:
			nb := &ast.Binding{Range: tokensRange(t.Bind.Tokens), Arrow: tokRange(t.Bind.Arrow), Name: p.ident(t.Bind.Name)}
			if nb.Name == nil {
				p.errorf("malformed-op-grammar", nb.Range, "\"->\" must be followed by a variable name")
			}
			if b != nil {
				p.errorf("malformed-op-grammar", nb.Range, "an op binds at most one variable")
			}
			b = nb
		case t.Fallback != nil:
			nf := p.convFallback(t.Fallback)
			if f != nil {
				p.errorf("malformed-op-grammar", nf.Range, "an op takes at most one (fallback: ...)")
			}
			f = nf
		}
	}
	if f != nil && b == nil {
		p.errorf("malformed-op-grammar", f.Range, "(fallback: ...) needs a \"-> VAR\" binding to bind the fallback value to")
	}
	return b, f
}

func (p *parser) convFallback(g *gFallback) *ast.Fallback {
	f := &ast.Fallback{Range: tokensRange(g.Tokens)}
	key := g.Key
	if key.Value == "" {
		key = g.Word
	}
	off := key.Pos.Offset
	colon := strings.IndexByte(key.Value, ':')
	f.Keyword = ast.RangeOf(off, off+colon)
	if name := key.Value[:colon]; name != "fallback" {
		p.errorf("malformed-op-grammar", f.Keyword, "unknown trailer (%s: ...): the only trailer is (fallback: value)", name)
	}
	switch {
	case g.Value != nil:
		f.Value = p.convValue(g.Value)
	case g.Word.Value != "":
		if strings.HasPrefix(key.Value[colon+1:], ":") {
			p.errorf("malformed-op-grammar", f.Range, "malformed fallback %q: write (fallback: value)", key.Value)
		}
		f.Value = p.scalarAt(off+colon+1, off+len(key.Value))
	}
	return f
}

// scalarAt converts src[from:to], the value glued to a "key:" prefix
// ("fallback:5"), exactly as it would be converted with a space after the
// colon: a single scalar token becomes its literal, anything else a bare word.
func (p *parser) scalarAt(from, to int) ast.Expr {
	mark := p.lexMark()
	defer p.lexRelease(mark)
	toks, comments := p.lex(from, to)
	if len(comments) == 0 && len(toks) == 2 && toks[1].typ == lexer.EOF && isScalarTok(toks[0].typ) {
		return p.convScalar(p.token(toks[0]))
	}
	return p.bareWord(from, to)
}

func isScalarTok(t lexer.TokenType) bool {
	switch t {
	case tString, tSString, tTriple, tNumber, tIdent, tDotted, tWord, tSubst, tLegacy, tSecret, tColonWord:
		return true
	}
	return false
}

func (p *parser) bareWord(from, to int) *ast.BareWord {
	return &ast.BareWord{Range: ast.RangeOf(from, to), Raw: p.text[from:to], Value: textParser{p: p}.parse(from, to)}
}

func (p *parser) convValue(g *gValue) ast.Expr {
	switch {
	case g.List != nil:
		l := &ast.ListLit{Range: tokensRange(g.List.Tokens)}
		for _, e := range g.List.Elems {
			l.Elems = append(l.Elems, p.convValue(e))
		}
		return l
	case g.Object != nil:
		return p.convObject(g.Object)
	}
	return p.convScalar(g.Scalar)
}

func (p *parser) convObject(g *gObject) ast.Expr {
	o := &ast.ObjectLit{Range: tokensRange(g.Tokens)}
	for _, e := range g.Entries {
		ent := &ast.ObjEntry{Range: tokensRange(e.Tokens)}
		if e.ColonKey.Value != "" {
			off := e.ColonKey.Pos.Offset
			ent.Key = p.bareWord(off, off+len(e.ColonKey.Value)-1)
		} else {
			ent.Key = p.convScalar(e.Key)
		}
		if e.Value != nil {
			ent.Value = p.convValue(e.Value)
		} else {
			p.errorf("malformed-op-grammar", ent.Range, "object entry has no value")
		}
		o.Entries = append(o.Entries, ent)
	}
	return o
}

func (p *parser) convScalar(t lexer.Token) ast.Expr {
	from, to := t.Pos.Offset, t.Pos.Offset+len(t.Value)
	r := ast.RangeOf(from, to)
	switch t.Type {
	case tString, tSString, tTriple:
		return p.stringLit(from, to)
	case tBadString:
		return p.badString(from, to)
	case tNumber:
		v, err := strconv.ParseFloat(t.Value, 64)
		if err != nil {
			p.errorf("parse-error", r, "bad number %q", t.Value)
		}
		return p.number(r, t.Value, v)
	case tSubst, tLegacy:
		return p.parseSubst(from, to, false)
	case tSecret:
		return p.parseSecret(from, to)
	case tIdent:
		switch t.Value {
		case "true", "false":
			return &ast.BoolLit{Range: r, Value: t.Value == "true"}
		case "null":
			return &ast.NullLit{Range: r}
		}
	}
	return p.bareWord(from, to)
}

func (p *parser) badString(from, to int) ast.Expr {
	what := "string"
	if strings.HasPrefix(p.text[from:to], `"""`) {
		what = "triple-quoted string"
	}
	p.errorf("parse-error", ast.RangeOf(from, from+1), "unterminated %s: close it with its quote on the same line (use \"\"\"...\"\"\" for text spanning lines)", what)
	inner := min(from+1, to)
	return &ast.StringLit{Range: ast.RangeOf(from, to), Raw: p.text[from:to], Value: textParser{p: p, escapes: true}.parse(inner, to)}
}

// Conditions.

func (p *parser) convCond(g *gCond) ast.Cond {
	c := p.convAnd(g.Left)
	for _, t := range g.Rest {
		y := p.convAnd(t.Right)
		c = &ast.LogicalCond{Range: c.Span().Join(y.Span()), X: c, Op: ast.OpOr, OpRg: tokRange(t.Op), Y: y}
	}
	return c
}

func (p *parser) convAnd(g *gAnd) ast.Cond {
	c := p.convNot(g.Left)
	for _, t := range g.Rest {
		y := p.convNot(t.Right)
		c = &ast.LogicalCond{Range: c.Span().Join(y.Span()), X: c, Op: ast.OpAnd, OpRg: tokRange(t.Op), Y: y}
	}
	return c
}

func (p *parser) convNot(g *gNot) ast.Cond {
	if g.Inner != nil {
		x := p.convNot(g.Inner)
		return &ast.NotCond{Range: tokensRange(g.Tokens), Not: tokRange(g.Not), X: x}
	}
	return p.convPrim(g.Prim)
}

var cmpOps = map[string]ast.CondOp{
	"==": ast.OpEq, "!=": ast.OpNe, "<": ast.OpLt, ">": ast.OpGt, "<=": ast.OpLe, ">=": ast.OpGe,
	"in": ast.OpIn, "notin": ast.OpNotIn, "=": ast.OpAssign,
}

func (p *parser) convPrim(g *gPrim) ast.Cond {
	r := tokensRange(g.Tokens)
	if g.Paren != nil {
		return &ast.ParenCond{Range: r, X: p.convCond(g.Paren)}
	}
	x := p.convOperand(g.Left)
	if g.Cmp == nil {
		return &ast.TruthyCond{Range: r, X: x}
	}
	name := g.Cmp.Op.Value
	opr := tokRange(g.Cmp.Op)
	if g.Cmp.Not.Value != "" {
		opr = tokRange(g.Cmp.Not).Join(opr)
		if name != "in" {
			p.errorf("invalid-conditional-syntax", opr, "\"not\" here must be followed by \"in\" (write \"X not in LIST\", or \"not X %s Y\")", name)
		}
		name = "not" + name
	}
	c := &ast.CompareCond{Range: r, X: x, Op: cmpOps[name], OpRg: opr, Y: p.convOperand(g.Cmp.Right)}
	if c.Op == ast.OpAssign {
		p.singleEquals(opr)
	}
	return c
}

// singleEquals reports the "=" at opr in a condition, with the fix to
// "==". Both paths report it, right after building the comparison.
func (p *parser) singleEquals(opr ast.Range) {
	p.errorf("single-equals", opr, "\"=\" is not valid in a condition; use \"==\" for equality").
		WithFix("replace = with ==", opr, "==")
}

func (p *parser) convOperand(g *gOperand) ast.Expr {
	t := g.Tok
	switch t.Type {
	case tIdent, tWord, tDotted, tColonWord:
		return p.bareOperand(t.Pos.Offset, t.Pos.Offset+len(t.Value))
	}
	return p.convScalar(t)
}

// bareOperand reports the bare word src[from:to] used as a condition
// operand, with the fix that quotes it, and returns it. Both paths call
// it when they build the operand.
func (p *parser) bareOperand(from, to int) ast.Expr {
	r, v := ast.RangeOf(from, to), p.text[from:to]
	p.errorf("invalid-conditional-syntax", r, "bare word %q in a condition: compare against a quoted literal (%q) or a ${...} reference", v, v).
		WithFix("quote it", r, strconv.Quote(v))
	return p.bareWord(from, to)
}
