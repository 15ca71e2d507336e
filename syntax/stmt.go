package syntax

// This file dispatches statements: one logical line becomes simple
// statements, a legacy op line, a condition or a value.

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/skillscript/skillc/ast"
)

// statement parses the statement starting at offset lead on line i (indent
// width) into blk and returns the next line.
func (p *parser) statement(i, lead, width int, blk *ast.Block) int {
	end, last := p.logical(i, lead, width)
	p.trailingComment(end, p.lineEnd(last))
	text := p.text[lead:end]
	next := last + 1
	switch {
	case isIfKw(text) && strings.HasSuffix(text, ":"):
		return p.ifClause(lead, end, width, blk, next)
	case isElseStmt(text):
		return p.condElse(lead, end, width, blk, next)
	case hasKeyword(text, "foreach"):
		return p.foreach(lead, end, width, blk, next)
	case isNeedsStmt(text):
		colon := lead + strings.IndexByte(text, ':')
		blk.Stmts = append(blk.Stmts, &ast.NeedsStmt{Range: ast.RangeOf(lead, end), Names: p.depList(colon+1, end)})
		return next
	case isLegacyOp(text):
		blk.Stmts = append(blk.Stmts, p.legacyOp(lead, end))
		return next
	case isIfKw(text):
		p.errorf("invalid-conditional-syntax", ast.RangeOf(lead, end), "%s needs a ':' at the end of its line", strings.Fields(text)[0]).
			WithFix("add ':'", ast.RangeOf(end, end), ":")
		body, n := p.block(next, width)
		blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: ast.Range{From: ast.PosOf(lead), To: maxPos(ast.PosOf(end), body.To)}, Text: text})
		return n
	}
	p.simpleStmts(lead, end, blk)
	if strings.HasSuffix(text, ":") && p.nextIsDeeper(next, width) {
		// an unknown block opener: keep its body as one bad statement
		body, n := p.block(next, width)
		if len(body.Stmts) > 0 {
			p.errorf("indentation", body.Range, "unexpected indented block: only if, elif, else: and foreach open a block inside a target")
			blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: body.Range, Text: p.text[body.From.Offset():body.To.Offset()]})
		}
		return n
	}
	return next
}

