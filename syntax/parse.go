package syntax

import (
	"bytes"
	"strings"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/slab"
)

// Parse parses a skillscript source file. It always returns a File (possibly
// partial) and every problem found; a bad statement becomes an ast.BadStmt
// with one diagnostic and parsing continues with the next line.
func Parse(name string, src []byte) (*ast.File, ast.Diagnostics) {
	p := newParser(name, src)
	p.parseFile()
	p.diags.Sort()
	f, ds := p.file, p.diags
	p.release()
	return f, ds
}

type parser struct {
	src   []byte
	text  string // src as a string, made once: names and literals are slices of it
	lines *ast.LineTable
	file  *ast.File
	diags ast.Diagnostics

	first, last int // 1-based inclusive line range of the skill region
	bom         int // length of the byte order mark at the start of src (0 or 3)

	tmpl         *ast.Template // open template region
	pendingBlank []*ast.TemplateLine
	lastTarget   *ast.Target // target that a column-0 else: may attach to

	stats parseStats // fast path versus participle, for tests

	// node slabs: the most frequent nodes are carved from chunks
	idents  slab.Slab[ast.Ident]
	lits    slab.Slab[ast.Lit]
	texts   slab.Slab[ast.Text]
	substs  slab.Slab[ast.Subst]
	strLits slab.Slab[ast.StringLit]
	nums    slab.Slab[ast.NumberLit]
	arena   []tok // the token stack of lex
	parts   slab.Slices[ast.TextPart]

	// scratch of textParser.parse, used as a stack. This and the stacks
	// below are truncated, not cleared: what they hold are nodes of the
	// tree being built, alive as long as it is anyway.
	partStack []ast.TextPart

	// the fast path gathers lists and arguments on stacks and copies them
	// out exactly, into slices carved from chunks
	exprStack  []ast.Expr
	argStack   []*ast.Arg
	exprSlices slab.Slices[ast.Expr]
	argSlices  slab.Slices[*ast.Arg]
	stmtSlices slab.Slices[ast.Stmt]
	n          nodeSlabs
}

// nodeSlabs carve the nodes every statement line makes from chunks.
type nodeSlabs struct {
	blocks   slab.Slab[ast.Block]
	ifs      slab.Slab[ast.IfStmt]
	clauses  slab.Slab[ast.CondClause]
	foreachs slab.Slab[ast.ForeachStmt]
	sets     slab.Slab[ast.SetStmt]
	calls    slab.Slab[ast.CallStmt]
	args     slab.Slab[ast.Arg]
	lists    slab.Slab[ast.ListLit]
	compares slab.Slab[ast.CompareCond]
	truthys  slab.Slab[ast.TruthyCond]
	binds    slab.Slab[ast.Binding]
	clauseSl slab.Slices[*ast.CondClause]
}

// number returns a number literal node from the parser's slab.
func (p *parser) number(r ast.Range, raw string, v float64) *ast.NumberLit {
	n := p.nums.New()
	n.Range, n.Raw, n.Value = r, raw, v
	return n
}

// newIdent returns an identifier node from the parser's slab.
func (p *parser) newIdent(r ast.Range, name string) *ast.Ident {
	id := p.idents.New()
	id.Range, id.Name = r, name
	return id
}

// parsers holds parsers between parses: the parser itself and its
// scratch (the token arena, the stacks) are reused, while everything the
// tree holds (the node slabs, the lists) starts afresh in each parse. A
// small skill's parse otherwise spent a fifth of its bytes on them, fresh
// memory each time in a one-shot check that runs without the collector
// (issue 25, AK3).
var parsers = sync.Pool{New: func() any { return new(parser) }}

// maxPooledArena bounds the token arena a pooled parser keeps (the arena
// itself is bounded by maxArenaTokens).
const maxPooledArena = maxArenaTokens

func newParser(name string, src []byte) *parser {
	p := parsers.Get().(*parser)
	*p = parser{
		arena:     p.arena[:0],
		partStack: p.partStack[:0],
		exprStack: p.exprStack[:0],
		argStack:  p.argStack[:0],
	}
	lt := ast.NewLineTable(src)
	p.src, p.text, p.lines = src, string(src), lt
	p.file = &ast.File{Name: name, Src: src, Lines: lt, Range: ast.RangeOf(0, len(src))}
	return p
}

// release gives p back to the pool once its tree is out. Nothing of the
// tree lives in what a pooled parser keeps: the stacks' entries are copied
// out before they are popped, and they are cleared here so that a parser
// in the pool holds no nodes of a tree it made.
func (p *parser) release() {
	clear(p.partStack[:cap(p.partStack)])
	clear(p.exprStack[:cap(p.exprStack)])
	clear(p.argStack[:cap(p.argStack)])
	keep := parser{partStack: p.partStack[:0], exprStack: p.exprStack[:0], argStack: p.argStack[:0]}
	if cap(p.arena) <= maxPooledArena {
		keep.arena = p.arena[:0]
	}
	*p = keep
	parsers.Put(p)
}

