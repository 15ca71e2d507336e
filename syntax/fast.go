package syntax

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/skillscript/skillc/ast"
)

// The fast path: package ast nodes built straight from the tokens of a
// clean statement, condition or value.
//
// Participle explores the grammar in grammar.go by trying alternatives in
// order and backtracking, and its result still has to be converted
// (convert.go). Almost every real statement is well formed and has nothing
// to diagnose, and for those the alternative to take is decided by the next
// one or two tokens. fastBuilder walks the same grammar with that fixed
// lookahead and builds the nodes the conversion would build, in one pass
// and without the grammar structs.
//
// It never backtracks over a token it has consumed and reports only two
// problems itself, a single "=" in a comparison and a bare word as a
// condition operand ([parser.singleEquals], [parser.bareOperand], shared
// with the conversion and called at the same point of the walk):
// whenever else the input is not a clean match, or the conversion would
// report a problem, it gives up, and the caller parses the input the slow
// way (participle, then convert.go), which produces the usual diagnostics. Problems found below the statement level (an unterminated
// substitution in a string, ...) are reported by helpers both paths share,
// called in the same order on the same text, so a build that succeeds
// keeps them; one that gives up drops what the helpers reported before it
// did, for the slow path to report again (see [parser.fastOK]).
// TestFastPath and FuzzFastPath compare the two paths' trees and
// diagnostics on every input they see. The grammars this file
// mirrors are pinned in testdata/syntax/golden/grammar.txtar
// (TestGrammarGolden): when that file changes, check this one.
// TestFastPathShare fails when the share of inputs taken here drops.
type fastBuilder struct {
	p    *parser
	toks []tok // ends in EOF
	i    int
}

// fastStmts builds a whole statement line, appending its statements to
// out; on false out may hold a partial line (the caller truncates it).
func (p *parser) fastStmts(toks []tok, out []ast.Stmt) ([]ast.Stmt, bool) {
	b := fastBuilder{p: p, toks: toks}
	n := len(out)
	for !b.at(lexer.EOF) {
		s, ok := b.stmt()
		if !ok {
			return out, false
		}
		out = append(out, s)
	}
	return out, len(out) > n
}

// fastCond builds a whole condition.
func (p *parser) fastCond(toks []tok) (ast.Cond, bool) {
	b := fastBuilder{p: p, toks: toks}
	c, ok := b.cond()
	return c, ok && b.at(lexer.EOF)
}

// fastValue builds a token slice holding exactly one value.
func (p *parser) fastValue(toks []tok) (ast.Expr, bool) {
	b := fastBuilder{p: p, toks: toks}
	if !b.startsValue() {
		return nil, false
	}
	v, ok := b.value()
	return v, ok && b.at(lexer.EOF)
}

// fastTrailers builds a token slice holding only "-> VAR" and
// "(fallback: ...)" trailers (a requirement's tail).
func (p *parser) fastTrailers(toks []tok) (*ast.Binding, *ast.Fallback, bool) {
	b := fastBuilder{p: p, toks: toks}
	bind, fb, ok := b.trailers()
	return bind, fb, ok && b.at(lexer.EOF)
}

// fastOK passes on ok, the result of a fast build that started when the
// parser had mark diagnostics; when the build gave up, the diagnostics
// shared helpers reported during it are dropped, for the slow path to
// report them again.
func (p *parser) fastOK(ok bool, mark int) bool {
	if ok {
		return true
	}
	clear(p.diags[mark:])
	p.diags = p.diags[:mark]
	return false
}

// peek returns the token at offset k from the cursor (EOF past the end).
func (b *fastBuilder) peek(k int) *tok {
	if b.i+k < len(b.toks) {
		return &b.toks[b.i+k]
	}
	return &eofTok
}

var eofTok = tok{typ: lexer.EOF}

func (b *fastBuilder) at(t lexer.TokenType) bool { return b.peek(0).typ == t }

