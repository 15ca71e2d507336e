package syntax

import "github.com/alecthomas/participle/v2/lexer"

// The fast matcher: a shortcut past participle for well-formed statements.
//
// Participle explores the grammar in grammar.go by trying alternatives in
// order and backtracking, which costs a parse context and several reflect
// values per attempt. Almost every real statement, condition and value is
// well formed, and for those the alternative to take is decided by the next
// one or two tokens. fastMatcher walks the same grammar with that fixed
// lookahead and builds exactly the grammar structs participle would build
// (same fields, same Tokens slices), so conversion to package ast is shared.
//
// It never backtracks over a token it has consumed and never reports an
// error: whenever the input is not a clean match it gives up, and the caller
// parses the statement with participle, which then produces its usual
// diagnostics. Because every branch participle abandons on a well-formed
// statement fails within one token (well inside its lookahead), a clean
// match here is also participle's parse; TestFastMatcher and FuzzFastMatcher
// compare the two on every statement they see. The grammars this file
// mirrors are pinned in testdata/syntax/golden/grammar.txtar
// (TestGrammarGolden): when that file changes, check this one.
// TestFastPathShare fails when the share of inputs matched here drops.

// fastMatcher matches one token slice (ending in EOF) from [lexStmt].
type fastMatcher struct {
	toks []lexer.Token
	i    int
}

// fastLine matches a whole statement line.
func fastLine(toks []lexer.Token) (*gLine, bool) {
	m := fastMatcher{toks: toks}
	g := &gLine{}
	for !m.at(lexer.EOF) {
		s, ok := m.stmt()
		if !ok {
			return nil, false
		}
		g.Stmts = append(g.Stmts, s)
	}
	return g, len(g.Stmts) > 0
}

// fastCond matches a whole condition.
func fastCond(toks []lexer.Token) (*gCond, bool) {
	m := fastMatcher{toks: toks}
	c, ok := m.cond()
	return c, ok && m.at(lexer.EOF)
}

// fastValue matches a token slice holding exactly one value.
func fastValue(toks []lexer.Token) (*gValue, bool) {
	m := fastMatcher{toks: toks}
	if !m.startsValue() {
		return nil, false
	}
	v, ok := m.value()
	return v, ok && m.at(lexer.EOF)
}

// peek returns the token at offset k from the cursor (EOF past the end).
func (m *fastMatcher) peek(k int) lexer.Token {
	if m.i+k < len(m.toks) {
		return m.toks[m.i+k]
	}
	return lexer.Token{Type: lexer.EOF}
}

func (m *fastMatcher) at(t lexer.TokenType) bool { return m.peek(0).Type == t }

// atLit reports whether the next token's text is s, whatever its type (a
// quoted literal in the grammar matches on the text alone).
func (m *fastMatcher) atLit(s string) bool {
	t := m.peek(0)
	return t.Type != lexer.EOF && t.Value == s
}

// take consumes and returns the next token.
func (m *fastMatcher) take() lexer.Token {
	t := m.peek(0)
	if m.i < len(m.toks) {
		m.i++
	}
	return t
}

// span returns the tokens consumed since start, as participle records them.
func (m *fastMatcher) span(start int) []lexer.Token { return m.toks[start:m.i] }

func (m *fastMatcher) stmt() (*gStmt, bool) {
	switch {
	case m.at(tSetKw):
		s, ok := m.set()
		return &gStmt{Set: s}, ok
	case m.at(tAppendKw):
		a, ok := m.appendStmt()
		return &gStmt{Append: a}, ok
	case m.at(tDollar):
		d, ok := m.dispatch()
		return &gStmt{Dispatch: d}, ok
	case m.at(tIdent) && m.peek(1).Value == "(" && m.peek(1).Type != lexer.EOF:
		c, ok := m.call()
		return &gStmt{Call: c}, ok
	}
	return nil, false
}