func (p *parser) report(d *ast.Diagnostic) *ast.Diagnostic {
	p.diags = append(p.diags, d)
	return d
}

func (p *parser) errorf(rule string, r ast.Range, format string, args ...any) *ast.Diagnostic {
	return p.report(ast.Errorf(rule, r, format, args...))
}

func (p *parser) warnf(rule string, r ast.Range, format string, args ...any) *ast.Diagnostic {
	return p.report(ast.Warnf(rule, r, format, args...))
}

func (p *parser) parseFile() {
	p.first, p.last = 1, p.lines.LineCount()
	if p.last > 1 && len(p.lineTextTrim(p.last)) == 0 && p.lineStart(p.last) == len(p.src) {
		p.last-- // the empty line after a final newline
	}
	if !p.checkEncoding() {
		return
	}
	p.skipBOM()
	p.findFence()
	for i := p.first; i <= p.last; {
		i = p.topLine(i)
	}
	p.closeTemplate()
	if len(p.file.Targets) == 0 && len(p.file.Templates) == 0 && len(p.file.Headers) == 0 && len(p.file.Bad) == 0 {
		// nothing at all: the checker reports no-targets
	}
}

// topLine handles the column-0 line i (or an indented line outside any
// target) and returns the next line to look at.
func (p *parser) topLine(i int) int {
	raw := p.line(i)
	if isBlankLine(raw) {
		p.templateBlank(i)
		return i + 1
	}
	width, tab := p.indent(i)
	if tab >= 0 {
		p.errorf("indentation", ast.RangeOf(tab, tab+1), "tab in indentation: indent with spaces only").
			WithFix("replace tabs with spaces", ast.RangeOf(p.lineStart(i), p.lineStart(i)+p.leadLen(i)), strings.Repeat(" ", width))
	}
	ls := p.lineStart(i)
	text := p.text[ls+p.leadLen(i) : ls+len(raw)] // a slice of the source, no copy
	if width > 0 {
		return p.indentedTop(i, text)
	}
	switch {
	case strings.HasPrefix(text, "#"):
		return p.hashLine(i)
	case isDefaultLine(text):
		p.closeTemplate()
		p.defaultDecl(i)
		p.lastTarget = nil
		return i + 1
	case isElseLine(text):
		return p.targetElse(i)
	}
	if rest, ok := targetHeaderRest(text); ok && isDepList(rest) && p.nextIsIndented(i) {
		p.closeTemplate()
		return p.target(i)
	}
	p.templateLine(i)
	return i + 1
}

// indentedTop handles an indented line that belongs to no target: inside a
// template region it is template text; elsewhere it is an indentation error.
func (p *parser) indentedTop(i int, text string) int {
	if p.tmpl != nil {
		p.templateLine(i)
		return i + 1
	}
	if strings.HasPrefix(text, "#") {
		p.comment(p.lineStart(i)+p.leadLen(i), p.lineEnd(i), false)
		return i + 1
	}
	r := ast.RangeOf(p.lineStart(i)+p.leadLen(i), p.lineEnd(i))
	p.errorf("indentation", r, "indented line outside any target: a target is a column-0 \"name:\" line followed by its indented body")
	p.file.Bad = append(p.file.Bad, &ast.BadStmt{Range: r, Text: p.text[r.From.Offset():r.To.Offset()]})
	return i + 1
}

func (p *parser) comment(from, to int, trailing bool) {
	p.file.Comments = append(p.file.Comments, &ast.Comment{Range: ast.RangeOf(from, to), Text: p.text[from:to], Trailing: trailing})
}

func (p *parser) defaultDecl(i int) {
	ls, le := p.lineStart(i), p.lineEnd(i)
	line := p.src[ls:le]
	colon := bytes.IndexByte(line, ':')
	rest := ls + colon + 1
	end := stripTrailingComment(p.src, rest, le)
	d := &ast.DefaultDecl{Range: ast.RangeOf(ls, end)}
	s := skipBlanks(p.src, rest, end)
	e := scanIdent(p.src, s, end)
	switch {
	case e == s:
		p.errorf("missing-default-target", ast.RangeOf(ls, end), "\"default:\" needs the name of the goal target")
	case skipBlanks(p.src, e, end) != end:
		p.errorf("parse-error", ast.RangeOf(s, end), "\"default:\" takes one target name, got %q", p.text[s:end])
		d.Goal = p.newIdent(ast.RangeOf(s, e), p.text[s:e])
	default:
		d.Goal = p.newIdent(ast.RangeOf(s, e), p.text[s:e])
	}
	p.trailingComment(end, le)
	p.file.Defaults = append(p.file.Defaults, d)
}

