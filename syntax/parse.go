package syntax

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/skillscript/skillc/ast"
)

// Parse parses a skillscript source file. It always returns a File (possibly
// partial) and every problem found; a bad statement becomes an ast.BadStmt
// with one diagnostic and parsing continues with the next line.
func Parse(name string, src []byte) (*ast.File, ast.Diagnostics) {
	p := newParser(name, src)
	p.parseFile()
	p.diags.Sort()
	return p.file, p.diags
}

type parser struct {
	src   []byte
	lines *ast.LineTable
	file  *ast.File
	diags ast.Diagnostics

	first, last int // 1-based inclusive line range of the skill region

	tmpl         *ast.Template // open template region
	pendingBlank []*ast.TemplateLine
	lastTarget   *ast.Target // target that a column-0 else: may attach to
}

func newParser(name string, src []byte) *parser {
	lt := ast.NewLineTable(src)
	p := &parser{src: src, lines: lt}
	p.file = &ast.File{Name: name, Src: src, Lines: lt, Range: ast.RangeOf(0, len(src))}
	return p
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

// line helpers (1-based line numbers)

func (p *parser) lineStart(i int) int { return p.lines.LineStart(i) }
func (p *parser) lineEnd(i int) int   { return p.lines.LineEnd(i) }
func (p *parser) line(i int) []byte   { return p.lines.Line(i) }

func isBlankLine(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// indent returns the width of the leading whitespace of line i and the
// offset of the first tab in it (-1 when none).
func (p *parser) indent(i int) (width, tab int) {
	tab = -1
	l := p.line(i)
	for _, c := range l {
		switch c {
		case ' ':
			width++
		case '\t':
			if tab < 0 {
				tab = p.lineStart(i) + width
			}
			width += 4 - width%4
		default:
			return width, tab
		}
	}
	return width, tab
}

// leadLen returns the byte length of line i's leading whitespace.
func (p *parser) leadLen(i int) int {
	l := p.line(i)
	n := 0
	for n < len(l) && (l[n] == ' ' || l[n] == '\t') {
		n++
	}
	return n
}

var reFenceOpen = regexp.MustCompile("^\\s*```+\\s*(skillscript|skill)\\s*$")
var reFenceClose = regexp.MustCompile("^\\s*```+\\s*$")

// hasFenceMark reports whether l contains "```", which every fence line
// does; checking it first keeps the fence regexps off ordinary lines.
func hasFenceMark(l []byte) bool {
	for i := 0; i+3 <= len(l); i++ {
		if l[i] == '`' && l[i+1] == '`' && l[i+2] == '`' {
			return true
		}
	}
	return false
}

func (p *parser) parseFile() {
	p.first, p.last = 1, p.lines.LineCount()
	if p.last > 1 && len(p.lineTextTrim(p.last)) == 0 && p.lineStart(p.last) == len(p.src) {
		p.last-- // the empty line after a final newline
	}
	if !p.checkEncoding() {
		return
	}
	p.findFence()
	for i := p.first; i <= p.last; {
		i = p.topLine(i)
	}
	p.closeTemplate()
	if len(p.file.Targets) == 0 && len(p.file.Templates) == 0 && len(p.file.Headers) == 0 && len(p.file.Bad) == 0 {
		// nothing at all: the checker reports no-targets
	}
}

func (p *parser) lineTextTrim(i int) []byte { return bytes.TrimSpace(p.line(i)) }

// checkEncoding rejects binary and non-UTF-8 input with one diagnostic.
func (p *parser) checkEncoding() bool {
	if i := bytes.IndexByte(p.src, 0); i >= 0 {
		p.errorf("parse-error", ast.RangeOf(i, i+1), "file contains a NUL byte: this is a binary file, not a skillscript source")
		p.file.NotText = true
		return false
	}
	for off := 0; off < len(p.src); {
		r, w := utf8.DecodeRune(p.src[off:])
		if r == utf8.RuneError && w == 1 {
			p.errorf("parse-error", ast.RangeOf(off, off+1), "invalid UTF-8 byte 0x%02x: skillscript sources must be UTF-8 text", p.src[off])
			p.file.NotText = true
			return false
		}
		off += w
	}
	return true
}

// findFence narrows the region to the first ```skillscript fence, if any.
func (p *parser) findFence() {
	for i := p.first; i <= p.last; i++ {
		if l := p.line(i); !hasFenceMark(l) || !reFenceOpen.Match(l) {
			continue
		}
		end := p.last
		closed := false
		for j := i + 1; j <= p.last; j++ {
			if reFenceClose.Match(p.line(j)) {
				end, closed = j-1, true
				break
			}
		}
		if !closed {
			p.errorf("parse-error", ast.RangeOf(p.lineStart(i), p.lineEnd(i)), "the ```skillscript fence is never closed")
		}
		p.file.Fence = ast.RangeOf(p.lineStart(i), p.lineEnd(min(end+1, p.last)))
		p.first, p.last = i+1, end
		return
	}
}

var (
	reHeader    = regexp.MustCompile(`^#[ \t]*([A-Za-z][A-Za-z0-9_-]*)[ \t]*:`)
	reTargetHdr = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*)$`)
	reDefault   = regexp.MustCompile(`^default[ \t]*:(.*)$`)
	reElse      = regexp.MustCompile(`^else[ \t]*:[ \t]*(#.*)?$`)
	reDepList   = regexp.MustCompile(`^[ \t]*(needs[ \t]*:)?[ \t]*([A-Za-z_][A-Za-z0-9_-]*([ \t]*,?[ \t]*[A-Za-z_][A-Za-z0-9_-]*)*)?[ \t]*,?[ \t]*(#.*)?$`)
)

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
	text := string(raw[p.leadLen(i):])
	if width > 0 {
		return p.indentedTop(i, text)
	}
	switch {
	case strings.HasPrefix(text, "#"):
		return p.hashLine(i)
	case reDefault.MatchString(text):
		p.closeTemplate()
		p.defaultDecl(i)
		p.lastTarget = nil
		return i + 1
	case reElse.MatchString(text):
		return p.targetElse(i)
	}
	if m := reTargetHdr.FindStringSubmatch(text); m != nil && reDepList.MatchString(m[2]) && p.nextIsIndented(i) {
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
	p.file.Bad = append(p.file.Bad, &ast.BadStmt{Range: r, Text: string(p.src[r.From.Offset():r.To.Offset()])})
	return i + 1
}

// nextIsIndented reports whether the next line that is neither blank nor a
// comment is indented.
func (p *parser) nextIsIndented(i int) bool {
	for j := i + 1; j <= p.last; j++ {
		l := p.line(j)
		if isBlankLine(l) {
			continue
		}
		w, _ := p.indent(j)
		t := bytes.TrimSpace(l)
		if t[0] == '#' && w > 0 {
			continue
		}
		return w > 0
	}
	return false
}

func (p *parser) comment(from, to int, trailing bool) {
	p.file.Comments = append(p.file.Comments, &ast.Comment{Range: ast.RangeOf(from, to), Text: string(p.src[from:to]), Trailing: trailing})
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
		p.errorf("parse-error", ast.RangeOf(s, end), "\"default:\" takes one target name, got %q", string(p.src[s:end]))
		d.Goal = &ast.Ident{Range: ast.RangeOf(s, e), Name: string(p.src[s:e])}
	default:
		d.Goal = &ast.Ident{Range: ast.RangeOf(s, e), Name: string(p.src[s:e])}
	}
	p.trailingComment(end, le)
	p.file.Defaults = append(p.file.Defaults, d)
}

// stripTrailingComment returns the end of src[from:to] before a " # ..."
// comment (outside quotes) and trailing blanks.
func stripTrailingComment(src []byte, from, to int) int {
	var q byte
	for i := from; i < to; i++ {
		c := src[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '#' && (i == from || src[i-1] == ' ' || src[i-1] == '\t'):
			to = i
		}
	}
	for to > from && (src[to-1] == ' ' || src[to-1] == '\t' || src[to-1] == '\r') {
		to--
	}
	return to
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
	t := &ast.Target{Name: &ast.Ident{Range: ast.RangeOf(ls, nameEnd), Name: string(p.src[ls:nameEnd])}}
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
	if e := scanIdent(p.src, i, to); e > i && string(p.src[i:e]) == "needs" {
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
		out = append(out, &ast.Ident{Range: ast.RangeOf(i, e), Name: string(p.src[i:e])})
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

// Template handling.

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

// Blocks and statements.

// block parses the indented lines after line i-1 that are deeper than
// parent. It returns the block and the next line to look at.
func (p *parser) block(i, parent int) (*ast.Block, int) {
	blk := &ast.Block{Indent: -1}
	for i <= p.last {
		raw := p.line(i)
		if isBlankLine(raw) {
			i++
			continue
		}
		width, tab := p.indent(i)
		lead := p.lineStart(i) + p.leadLen(i)
		if raw[p.leadLen(i)] == '#' {
			if width == 0 && reHeader.Match(raw) {
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
	}
	if blk.Indent < 0 {
		blk.Indent = 0
	}
	return blk, i
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

// logical finds the end of the logical statement starting at offset from
// on line i: it continues across lines while a bracket is open (and the next
// line is deeper or starts with a closer) or a """ string is open. It
// returns the end offset (before any trailing comment) and the last line.
func (p *parser) logical(i, from, width int) (end, last int) {
	src := p.src
	depth := 0
	var q byte
	triple := false
	last = i
	pos := from
	for {
		le := p.lineEnd(last)
		lineEndStmt := le
		for pos < le {
			c := src[pos]
			switch {
			case triple:
				if c == '\\' {
					pos++
				} else if hasAt(src, pos, le, `"""`) {
					triple = false
					pos += 2
				}
			case q != 0:
				if c == '\\' {
					pos++
				} else if c == q {
					q = 0
				} else if hasAt(src, pos, le, "${") {
					if e, ok := substEnd(src, pos, le, '}'); ok {
						pos = e - 1
					}
				}
			case hasAt(src, pos, le, `"""`):
				triple = true
				pos += 2
			case c == '"' || c == '\'':
				q = c
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']' || c == '}':
				if depth > 0 {
					depth--
				}
			case c == '#' && pos > from && (src[pos-1] == ' ' || src[pos-1] == '\t'):
				lineEndStmt = pos
				pos = le
				continue
			}
			pos++
		}
		q = 0 // ordinary strings never span lines
		end = lineEndStmt
		if last >= p.last || !(triple || depth > 0 && p.continues(last+1, width)) {
			break
		}
		last++
		pos = p.lineStart(last)
	}
	for end > from && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r') {
		end--
	}
	return end, last
}

// continues reports whether line j continues an open bracket of a statement
// indented width: it must be deeper, or start with a closing bracket.
func (p *parser) continues(j, width int) bool {
	l := p.line(j)
	if isBlankLine(l) {
		return false
	}
	w, _ := p.indent(j)
	t := bytes.TrimSpace(l)
	return w > width || t[0] == ')' || t[0] == ']' || t[0] == '}'
}

// hasKeyword reports whether text starts with the word kw: kw followed by
// the end of text or a byte that is not a letter, digit or underscore.
func hasKeyword(text, kw string) bool {
	return strings.HasPrefix(text, kw) && (len(text) == len(kw) || !isWordByte(text[len(kw)]))
}

// isIfKw reports whether text starts with the keyword if or elif.
func isIfKw(text string) bool { return hasKeyword(text, "if") || hasKeyword(text, "elif") }

// hasKeywordColon reports whether text starts with kw, blanks and ":", and
// returns the offset just past the colon.
func hasKeywordColon(text, kw string) (int, bool) {
	if !strings.HasPrefix(text, kw) {
		return 0, false
	}
	i := len(kw)
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i < len(text) && text[i] == ':' {
		return i + 1, true
	}
	return 0, false
}

// isElseStmt reports whether text is exactly "else:" (blanks allowed before
// the colon).
func isElseStmt(text string) bool {
	n, ok := hasKeywordColon(text, "else")
	return ok && n == len(text)
}

// isNeedsStmt reports whether text starts with "needs:".
func isNeedsStmt(text string) bool {
	_, ok := hasKeywordColon(text, "needs")
	return ok
}

// statement parses the statement starting at offset lead on line i (indent
// width) into blk and returns the next line.
func (p *parser) statement(i, lead, width int, blk *ast.Block) int {
	end, last := p.logical(i, lead, width)
	p.trailingComment(end, p.lineEnd(last))
	text := string(p.src[lead:end])
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
	blk.Stmts = append(blk.Stmts, p.simpleStmts(lead, end)...)
	if strings.HasSuffix(text, ":") && p.nextIsDeeper(next, width) {
		// an unknown block opener: keep its body as one bad statement
		body, n := p.block(next, width)
		if len(body.Stmts) > 0 {
			p.errorf("indentation", body.Range, "unexpected indented block: only if, elif, else: and foreach open a block inside a target")
			blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: body.Range, Text: string(p.src[body.From.Offset():body.To.Offset()])})
		}
		return n
	}
	return next
}

func maxPos(a, b ast.Pos) ast.Pos {
	if a > b {
		return a
	}
	return b
}

func (p *parser) nextIsDeeper(j, width int) bool {
	for ; j <= p.last; j++ {
		if isBlankLine(p.line(j)) {
			continue
		}
		w, _ := p.indent(j)
		return w > width
	}
	return false
}

func isLegacyOp(text string) bool {
	if text == "" {
		return false
	}
	switch text[0] {
	case '?', '&', '>', '~', '@', '!':
		return !strings.HasPrefix(text, "!=")
	}
	return false
}

var reLegacyBind = regexp.MustCompile(`(->|→)[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*$`)

// legacyOp records a retired op line; the linter diagnoses it.
func (p *parser) legacyOp(from, to int) *ast.LegacyOpStmt {
	text := string(p.src[from:to])
	op := text[:1]
	if strings.HasPrefix(text, "??") {
		op = "??"
	}
	s := &ast.LegacyOpStmt{Range: ast.RangeOf(from, to), Op: op, Rest: strings.TrimSpace(text[len(op):])}
	if m := reLegacyBind.FindStringSubmatchIndex(text); m != nil {
		s.Bind = &ast.Binding{
			Range: ast.RangeOf(from+m[0], to),
			Arrow: ast.RangeOf(from+m[2], from+m[3]),
			Name:  &ast.Ident{Range: ast.RangeOf(from+m[4], from+m[5]), Name: text[m[4]:m[5]]},
		}
	}
	return s
}

// ifClause parses "if COND:" / "elif COND:" and its body.
func (p *parser) ifClause(lead, end, width int, blk *ast.Block, next int) int {
	kwEnd := scanIdent(p.src, lead, end)
	kw := string(p.src[lead:kwEnd])
	cl := &ast.CondClause{Keyword: ast.RangeOf(lead, kwEnd)}
	cl.Cond = p.parseCond(kwEnd, end-1)
	body, n := p.body(next, width, end)
	cl.Body = body
	cl.Range = ast.Range{From: ast.PosOf(lead), To: maxPos(ast.PosOf(end), body.To)}
	p.requireBody(body, cl.Keyword, kw)
	if kw == "if" {
		blk.Stmts = append(blk.Stmts, &ast.IfStmt{Range: cl.Range, Clauses: []*ast.CondClause{cl}})
		return n
	}
	if st := lastIf(blk); st != nil {
		st.Clauses = append(st.Clauses, cl)
		st.To = cl.To
		return n
	}
	p.errorf("parse-error", cl.Keyword, "\"elif\" without a preceding \"if\"")
	blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: cl.Range, Text: string(p.src[lead:end])})
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

var reForeachFull = regexp.MustCompile(`^foreach[ \t]+([^ \t]+)[ \t]+in[ \t]+(.+?)[ \t]*:$`)

// foreach parses "foreach X in ${LIST}:" and its body.
func (p *parser) foreach(lead, end, width int, blk *ast.Block, next int) int {
	text := string(p.src[lead:end])
	body, n := p.body(next, width, end)
	r := ast.Range{From: ast.PosOf(lead), To: maxPos(ast.PosOf(end), body.To)}
	m := reForeachFull.FindStringSubmatchIndex(text)
	if m == nil {
		p.errorf("malformed-op-grammar", ast.RangeOf(lead, end), "malformed foreach: write \"foreach ITEM in ${LIST}:\"")
		blk.Stmts = append(blk.Stmts, &ast.BadStmt{Range: r, Text: text})
		return n
	}
	st := &ast.ForeachStmt{Range: r, Body: body}
	st.Iter = &ast.Ident{Range: ast.RangeOf(lead+m[2], lead+m[3]), Name: text[m[2]:m[3]]}
	if !reIdent.MatchString(st.Iter.Name) {
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

// simpleStmts parses one logical line of simple statements.
func (p *parser) simpleStmts(from, to int) []ast.Stmt {
	toks, comments := lexStmt(p.src, from, to)
	for _, c := range comments {
		p.comment(c.from, c.to, true)
	}
	if len(toks) > 0 && toks[0].Type == tDollarWord {
		return []ast.Stmt{p.badDollarWord(toks[0], from, to)}
	}
	for _, t := range toks {
		if t.Type == tBadString {
			p.badString(t.Pos.Offset, t.Pos.Offset+len(t.Value))
			return []ast.Stmt{&ast.BadStmt{Range: ast.RangeOf(from, to), Text: string(p.src[from:to])}}
		}
	}
	pl, err := parseLine(toks)
	if err != nil {
		return []ast.Stmt{p.badStmt(from, to, err, "malformed-op-grammar")}
	}
	out := make([]ast.Stmt, 0, len(pl.Stmts))
	for _, s := range pl.Stmts {
		out = append(out, p.convStmt(s))
	}
	return out
}

// parseLine parses the tokens of one statement line: well-formed lines
// through the fast matcher, anything else through participle.
func parseLine(toks []lexer.Token) (*gLine, error) {
	if g, ok := fastLine(toks); ok {
		return g, nil
	}
	return lineParser.ParseFromLexer(mustUpgrade(toks))
}

// parseValue parses tokens holding one value, like [parseLine].
func parseValue(toks []lexer.Token) (*gValue, error) {
	if g, ok := fastValue(toks); ok {
		return g, nil
	}
	return valueParser.ParseFromLexer(mustUpgrade(toks))
}

// parseCondToks parses the tokens of a condition, like [parseLine].
func parseCondToks(toks []lexer.Token) (*gCond, error) {
	if g, ok := fastCond(toks); ok {
		return g, nil
	}
	return condParser.ParseFromLexer(mustUpgrade(toks))
}

func mustUpgrade(toks []lexer.Token) *lexer.PeekingLexer {
	pl, _ := lexer.Upgrade(&sliceLexer{toks: toks})
	return pl
}

func (p *parser) badDollarWord(t lexer.Token, from, to int) ast.Stmt {
	r := tokRange(t)
	word := t.Value[1:]
	d := p.errorf("malformed-op-grammar", r, "%q is not an op: the dispatch form is \"$ %s\" with a space after \"$\" (only $set and $append are written without one)", t.Value, word)
	d.WithFix("insert a space after $", ast.RangeOf(r.From.Offset()+1, r.From.Offset()+1), " ")
	return &ast.BadStmt{Range: ast.RangeOf(from, to), Text: string(p.src[from:to])}
}

// badStmt turns a participle error into one diagnostic and a BadStmt.
func (p *parser) badStmt(from, to int, err error, rule string) *ast.BadStmt {
	at := from
	msg := err.Error()
	if pe, ok := err.(interface {
		Position() lexer.Position
		Message() string
	}); ok {
		at = pe.Position().Offset
		msg = pe.Message()
	}
	at = min(max(at, from), to)
	endAt := tokenEndAt(p.src, at, to)
	text := string(p.src[from:to])
	p.errorf(rule, ast.RangeOf(at, endAt), "cannot parse %q: %s", abbreviate(text), explainParseError(text, friendly(msg), rule))
	return &ast.BadStmt{Range: ast.RangeOf(from, to), Text: text}
}

// reExpected matches participle's "(expected <grammar>)" tail.
var reExpected = regexp.MustCompile(`\s*\(expected (.*)\)$`)

// explainParseError replaces participle's grammar-internal "expected ..."
// wording with the shape the statement should have.
func explainParseError(text, msg, rule string) string {
	m := reExpected.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	head := strings.TrimSpace(msg[:len(msg)-len(m[0])])
	if !strings.ContainsAny(m[1], "*?|G") {
		return msg // a plain expectation like ")" reads fine
	}
	if strings.HasPrefix(m[1], `")"`) {
		return head + ": missing \")\" or a comma between arguments"
	}
	return head + "; " + expectedShape(text, rule)
}

// expectedShape describes the statement form that text looks like it was
// meant to be.
func expectedShape(text, rule string) string {
	t := strings.TrimSpace(text)
	switch {
	case rule == "invalid-conditional-syntax":
		return `a condition compares ${...} references and quoted or numeric literals with == != < > <= >= in "not in", joined by and / or / not`
	case strings.HasPrefix(t, "$set"):
		return "write $set NAME = value (one value; quote text that contains spaces)"
	case strings.HasPrefix(t, "$append"):
		return "write $append NAME value"
	case strings.HasPrefix(t, "$"):
		return "write $ connector.tool key=value ... -> VAR (fallback: value)"
	}
	if e := scanIdent([]byte(t), 0, len(t)); e > 0 {
		rest := strings.TrimSpace(t[e:])
		if !strings.HasPrefix(rest, "(") {
			return fmt.Sprintf("an op is a call like %s(key=value, ...), a $ dispatch, $set or $append", t[:e])
		}
	}
	return "write op(key=value, ...) -> VAR (fallback: value)"
}

func tokenEndAt(src []byte, at, to int) int {
	if at >= to {
		return to
	}
	toks, _ := lexStmt(src, at, to)
	if len(toks) > 0 && toks[0].Type != lexer.EOF {
		return toks[0].Pos.Offset + len(toks[0].Value)
	}
	return to
}

func abbreviate(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		return string(r[:57]) + "..."
	}
	return s
}

var reTokType = regexp.MustCompile(`<([a-z]+)>`)

// friendly rewrites participle's wording into plain words.
func friendly(msg string) string {
	msg = strings.ReplaceAll(msg, "<EOF>", "end of line")
	msg = strings.ReplaceAll(msg, `"EOF"`, "end of line")
	msg = reTokType.ReplaceAllString(msg, "$1")
	return msg
}

func tokRange(t lexer.Token) ast.Range {
	return ast.RangeOf(t.Pos.Offset, t.Pos.Offset+len(t.Value))
}

func tokSet(t lexer.Token) bool { return t.Value != "" || t.Type != 0 }

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
	toks, _ := lexStmt(p.src, from, to)
	v, err := parseValue(toks)
	if err != nil {
		p.badStmt(from, to, err, rule)
		return &ast.BareWord{Range: ast.RangeOf(from, to), Raw: string(p.src[from:to]), Value: textParser{p: p}.parse(from, to)}
	}
	return p.convValue(v)
}

// parseCond parses the condition in src[from:to].
func (p *parser) parseCond(from, to int) ast.Cond {
	for to > from && (p.src[to-1] == ' ' || p.src[to-1] == '\t') {
		to--
	}
	toks, _ := lexStmt(p.src, from, to)
	if nestingOf(toks) > maxNesting {
		p.errorf("invalid-conditional-syntax", ast.RangeOf(from, to), "condition nests \"not\" and parentheses more than %d deep", maxNesting)
		return nil
	}
	for _, t := range toks {
		if t.Type == tWord && (t.Value == "&&" || t.Value == "||") {
			word := map[string]string{"&&": "and", "||": "or"}[t.Value]
			p.errorf("invalid-conditional-syntax", tokRange(t), "%q is not a condition operator: use %q", t.Value, word).
				WithFix(fmt.Sprintf("replace %s with %s", t.Value, word), tokRange(t), word)
			return nil
		}
	}
	if len(toks) == 1 {
		p.errorf("invalid-conditional-syntax", ast.RangeOf(from, to), "missing condition")
		return nil
	}
	c, err := parseCondToks(toks)
	if err != nil {
		p.badStmt(from, to, err, "invalid-conditional-syntax")
		return nil
	}
	return p.convCond(c)
}

// nestingOf counts the "not" and "(" tokens of a condition: an upper bound
// of its nesting depth.
func nestingOf(toks []lexer.Token) int {
	n := 0
	for _, t := range toks {
		if t.Value == "not" || t.Value == "(" {
			n++
		}
	}
	return n
}