var reLegacyBind = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(->|→)[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*$`) })

// legacyOp records a retired op line; the linter diagnoses it.
func (p *parser) legacyOp(from, to int) *ast.LegacyOpStmt {
	text := p.text[from:to]
	op := text[:1]
	if strings.HasPrefix(text, "??") {
		op = "??"
	}
	s := &ast.LegacyOpStmt{Range: ast.RangeOf(from, to), Op: op, Rest: strings.TrimSpace(text[len(op):])}
	if m := reLegacyBind().FindStringSubmatchIndex(text); m != nil {
		s.Bind = &ast.Binding{
			Range: ast.RangeOf(from+m[0], to),
			Arrow: ast.RangeOf(from+m[2], from+m[3]),
			Name:  &ast.Ident{Range: ast.RangeOf(from+m[4], from+m[5]), Name: text[m[4]:m[5]]},
		}
	}
	return s
}

// simpleStmts parses one logical line of simple statements into blk.
func (p *parser) simpleStmts(from, to int, blk *ast.Block) {
	mark := p.lexMark()
	defer p.lexRelease(mark)
	toks, comments := p.lex(from, to)
	for _, c := range comments {
		p.comment(c.from, c.to, true)
	}
	if len(toks) > 0 && toks[0].typ == tDollarWord {
		blk.Stmts = append(blk.Stmts, p.badDollarWord(p.token(toks[0]), from, to))
		return
	}
	for _, t := range toks {
		if t.typ == tBadString {
			p.badString(t.from, t.to)
			blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: ast.RangeOf(from, to), Text: p.text[from:to]})
			return
		}
	}
	n, dmark := len(blk.Stmts), len(p.diags)
	stmts, ok := p.fastStmts(toks, blk.Stmts)
	ok = p.fastOK(ok, dmark)
	p.stats.lines.count(ok)
	if ok {
		blk.Stmts = stmts
		return
	}
	clear(stmts[n:])
	blk.Stmts = stmts[:n]
	pl, err := lineParser().ParseFromLexer(mustUpgrade(p.tokens(toks)))
	if err != nil {
		blk.Stmts = append(blk.Stmts, p.badStmt(from, to, err, "malformed-op-grammar"))
		return
	}
	for _, s := range pl.Stmts {
		blk.Stmts = append(blk.Stmts, p.convStmt(s))
	}
}

// parseValueToks parses tokens holding one value: clean values through
// the fast path, anything else through participle and the conversion.
func (p *parser) parseValueToks(toks []tok) (ast.Expr, error) {
	mark := len(p.diags)
	v, ok := p.fastValue(toks)
	if p.fastOK(ok, mark) {
		p.stats.values.count(true)
		return v, nil
	}
	p.stats.values.count(false)
	g, err := valueParser().ParseFromLexer(mustUpgrade(p.tokens(toks)))
	if err != nil {
		return nil, err
	}
	return p.convValue(g), nil
}

// parseCondToks parses the tokens of a condition, like
// [parser.parseValueToks].
func (p *parser) parseCondToks(toks []tok) (ast.Cond, error) {
	mark := len(p.diags)
	c, ok := p.fastCond(toks)
	if p.fastOK(ok, mark) {
		p.stats.conds.count(true)
		return c, nil
	}
	p.stats.conds.count(false)
	g, err := condParser().ParseFromLexer(mustUpgrade(p.tokens(toks)))
	if err != nil {
		return nil, err
	}
	return p.convCond(g), nil
}

// parseStats counts, per grammar, the inputs the fast matcher took and
// those left to participle. It lives in the parser (one per Parse call);
// only tests read it (TestFastPathShare).
type parseStats struct {
	lines, conds, values pathCount
}

// pathCount counts inputs by the path that parsed them.
type pathCount struct{ fast, slow int }

func (c *pathCount) count(fast bool) {
	if fast {
		c.fast++
	} else {
		c.slow++
	}
}

func mustUpgrade(toks []lexer.Token) *lexer.PeekingLexer {
	pl, _ := lexer.Upgrade(&sliceLexer{toks: toks})
	return pl
}

func tokRange(t lexer.Token) ast.Range {
	return ast.RangeOf(t.Pos.Offset, t.Pos.Offset+len(t.Value))
}

func tokensRange(toks []lexer.Token) ast.Range {
	var r ast.Range
	for _, t := range toks {
		if t.Type == lexer.EOF {
			continue
		}
		r = r.Join(tokRange(t))
	}
	return r
}

// parseValueRange parses src[from:to] as one value.
func (p *parser) parseValueRange(from, to int, rule string) ast.Expr {
	mark := p.lexMark()
	defer p.lexRelease(mark)
	toks, _ := p.lex(from, to)
	v, err := p.parseValueToks(toks)
	if err != nil {
		p.badStmt(from, to, err, rule)
		return &ast.BareWord{Range: ast.RangeOf(from, to), Raw: p.text[from:to], Value: textParser{p: p}.parse(from, to)}
	}
	return v
}

// parseCond parses the condition in src[from:to].
func (p *parser) parseCond(from, to int) ast.Cond {
	for to > from && (p.src[to-1] == ' ' || p.src[to-1] == '\t') {
		to--
	}
	if to-from > MaxCondLen {
		p.errorf("invalid-conditional-syntax", ast.RangeOf(from, to), "condition is %d bytes long, over the limit of %d: compute parts of it with $set first", to-from, MaxCondLen)
		return nil
	}
	mark := p.lexMark()
	defer p.lexRelease(mark)
	toks, _ := p.lex(from, to)
	if p.nestingOf(toks) > MaxCondNesting {
		p.errorf("invalid-conditional-syntax", ast.RangeOf(from, to), "condition nests \"not\" and parentheses more than %d deep: split it into several if blocks or $set steps", MaxCondNesting)
		return nil
	}
	for i := range toks {
		t := &toks[i]
		if v := p.val(t); t.typ == tWord && (v == "&&" || v == "||") {
			word := map[string]string{"&&": "and", "||": "or"}[v]
			p.errorf("invalid-conditional-syntax", t.rng(), "%q is not a condition operator: use %q", v, word).
				WithFix(fmt.Sprintf("replace %s with %s", v, word), t.rng(), word)
			return nil
		}
	}
	if len(toks) == 1 {
		p.errorf("invalid-conditional-syntax", ast.RangeOf(from, to), "missing condition")
		return nil
	}
	before := len(p.diags)
	cond, err := p.parseCondToks(toks)
	if err != nil {
		p.badStmt(from, to, err, "invalid-conditional-syntax")
		return nil
	}
	if cond != nil && len(p.diags) == before && !hasSubst(cond) {
		p.errorf("invalid-conditional-syntax", ast.RangeOf(from, to), "condition %s references no variable, so it always has the same value: test a ${...} reference", strings.TrimSpace(p.text[from:to]))
	}
	return cond
}

// MaxCondLen and MaxCondNesting cap one condition: its length in bytes
// and how deep "not" and parentheses nest in it.
const (
	MaxCondLen     = 4096
	MaxCondNesting = 64
)

// hasSubst reports whether n contains a ${...} reference.
func hasSubst(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(c ast.Node) bool {
		if _, ok := c.(*ast.Subst); ok {
			found = true
		}
		return !found
	})
	return found
}

// nestingOf counts the "not" and "(" tokens of a condition: an upper bound
// of its nesting depth.
func (p *parser) nestingOf(toks []tok) int {
	n := 0
	for i := range toks {
		if v := p.val(&toks[i]); v == "not" || v == "(" {
			n++
		}
	}
	return n
}