// is reports whether t's text is s (EOF has no text).
func (b *fastBuilder) is(t *tok, s string) bool {
	return t.typ != lexer.EOF && b.p.text[t.from:t.to] == s
}

// atLit reports whether the next token's text is s, whatever its type (a
// quoted literal in the grammar matches on the text alone).
func (b *fastBuilder) atLit(s string) bool {
	return b.is(b.peek(0), s)
}

// take consumes and returns the next token.
func (b *fastBuilder) take() *tok {
	t := b.peek(0)
	if b.i < len(b.toks) {
		b.i++
	}
	return t
}

// span returns the range of the tokens consumed since start (at least one).
func (b *fastBuilder) span(start int) ast.Range {
	return ast.RangeOf(b.toks[start].from, b.toks[b.i-1].to)
}

// ident is [parser.ident] for a consumed token.
func (b *fastBuilder) ident(t *tok) *ast.Ident {
	return b.p.newIdent(t.rng(), b.p.text[t.from:t.to])
}

func (b *fastBuilder) stmt() (ast.Stmt, bool) {
	switch {
	case b.at(tSetKw):
		return b.set()
	case b.at(tAppendKw):
		return b.appendStmt()
	case b.at(tDollar):
		return b.dispatch()
	case b.at(tIdent) && b.is(b.peek(1), "("):
		return b.call()
	}
	return nil, false
}

func (b *fastBuilder) set() (ast.Stmt, bool) {
	start := b.i
	kw := b.take()
	if !b.at(tIdent) || b.peek(1).typ != tEq {
		return nil, false // no name or no "=": diagnosed by the slow path
	}
	st := b.p.n.sets.New()
	st.Keyword, st.Name = kw.rng(), b.ident(b.take())
	st.Eq = ast.PosOf(b.take().from)
	v, ok := b.needValue()
	if !ok {
		return nil, false
	}
	st.Value = v
	st.Range = b.span(start)
	return st, true
}

func (b *fastBuilder) appendStmt() (ast.Stmt, bool) {
	start := b.i
	kw := b.take()
	if !b.at(tIdent) {
		return nil, false
	}
	st := &ast.AppendStmt{Keyword: kw.rng(), Name: b.ident(b.take())}
	v, ok := b.needValue()
	if !ok {
		return nil, false
	}
	st.Value = v
	st.Range = b.span(start)
	return st, true
}

func (b *fastBuilder) dispatch() (ast.Stmt, bool) {
	start := b.i
	st := &ast.DispatchStmt{Dollar: b.take().rng()}
	switch t := b.peek(0); t.typ {
	case tDotted:
		b.take()
		v := b.p.val(t)
		dot := strings.IndexByte(v, '.')
		off := t.from
		st.Connector = b.p.newIdent(ast.RangeOf(off, off+dot), v[:dot])
		st.Dot = ast.PosOf(off + dot)
		st.Tool = b.p.newIdent(ast.RangeOf(off+dot+1, t.to), v[dot+1:])
	case tIdent:
		st.Tool = b.ident(b.take())
	default:
		return nil, false
	}
	var ok bool
	if st.Args, st.Positional, ok = b.items(); !ok {
		return nil, false
	}
	if st.Bind, st.Fallback, ok = b.trailers(); !ok {
		return nil, false
	}
	st.Range = b.span(start)
	return st, true
}

func (b *fastBuilder) call() (ast.Stmt, bool) {
	start := b.i
	name := b.take()
	lp := b.take() // "("
	st := b.p.n.calls.New()
	st.Name, st.Lparen = b.ident(name), ast.PosOf(lp.from)
	var ok bool
	if st.Args, st.Positional, ok = b.items(); !ok {
		return nil, false
	}
	if !b.atLit(")") {
		return nil, false
	}
	st.Rparen = ast.PosOf(b.take().from)
	if st.Bind, st.Fallback, ok = b.trailers(); !ok {
		return nil, false
	}
	st.Range = b.span(start)
	return st, true
}