func (p *parser) trailingComment(end, le int) {
	i := skipBlanks(p.src, end, le)
	if i < le && p.src[i] == '#' {
		p.comment(i, le, true)
	}
}

// target parses a target header at line i and its body.
func (p *parser) target(i int) int {
	ls, le := p.lineStart(i), p.lineEnd(i)
	nameEnd := scanIdent(p.src, ls, le)
	t := &ast.Target{Name: p.newIdent(ast.RangeOf(ls, nameEnd), p.text[ls:nameEnd])}
	colon := ls + bytes.IndexByte(p.src[ls:le], ':')
	t.Colon = ast.PosOf(colon)
	end := stripTrailingComment(p.src, colon+1, le)
	t.Needs = p.depList(colon+1, end)
	p.trailingComment(end, le)
	body, next := p.body(i+1, 0, end)
	t.Body = body
	t.Range = ast.RangeOf(ls, max(end, body.To.Offset()))
	p.file.Targets = append(p.file.Targets, t)
	p.lastTarget = t
	for _, s := range body.Stmts {
		if n, ok := s.(*ast.NeedsStmt); ok {
			t.NeedsInBody = append(t.NeedsInBody, n)
			t.Needs = append(t.Needs, n.Names...)
		}
	}
	return next
}

// depList parses "a b", "a, b" or "needs: a, b" in src[from:to].
func (p *parser) depList(from, to int) []*ast.Ident {
	i := skipBlanks(p.src, from, to)
	if e := scanIdent(p.src, i, to); e > i && p.text[i:e] == "needs" {
		if k := skipBlanks(p.src, e, to); k < to && p.src[k] == ':' {
			i = k + 1
		}
	}
	var out []*ast.Ident
	for i < to {
		i = skipBlanks(p.src, i, to)
		if i < to && p.src[i] == ',' {
			i++
			continue
		}
		e := scanIdent(p.src, i, to)
		if e == i {
			break
		}
		out = append(out, p.newIdent(ast.RangeOf(i, e), p.text[i:e]))
		i = e
	}
	return out
}

// targetElse attaches a column-0 else: to the target just parsed.
func (p *parser) targetElse(i int) int {
	ls, le := p.lineStart(i), p.lineEnd(i)
	colon := ls + bytes.IndexByte(p.src[ls:le], ':') + 1
	p.trailingComment(colon, le)
	body, next := p.body(i+1, 0, colon)
	t := p.lastTarget
	switch {
	case t == nil:
		p.errorf("parse-error", ast.RangeOf(ls, ls+4), "\"else:\" at column 0 must follow a target's body (it is that target's error handler)")
	case t.Else != nil:
		p.errorf("parse-error", ast.RangeOf(ls, ls+4), "target %q already has an else: handler", t.Name.Name)
	default:
		t.Else = &ast.ElseBlock{Range: ast.RangeOf(ls, max(ls+5, body.To.Offset())), Body: body}
		t.Range.To = t.Else.To
	}
	if len(body.Stmts) == 0 {
		p.errorf("parse-error", ast.RangeOf(ls, ls+5), "\"else:\" needs an indented body")
	}
	p.lastTarget = nil
	return next
}

func (p *parser) templateLine(i int) {
	ls, le := p.lineStart(i), p.lineEnd(i)
	if p.tmpl == nil {
		p.tmpl = &ast.Template{Range: ast.RangeOf(ls, le)}
		p.file.Templates = append(p.file.Templates, p.tmpl)
	}
	p.tmpl.Lines = append(p.tmpl.Lines, p.pendingBlank...)
	p.pendingBlank = nil
	tl := &ast.TemplateLine{Range: ast.RangeOf(ls, le), Text: textParser{p: p}.parse(ls, le)}
	p.tmpl.Lines = append(p.tmpl.Lines, tl)
	p.tmpl.To = ast.PosOf(le)
	p.lastTarget = nil
}

func (p *parser) templateBlank(i int) {
	if p.tmpl != nil {
		ls, le := p.lineStart(i), p.lineEnd(i)
		p.pendingBlank = append(p.pendingBlank, &ast.TemplateLine{Range: ast.RangeOf(ls, le), Blank: true, Text: &ast.Text{Range: ast.RangeOf(ls, le)}})
	}
}

func (p *parser) closeTemplate() {
	p.tmpl = nil
	p.pendingBlank = nil
}
