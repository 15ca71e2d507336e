package syntax

// This file builds blocks: indented bodies and the compound statements
// (if/elif/else, foreach) that open them.

import (
	"strings"

	"github.com/skillscript/skillc/ast"
)

// block parses the indented lines after line i-1 that are deeper than
// parent. It returns the block and the next line to look at.
func (p *parser) block(i, parent int) (*ast.Block, int) {
	blk := p.n.blocks.New()
	blk.Indent = -1
	if n := p.blockLen(i, parent); n > 0 {
		blk.Stmts = p.stmtSlices.Make(0, n)
	}
	for i <= p.last {
		raw := p.line(i)
		if isBlankLine(raw) {
			i++
			continue
		}
		width, tab := p.indent(i)
		lead := p.lineStart(i) + p.leadLen(i)
		if raw[p.leadLen(i)] == '#' {
			if width == 0 && isHeaderLine(raw) {
				break
			}
			if width == 0 && !p.nextIsIndented(i) {
				break
			}
			p.comment(lead, p.lineEnd(i), false)
			i++
			continue
		}
		if width <= parent {
			break
		}
		if blk.Indent < 0 {
			blk.Indent = width
		}
		if width < blk.Indent {
			break
		}
		if tab >= 0 && parent > 0 {
			p.errorf("indentation", ast.RangeOf(tab, tab+1), "tab in indentation: indent with spaces only")
		} else if tab >= 0 {
			p.errorf("indentation", ast.RangeOf(tab, tab+1), "tab in indentation: indent with spaces only").
				WithFix("replace tabs with spaces", ast.RangeOf(p.lineStart(i), lead), strings.Repeat(" ", width))
		}
		if width > blk.Indent {
			p.errorf("indentation", ast.RangeOf(p.lineStart(i), lead),
				"unexpected indentation: this line is indented %d spaces but its block uses %d", width, blk.Indent).
				WithFix("align with the block", ast.RangeOf(p.lineStart(i), lead), strings.Repeat(" ", blk.Indent))
		}
		i = p.statement(i, lead, width, blk)
	}
	if len(blk.Stmts) > 0 {
		blk.Range = ast.Range{From: blk.Stmts[0].Pos(), To: blk.Stmts[len(blk.Stmts)-1].End()}
	} else {
		blk.Stmts = nil
	}
	if blk.Indent < 0 {
		blk.Indent = 0
	}
	return blk, i
}

// blockLen estimates, to size its statement slice, how many statements
// the block starting at line i holds: the lines indented like its first
// one, among the next maxBlockLook, before a line at or above parent's
// indentation or shallower than the first.
func (p *parser) blockLen(i, parent int) int {
	const maxBlockLook = 64
	n, width := 0, -1
	for j := i; j <= p.last && j < i+maxBlockLook; j++ {
		if isBlankLine(p.line(j)) {
			continue
		}
		w, _ := p.indent(j)
		if w <= parent || width >= 0 && w < width {
			break
		}
		if width < 0 {
			width = w
		}
		if w == width {
			n++
		}
	}
	return n
}

// body parses a block like [parser.block]; an empty block gets the empty
// range at headerEnd, the end of the line that opened it.
func (p *parser) body(i, parent, headerEnd int) (*ast.Block, int) {
	blk, next := p.block(i, parent)
	if len(blk.Stmts) == 0 {
		blk.Range = ast.RangeOf(headerEnd, headerEnd)
	}
	return blk, next
}

func maxPos(a, b ast.Pos) ast.Pos {
	if a > b {
		return a
	}
	return b
}

// ifClause parses "if COND:" / "elif COND:" and its body.
func (p *parser) ifClause(lead, end, width int, blk *ast.Block, next int) int {
	kwEnd := scanIdent(p.src, lead, end)
	kw := p.text[lead:kwEnd]
	cl := p.n.clauses.New()
	cl.Keyword = ast.RangeOf(lead, kwEnd)
	cl.Cond = p.parseCond(kwEnd, end-1)
	body, n := p.body(next, width, end)
	cl.Body = body
	cl.Range = ast.Range{From: ast.PosOf(lead), To: maxPos(ast.PosOf(end), body.To)}
	p.requireBody(body, cl.Keyword, kw)
	if kw == "if" {
		st := p.n.ifs.New()
		st.Range, st.Clauses = cl.Range, p.n.clauseSl.Make(1, 1)
		st.Clauses[0] = cl
		blk.Stmts = append(blk.Stmts, st)
		return n
	}
	if st := lastIf(blk); st != nil {
		st.Clauses = append(st.Clauses, cl)
		st.To = cl.To
		return n
	}
	p.errorf("parse-error", cl.Keyword, "\"elif\" without a preceding \"if\"")
	blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: cl.Range, Text: p.text[lead:end]})
	return n
}