// items matches (item ","?)* into keyword arguments and positional values.
// They are gathered on the parser's stacks and copied out exactly.
func (b *fastBuilder) items() ([]*ast.Arg, []ast.Expr, bool) {
	p := b.p
	argBase, exprBase := len(p.argStack), len(p.exprStack)
	ok := b.pushItems()
	var args []*ast.Arg
	if n := len(p.argStack) - argBase; ok && n > 0 {
		args = p.argSlices.Make(n, n)
		copy(args, p.argStack[argBase:])
	}
	p.argStack = p.argStack[:argBase]
	return args, p.popExprs(exprBase, ok), ok
}

func (b *fastBuilder) pushItems() bool {
	p := b.p
	for {
		switch {
		case b.at(tIdent) && b.peek(1).typ == tEq, b.at(tColonKey), b.at(tColonWord):
			a, ok := b.arg()
			if !ok {
				return false
			}
			p.argStack = append(p.argStack, a)
		case b.startsValue():
			v, ok := b.value()
			if !ok {
				return false
			}
			p.exprStack = append(p.exprStack, v)
		default:
			return true
		}
		if b.atLit(",") {
			b.take()
		}
	}
}

// popExprs pops the expression stack back to base and returns what was
// above it as an exact slice (nil when empty or when keep is false).
func (p *parser) popExprs(base int, keep bool) []ast.Expr {
	var out []ast.Expr
	if n := len(p.exprStack) - base; keep && n > 0 {
		out = p.exprSlices.Make(n, n)
		copy(out, p.exprStack[base:])
	}
	p.exprStack = p.exprStack[:base]
	return out
}

func (b *fastBuilder) arg() (*ast.Arg, bool) {
	start := b.i
	a := b.p.n.args.New()
	switch t := b.take(); t.typ {
	case tIdent:
		a.Key = b.ident(t)
		a.Eq = b.take().rng()
	case tColonKey:
		off := t.from
		name := b.p.text[t.from : t.to-1]
		a.Key = b.p.newIdent(ast.RangeOf(off, off+len(name)), name)
		a.Eq = ast.RangeOf(off+len(name), off+len(name)+1)
		a.Colon = true
	default: // tColonWord: key:value in one token
		off := t.from
		v := b.p.val(t)
		i := strings.IndexByte(v, ':')
		a.Key = b.p.newIdent(ast.RangeOf(off, off+i), v[:i])
		a.Eq = ast.RangeOf(off+i, off+i+1)
		a.Colon = true
		a.Value = b.p.scalarAt(off+i+1, t.to)
		a.Range = b.span(start)
		return a, true
	}
	v, ok := b.needValue() // an argument without a value is diagnosed
	if !ok {
		return nil, false
	}
	a.Value = v
	a.Range = b.span(start)
	return a, true
}

// trailers matches the "-> VAR" and "(fallback: ...)" trailers: at most
// one of each, and a fallback only with a binding.
func (b *fastBuilder) trailers() (*ast.Binding, *ast.Fallback, bool) {
	var bind *ast.Binding
	var fb *ast.Fallback
	for {
		switch {
		case b.at(tArrow):
			if bind != nil || b.peek(1).typ != tIdent {
				return nil, nil, false
			}
			start := b.i
			arrow := b.take()
			bind = b.p.n.binds.New()
			bind.Arrow, bind.Name = arrow.rng(), b.ident(b.take())
			bind.Range = b.span(start)
		case b.atLit("("):
			if fb != nil {
				return nil, nil, false
			}
			f, ok := b.fallback()
			if !ok {
				return nil, nil, false
			}
			fb = f
		default:
			return bind, fb, fb == nil || bind != nil
		}
	}
}