func (m *fastMatcher) set() (*gSet, bool) {
	start := m.i
	g := &gSet{Kw: m.take()}
	if m.at(tIdent) {
		g.Name = m.take()
	}
	if m.at(tEq) {
		g.Eq = m.take()
	}
	if m.startsValue() {
		v, ok := m.value()
		if !ok {
			return nil, false
		}
		g.Value = v
	}
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) appendStmt() (*gAppend, bool) {
	start := m.i
	g := &gAppend{Kw: m.take()}
	if m.at(tIdent) {
		g.Name = m.take()
	}
	if m.startsValue() {
		v, ok := m.value()
		if !ok {
			return nil, false
		}
		g.Value = v
	}
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) dispatch() (*gDispatch, bool) {
	start := m.i
	g := &gDispatch{Dollar: m.take()}
	if m.at(tDotted) || m.at(tIdent) {
		g.Target = m.take()
	}
	var ok bool
	if g.Items, ok = m.items(); !ok {
		return nil, false
	}
	if g.Trailer, ok = m.trailers(); !ok {
		return nil, false
	}
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) call() (*gCall, bool) {
	start := m.i
	g := &gCall{Name: m.take()}
	m.take() // "("
	var ok bool
	if g.Items, ok = m.items(); !ok {
		return nil, false
	}
	if !m.atLit(")") {
		return nil, false
	}
	g.Rparen = m.take()
	if g.Trailer, ok = m.trailers(); !ok {
		return nil, false
	}
	g.Tokens = m.span(start)
	return g, true
}

// items matches (item ","?)*.
func (m *fastMatcher) items() ([]*gItem, bool) {
	var out []*gItem
	for {
		var it *gItem
		switch {
		case m.at(tIdent) && m.peek(1).Type == tEq, m.at(tColonKey), m.at(tColonWord):
			a, ok := m.arg()
			if !ok {
				return nil, false
			}
			it = &gItem{Arg: a}
		case m.startsValue():
			v, ok := m.value()
			if !ok {
				return nil, false
			}
			it = &gItem{Value: v}
		default:
			return out, true
		}
		out = append(out, it)
		if m.atLit(",") {
			m.take()
		}
	}
}

func (m *fastMatcher) arg() (*gArg, bool) {
	start := m.i
	g := &gArg{}
	var val **gValue
	switch {
	case m.at(tIdent):
		g.Key = m.take()
		g.Eq = m.take()
		val = &g.Value
	case m.at(tColonKey):
		g.ColonKey = m.take()
		val = &g.CValue
	default:
		g.ColonWord = m.take()
	}
	if val != nil && m.startsValue() {
		v, ok := m.value()
		if !ok {
			return nil, false
		}
		*val = v
	}
	g.Tokens = m.span(start)
	return g, true
}

// trailers matches the "-> VAR" and "(fallback: ...)" trailers.
func (m *fastMatcher) trailers() ([]*gTrailer, bool) {
	var out []*gTrailer
	for {
		switch {
		case m.at(tArrow):
			start := m.i
			b := &gBind{Arrow: m.take()}
			if m.at(tIdent) {
				b.Name = m.take()
			}
			b.Tokens = m.span(start)
			out = append(out, &gTrailer{Bind: b})
		case m.atLit("("):
			f, ok := m.fallback()
			if !ok {
				return nil, false
			}
			out = append(out, &gTrailer{Fallback: f})
		default:
			return out, true
		}
	}
}

func (m *fastMatcher) fallback() (*gFallback, bool) {
	start := m.i
	m.take() // "("
	g := &gFallback{}
	switch {
	case m.at(tColonKey):
		g.Key = m.take()
		if m.startsValue() {
			v, ok := m.value()
			if !ok {
				return nil, false
			}
			g.Value = v
		}
	case m.at(tColonWord):
		g.Word = m.take()
	default:
		return nil, false
	}
	if !m.atLit(")") {
		return nil, false
	}
	m.take()
	g.Tokens = m.span(start)
	return g, true
}

// isScalar reports whether t is one of the scalar token types of gValue.
func isScalar(t lexer.TokenType) bool {
	switch t {
	case tString, tSString, tTriple, tBadString, tNumber, tIdent, tDotted, tColonWord, tWord, tSubst, tLegacy, tSecret:
		return true
	}
	return false
}

// startsValue reports whether the next token can begin a gValue.
func (m *fastMatcher) startsValue() bool {
	return isScalar(m.peek(0).Type) || m.atLit("[") || m.atLit("{")
}