func (p *parser) requireBody(body *ast.Block, at ast.Range, what string) {
	if len(body.Stmts) == 0 {
		p.errorf("indentation", at, "%q needs an indented body on the following lines", what)
	}
}

func lastIf(blk *ast.Block) *ast.IfStmt {
	if len(blk.Stmts) == 0 {
		return nil
	}
	if st, ok := blk.Stmts[len(blk.Stmts)-1].(*ast.IfStmt); ok && st.Else == nil {
		return st
	}
	return nil
}

// condElse parses a conditional "else:" inside a body.
func (p *parser) condElse(lead, end, width int, blk *ast.Block, next int) int {
	body, n := p.body(next, width, end)
	eb := &ast.ElseBlock{Range: ast.Range{From: ast.PosOf(lead), To: maxPos(ast.PosOf(end), body.To)}, Body: body}
	p.requireBody(body, ast.RangeOf(lead, lead+4), "else")
	if st := lastIf(blk); st != nil {
		st.Else = eb
		st.To = eb.To
		return n
	}
	p.errorf("parse-error", ast.RangeOf(lead, end), "\"else:\" without a preceding \"if\"; a target's error handler is written at column 0 after its body")
	blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: eb.Range, Text: "else:"})
	return n
}

// matchForeach matches a whole "foreach ITEM in LIST:" line, as the
// expression ^foreach[ \t]+([^ \t]+)[ \t]+in[ \t]+(.+?)[ \t]*:$ would
// (TestClassifiers and FuzzClassifiers hold it to that): m holds the
// bounds of the match, ITEM and LIST, as the expression's submatch indexes.
func matchForeach(text string) (m [6]int, ok bool) {
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	skip := func(i int) int {
		for i < len(text) && blank(text[i]) {
			i++
		}
		return i
	}
	if !strings.HasPrefix(text, "foreach") || !strings.HasSuffix(text, ":") {
		return m, false
	}
	a := skip(len("foreach"))
	if a == len("foreach") {
		return m, false
	}
	b := a
	for b < len(text) && !blank(text[b]) {
		b++
	}
	k := skip(b)
	if b == a || k == b || !strings.HasPrefix(text[k:], "in") {
		return m, false
	}
	ls := skip(k + 2)
	if ls == k+2 {
		return m, false
	}
	end := len(text) - 1 // the final ':'
	le := end
	for le > ls && blank(text[le-1]) {
		le--
	}
	if le == ls {
		// nothing but blanks before the colon: the list is the last blank
		// of the run after "in", when that run is longer than one
		if ls-(k+2) < 2 {
			return m, false
		}
		ls, le = ls-1, ls
	}
	if strings.IndexByte(text[ls:le], '\n') >= 0 {
		return m, false
	}
	return [6]int{0, len(text), a, b, ls, le}, true
}

// foreach parses "foreach X in ${LIST}:" and its body.
func (p *parser) foreach(lead, end, width int, blk *ast.Block, next int) int {
	text := p.text[lead:end]
	body, n := p.body(next, width, end)
	r := ast.Range{From: ast.PosOf(lead), To: maxPos(ast.PosOf(end), body.To)}
	m, ok := matchForeach(text)
	if !ok {
		p.errorf("malformed-op-grammar", ast.RangeOf(lead, end), "malformed foreach: write \"foreach ITEM in ${LIST}:\"")
		blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: r, Text: text})
		return n
	}
	st := p.n.foreachs.New()
	st.Range, st.Body = r, body
	st.Iter = &ast.Ident{Range: ast.RangeOf(lead+m[2], lead+m[3]), Name: text[m[2]:m[3]]}
	if !isIdent(st.Iter.Name) {
		p.errorf("malformed-op-grammar", st.Iter.Range, "%q is not a valid iterator name", st.Iter.Name)
	}
	inAt := lead + m[3]
	for p.src[inAt] == ' ' || p.src[inAt] == '\t' {
		inAt++
	}
	st.In = ast.RangeOf(inAt, inAt+2)
	st.List = p.parseValueRange(lead+m[4], lead+m[5], "malformed-op-grammar")
	p.requireBody(body, ast.RangeOf(lead, lead+7), "foreach")
	blk.Stmts = append(blk.Stmts, st)
	return n
}