func (b *fastBuilder) fallback() (*ast.Fallback, bool) {
	start := b.i
	b.take() // "("
	key := b.peek(0)
	if key.typ != tColonKey && key.typ != tColonWord {
		return nil, false
	}
	b.take()
	off := key.from
	kv := b.p.val(key)
	colon := strings.IndexByte(kv, ':')
	if kv[:colon] != "fallback" {
		return nil, false
	}
	f := &ast.Fallback{Keyword: ast.RangeOf(off, off+colon)}
	if key.typ == tColonKey {
		if b.startsValue() {
			v, ok := b.value()
			if !ok {
				return nil, false
			}
			f.Value = v
		}
	} else {
		if strings.HasPrefix(kv[colon+1:], ":") {
			return nil, false
		}
		f.Value = b.p.scalarAt(off+colon+1, key.to)
	}
	if !b.atLit(")") {
		return nil, false
	}
	b.take()
	f.Range = b.span(start)
	return f, true
}

// startsValue reports whether the next token can begin a value.
func (b *fastBuilder) startsValue() bool {
	t := b.peek(0)
	return isScalar(t.typ) || t.typ == tPunct && (b.is(t, "[") || b.is(t, "{"))
}

// isScalar reports whether t is one of the scalar token types of gValue.
func isScalar(t lexer.TokenType) bool {
	switch t {
	case tString, tSString, tTriple, tBadString, tNumber, tIdent, tDotted, tColonWord, tWord, tSubst, tLegacy, tSecret:
		return true
	}
	return false
}

// needValue builds the value that must come next: false when none starts
// there (the slow path diagnoses the missing value) or it does not build.
func (b *fastBuilder) needValue() (ast.Expr, bool) {
	if !b.startsValue() {
		return nil, false
	}
	return b.value()
}

// value builds a value; the caller has checked startsValue.
func (b *fastBuilder) value() (ast.Expr, bool) {
	t := b.peek(0)
	switch {
	case isScalar(t.typ):
		b.take()
		return b.scalar(t)
	case b.is(t, "["):
		return b.list()
	}
	return b.object()
}

// scalar is [parser.convScalar] for clean tokens.
func (b *fastBuilder) scalar(t *tok) (ast.Expr, bool) {
	p := b.p
	from, to := t.from, t.to
	switch t.typ {
	case tString, tSString, tTriple:
		return p.stringLit(from, to), true
	case tBadString:
		return nil, false
	case tNumber:
		raw := p.val(t)
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return nil, false
		}
		return p.number(ast.RangeOf(from, to), raw, v), true
	case tSubst, tLegacy:
		return p.parseSubst(from, to, false), true
	case tSecret:
		return p.parseSecret(from, to), true
	case tIdent:
		switch v := p.val(t); v {
		case "true", "false":
			return &ast.BoolLit{Range: ast.RangeOf(from, to), Value: v == "true"}, true
		case "null":
			return &ast.NullLit{Range: ast.RangeOf(from, to)}, true
		}
	}
	return p.bareWord(from, to), true
}

func (b *fastBuilder) list() (ast.Expr, bool) {
	start := b.i
	b.take() // "["
	base := len(b.p.exprStack)
	for b.startsValue() {
		v, ok := b.value()
		if !ok {
			b.p.popExprs(base, false)
			return nil, false
		}
		b.p.exprStack = append(b.p.exprStack, v)
		if b.atLit(",") {
			b.take()
		}
	}
	if !b.atLit("]") {
		b.p.popExprs(base, false)
		return nil, false
	}
	b.take()
	l := b.p.n.lists.New()
	l.Range, l.Elems = b.span(start), b.p.popExprs(base, true)
	return l, true
}

func (b *fastBuilder) object() (ast.Expr, bool) {
	start := b.i
	b.take() // "{"
	o := &ast.ObjectLit{}
	for !b.atLit("}") {
		e, ok := b.entry()
		if !ok {
			return nil, false
		}
		o.Entries = append(o.Entries, e)
		if b.atLit(",") {
			b.take()
		}
	}
	b.take()
	o.Range = b.span(start)
	return o, true
}