// value matches a gValue; the caller has checked startsValue.
func (m *fastMatcher) value() (*gValue, bool) {
	start := m.i
	g := &gValue{}
	switch {
	case isScalar(m.peek(0).Type):
		g.Scalar = m.take()
	case m.atLit("["):
		l, ok := m.list()
		if !ok {
			return nil, false
		}
		g.List = l
	default:
		o, ok := m.object()
		if !ok {
			return nil, false
		}
		g.Object = o
	}
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) list() (*gList, bool) {
	start := m.i
	m.take() // "["
	g := &gList{}
	for m.startsValue() {
		v, ok := m.value()
		if !ok {
			return nil, false
		}
		g.Elems = append(g.Elems, v)
		if m.atLit(",") {
			m.take()
		}
	}
	if !m.atLit("]") {
		return nil, false
	}
	m.take()
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) object() (*gObject, bool) {
	start := m.i
	m.take() // "{"
	g := &gObject{}
	for !m.atLit("}") {
		e, ok := m.entry()
		if !ok {
			return nil, false
		}
		g.Entries = append(g.Entries, e)
		if m.atLit(",") {
			m.take()
		}
	}
	m.take()
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) entry() (*gEntry, bool) {
	start := m.i
	g := &gEntry{}
	switch m.peek(0).Type {
	case tColonKey:
		g.ColonKey = m.take()
	case tString, tSString, tIdent, tNumber:
		if m.peek(1).Value != ":" || m.peek(1).Type == lexer.EOF {
			return nil, false
		}
		g.Key = m.take()
		m.take() // ":"
	default:
		return nil, false
	}
	if m.startsValue() {
		v, ok := m.value()
		if !ok {
			return nil, false
		}
		g.Value = v
	}
	g.Tokens = m.span(start)
	return g, true
}

// Conditions.

func (m *fastMatcher) cond() (*gCond, bool) {
	start := m.i
	left, ok := m.and()
	if !ok {
		return nil, false
	}
	g := &gCond{Left: left}
	for m.atLit("or") {
		op := m.take()
		right, ok := m.and()
		if !ok {
			return nil, false
		}
		g.Rest = append(g.Rest, &gOrTail{Op: op, Right: right})
	}
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) and() (*gAnd, bool) {
	start := m.i
	left, ok := m.not()
	if !ok {
		return nil, false
	}
	g := &gAnd{Left: left}
	for m.atLit("and") {
		op := m.take()
		right, ok := m.not()
		if !ok {
			return nil, false
		}
		g.Rest = append(g.Rest, &gAndTail{Op: op, Right: right})
	}
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) not() (*gNot, bool) {
	start := m.i
	g := &gNot{}
	if m.atLit("not") {
		g.Not = m.take()
		inner, ok := m.not()
		if !ok {
			return nil, false
		}
		g.Inner = inner
	} else {
		prim, ok := m.prim()
		if !ok {
			return nil, false
		}
		g.Prim = prim
	}
	g.Tokens = m.span(start)
	return g, true
}

func (m *fastMatcher) prim() (*gPrim, bool) {
	start := m.i
	g := &gPrim{}
	switch {
	case m.atLit("("):
		m.take()
		c, ok := m.cond()
		if !ok || !m.atLit(")") {
			return nil, false
		}
		m.take()
		g.Paren = c
	case isOperand(m.peek(0).Type):
		g.Left = m.operand()
		if m.startsCmpTail() {
			t, ok := m.cmpTail()
			if !ok {
				return nil, false
			}
			g.Cmp = t
		} else if m.atLit("not") {
			return nil, false // "X not ..." without "in": let participle report it
		}
	default:
		return nil, false
	}
	g.Tokens = m.span(start)
	return g, true
}

// isCmpOp reports whether t can be the operator of a comparison.
func isCmpOp(t lexer.Token) bool {
	return t.Type == tCmpOp || t.Type == tEq || t.Type != lexer.EOF && t.Value == "in"
}

func (m *fastMatcher) startsCmpTail() bool {
	return isCmpOp(m.peek(0)) || m.atLit("not") && isCmpOp(m.peek(1))
}

func (m *fastMatcher) cmpTail() (*gCmpTail, bool) {
	start := m.i
	g := &gCmpTail{}
	if m.atLit("not") {
		g.Not = m.take()
	}
	g.Op = m.take()
	if !isOperand(m.peek(0).Type) {
		return nil, false
	}
	g.Right = m.operand()
	g.Tokens = m.span(start)
	return g, true
}

// isOperand reports whether t is one of the token types of gOperand.
func isOperand(t lexer.TokenType) bool {
	switch t {
	case tSubst, tLegacy, tString, tSString, tNumber, tBadString, tIdent, tWord, tDotted, tColonWord:
		return true
	}
	return false
}

func (m *fastMatcher) operand() *gOperand {
	start := m.i
	g := &gOperand{Tok: m.take()}
	g.Tokens = m.span(start)
	return g
}