func (b *fastBuilder) entry() (*ast.ObjEntry, bool) {
	start := b.i
	ent := &ast.ObjEntry{}
	switch t := b.peek(0); t.typ {
	case tColonKey:
		b.take()
		ent.Key = b.p.bareWord(t.from, t.to-1)
	case tString, tSString, tIdent, tNumber:
		if !b.is(b.peek(1), ":") {
			return nil, false
		}
		b.take()
		b.take() // ":"
		k, ok := b.scalar(t)
		if !ok {
			return nil, false
		}
		ent.Key = k
	default:
		return nil, false
	}
	v, ok := b.needValue() // an entry without a value is diagnosed
	if !ok {
		return nil, false
	}
	ent.Value = v
	ent.Range = b.span(start)
	return ent, true
}

// Conditions.

func (b *fastBuilder) cond() (ast.Cond, bool) {
	c, ok := b.and()
	if !ok {
		return nil, false
	}
	for b.atLit("or") {
		op := b.take().rng()
		y, ok := b.and()
		if !ok {
			return nil, false
		}
		c = &ast.LogicalCond{Range: c.Span().Join(y.Span()), X: c, Op: ast.OpOr, OpRg: op, Y: y}
	}
	return c, true
}

func (b *fastBuilder) and() (ast.Cond, bool) {
	c, ok := b.not()
	if !ok {
		return nil, false
	}
	for b.atLit("and") {
		op := b.take().rng()
		y, ok := b.not()
		if !ok {
			return nil, false
		}
		c = &ast.LogicalCond{Range: c.Span().Join(y.Span()), X: c, Op: ast.OpAnd, OpRg: op, Y: y}
	}
	return c, true
}

func (b *fastBuilder) not() (ast.Cond, bool) {
	if !b.atLit("not") {
		return b.prim()
	}
	start := b.i
	kw := b.take().rng()
	x, ok := b.not()
	if !ok {
		return nil, false
	}
	return &ast.NotCond{Range: b.span(start), Not: kw, X: x}, true
}

func (b *fastBuilder) prim() (ast.Cond, bool) {
	start := b.i
	if b.atLit("(") {
		b.take()
		c, ok := b.cond()
		if !ok || !b.atLit(")") {
			return nil, false
		}
		b.take()
		return &ast.ParenCond{Range: b.span(start), X: c}, true
	}
	x, ok := b.operand()
	if !ok {
		return nil, false
	}
	t := b.peek(0)
	if t.typ == tCmpOp || t.typ == tEq || b.is(t, "in") {
		op := b.take()
		y, ok := b.operand()
		if !ok {
			return nil, false
		}
		c := b.p.n.compares.New()
		*c = ast.CompareCond{Range: b.span(start), X: x, Op: cmpOps[b.p.val(op)], OpRg: op.rng(), Y: y}
		if c.Op == ast.OpAssign {
			b.p.singleEquals(c.OpRg)
		}
		return c, true
	}
	if b.atLit("not") {
		// only "X not in Y" is clean
		if !b.is(b.peek(1), "in") {
			return nil, false
		}
		not := b.take().rng()
		in := b.take()
		y, ok := b.operand()
		if !ok {
			return nil, false
		}
		return &ast.CompareCond{Range: b.span(start), X: x, Op: ast.OpNotIn, OpRg: not.Join(in.rng()), Y: y}, true
	}
	c := b.p.n.truthys.New()
	c.Range, c.X = b.span(start), x
	return c, true
}

// operand builds a comparison operand. A bare word is reported as the
// conversion reports it ([parser.bareOperand]), except the words of the
// condition grammar ("and", "or", "not", "in"), whose reading participle
// decides by backtracking: those take the slow path.
func (b *fastBuilder) operand() (ast.Expr, bool) {
	t := b.peek(0)
	switch t.typ {
	case tSubst, tLegacy, tString, tSString, tNumber:
		b.take()
		return b.scalar(t)
	case tIdent, tWord, tDotted, tColonWord:
		switch b.p.text[t.from:t.to] {
		case "and", "or", "not", "in":
			return nil, false
		}
		b.take()
		return b.p.bareOperand(t.from, t.to), true
	}
	return nil, false
}
