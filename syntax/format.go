package syntax

import (
	"bytes"
	"errors"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// indentUnit is the canonical indentation of one block level.
const indentUnit = "    "

// FormatSource parses src and formats it. It refuses to format a source
// with error-severity diagnostics and returns those diagnostics instead.
func FormatSource(name string, src []byte) ([]byte, ast.Diagnostics) {
	f, diags := Parse(name, src)
	var errs ast.Diagnostics
	for _, d := range diags {
		if d.Severity == ast.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	out, err := Format(f)
	if err != nil {
		return nil, ast.Diagnostics{ast.Errorf("parse-error", f.Range, "%v", err)}
	}
	return out, nil
}

// Format prints f in the canonical layout (see the package documentation).
// It reuses the source text of every leaf, so strings, template text and
// prose outside a Markdown fence are kept byte for byte. f should come from
// a source without syntax errors; statements that did not parse are copied
// unchanged.
func Format(f *ast.File) ([]byte, error) {
	if f == nil || f.Lines == nil {
		return nil, errors.New("format: no parsed file")
	}
	fm := newFormatter(f)
	fm.file()
	return fm.out.Bytes(), nil
}

// formatter holds the state of one Format call.
type formatter struct {
	f     *ast.File
	src   []byte
	p     *parser // line helpers and the logical-statement scanner
	out   bytes.Buffer
	col   int // bytes written on the current output line
	cmts  []*ast.Comment
	ci    int // next comment to print
	last  int // last source line printed (for blank-line preservation)
	first bool

	topLimit    ast.Pos // start of the next top-level node
	prevTarget  bool    // the last top-level node was a target or default:
	prevComment bool    // the last top-level line was an own-line comment

	scratch []tok // the statement lexer's, reused
}

func newFormatter(f *ast.File) *formatter {
	p := &parser{src: f.Src, text: string(f.Src), lines: f.Lines, file: f}
	p.first, p.last = 1, f.Lines.LineCount()
	if p.last > 1 && len(p.lineTextTrim(p.last)) == 0 && p.lineStart(p.last) == len(p.src) {
		p.last--
	}
	cm := append([]*ast.Comment(nil), f.Comments...)
	sortComments(cm)
	return &formatter{f: f, src: f.Src, p: p, cmts: cm}
}

func sortComments(cm []*ast.Comment) {
	for i := 1; i < len(cm); i++ {
		for j := i; j > 0 && cm[j].From < cm[j-1].From; j-- {
			cm[j], cm[j-1] = cm[j-1], cm[j]
		}
	}
}

// Output helpers.

func (fm *formatter) write(s string) {
	fm.out.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		fm.col = len(s) - i - 1
	} else {
		fm.col += len(s)
	}
}

func (fm *formatter) newline() {
	if fm.out.Len() > 0 {
		fm.out.WriteByte('\n')
	}
	fm.col = 0
}

// endLine terminates the current output line if it has content.
func (fm *formatter) endLine() {
	if fm.col > 0 {
		fm.newline()
	}
}

// blank writes one empty line unless the output is empty or already ends
// with one.
func (fm *formatter) blank() {
	fm.endLine()
	b := fm.out.Bytes()
	if len(b) == 0 || bytes.HasSuffix(b, []byte("\n\n")) {
		return
	}
	fm.out.WriteByte('\n')
}

func (fm *formatter) indent(depth int) { fm.write(strings.Repeat(indentUnit, depth)) }

func (fm *formatter) line(pos ast.Pos) int { return fm.f.Lines.Position(pos).Line }

func (fm *formatter) lineOfOff(off int) int { return fm.line(ast.PosOf(off)) }

// gap returns the number of blank source lines between the last printed
// line and line n.
func (fm *formatter) gap(n int) int { return max(n-fm.last-1, 0) }

// Region and top level.

// region returns the byte range of the skill source: the whole file, or
// the inside of the ```skillscript fence.
func (fm *formatter) region() (from, to int) {
	if !fm.f.Fence.IsValid() {
		return 0, len(fm.src)
	}
	open := fm.line(fm.f.Fence.From)
	closeLn := fm.line(fm.f.Fence.To)
	from = fm.p.lineStart(open + 1)
	to = len(fm.src)
	if closeLn > open && reFenceClose().Match(fm.p.line(closeLn)) {
		to = fm.p.lineStart(closeLn)
	}
	return min(from, to), to
}

type topItem struct {
	node   ast.Node
	target bool // a target or default: (surrounded by blank lines)
}

func (fm *formatter) file() {
	from, to := fm.region()
	fm.out.Write(fm.src[:from])
	fm.col = 0
	if from > 0 && fm.src[from-1] != '\n' {
		fm.newline()
	}
	fm.last = fm.lineOfOff(from) - 1
	fm.first = true
	items := fm.topItems()
	for k, it := range items {
		fm.comments(it.node.Pos(), 0, -1, items[k:])
		fm.topGap(it)
		fm.topLimit = ast.PosOf(to + 1)
		if k+1 < len(items) {
			fm.topLimit = items[k+1].node.Pos()
		}
		fm.topNode(it.node)
	}
	fm.comments(ast.PosOf(to+1), 0, -1, nil)
	fm.endLine()
	if to < len(fm.src) {
		fm.out.Write(fm.src[to:])
	}
}

func (fm *formatter) topItems() []topItem {
	var items []topItem
	for _, n := range ast.Children(fm.f) {
		_, isT := n.(*ast.Target)
		_, isD := n.(*ast.DefaultDecl)
		items = append(items, topItem{node: n, target: isT || isD})
	}
	return items
}

// topGap writes the blank lines before a top-level node.
func (fm *formatter) topGap(it topItem) {
	n := fm.line(it.node.Pos())
	switch {
	case fm.first:
	case it.target && fm.prevComment && fm.gap(n) == 0:
		// a comment run attached to the target stays attached
	case it.target || fm.prevTarget:
		fm.blank()
	case fm.gap(n) > 0:
		fm.blank()
	}
	fm.first = false
	fm.prevComment = false
}

func (fm *formatter) topNode(n ast.Node) {
	fm.prevTarget = false
	switch n := n.(type) {
	case *ast.Header:
		fm.header(n)
	case *ast.Target:
		fm.target(n)
		fm.prevTarget = true
	case *ast.DefaultDecl:
		fm.defaultDecl(n)
		fm.prevTarget = true
	default:
		// templates start at column 0; a bad line keeps its indentation
		from := n.Pos().Offset()
		fm.raw(from-fm.p.lineStart(fm.lineOfOff(from)), from, n.End().Offset())
	}
}

// raw copies src[from:to] unchanged on a new line indented col spaces, and
// any comment that trails it on its last line.
// Continuation lines move by as much as the first line did, so that they
// stay deeper than it.
func (fm *formatter) raw(col, from, to int) {
	fm.endLine()
	fm.write(strings.Repeat(" ", col))
	delta := col - (from - fm.p.lineStart(fm.lineOfOff(from)))
	to += len(fm.crTail(to))
	lines := strings.Split(string(fm.src[from:to]), "\n")
	for i, l := range lines {
		if i > 0 {
			fm.newline()
			l = shiftLine(l, delta)
		}
		fm.write(l)
	}
	fm.finish(to)
}

// crTail returns "\r" when the source line ending at end ends in CRLF (or
// a final CR): copying it keeps text that itself ends in '\r' intact, since
// the parser strips one CR before a line end.
func (fm *formatter) crTail(end int) string {
	if end < len(fm.src) && fm.src[end] == '\r' && (end+1 == len(fm.src) || fm.src[end+1] == '\n') {
		return "\r"
	}
	return ""
}

// shiftLine re-indents l by delta columns. Its leading whitespace is
// measured the way the parser measures indentation (tabs to multiples of
// four) and rewritten as spaces, so the line keeps its depth relative to
// the statement's first line.
func shiftLine(l string, delta int) string {
	width, n := 0, 0
	for n < len(l) && (l[n] == ' ' || l[n] == '\t') {
		if l[n] == '\t' {
			width += 4 - width%4
		} else {
			width++
		}
		n++
	}
	if strings.TrimSpace(l) == "" {
		return l
	}
	return strings.Repeat(" ", max(width+delta, 0)) + l[n:]
}

// finish prints the comments trailing offset end on its line and records
// the line as printed.
func (fm *formatter) finish(end int) {
	ln := fm.lineOfOff(end)
	le := fm.p.lineEnd(ln)
	for fm.ci < len(fm.cmts) && fm.cmts[fm.ci].From.Offset() < le {
		c := fm.cmts[fm.ci]
		if c.From.Offset() >= end {
			fm.trailing(c.Text + fm.crTail(c.To.Offset()))
		}
		fm.ci++
	}
	fm.last = ln
	fm.endLine()
}

func (fm *formatter) trailing(text string) {
	if fm.col > 0 {
		fm.write("  ")
	}
	fm.write(text)
}

// comments prints the own-line comments before pos at depth. When minCol
// is not negative, it stops at the first comment indented less than minCol
// (that comment belongs to an outer block). next is used to decide blank
// lines before a comment run that leads into a target.
func (fm *formatter) comments(pos ast.Pos, depth, minCol int, next []topItem) {
	for fm.ci < len(fm.cmts) && fm.cmts[fm.ci].From < pos {
		c := fm.cmts[fm.ci]
		off := c.From.Offset()
		ln := fm.lineOfOff(off)
		col := off - fm.p.lineStart(ln)
		if minCol >= 0 && col < minCol {
			return
		}
		fm.commentGap(ln, depth, next)
		fm.endLine()
		d := depth
		if d == 0 && col > 0 && isHeaderLine(c.Text) {
			d = 1 // keep an indented "# Key:" comment from turning into a header
		}
		fm.indent(d)
		fm.write(c.Text + fm.crTail(c.To.Offset()))
		fm.ci++
		fm.last = ln
		fm.endLine()
	}
}

func (fm *formatter) commentGap(ln, depth int, next []topItem) {
	switch {
	case fm.first:
	case depth == 0 && fm.prevTarget:
		fm.blank()
	case depth == 0 && len(next) > 0 && next[0].target && fm.gap(ln) == 0 && fm.leadsInto(ln, next[0].node):
		fm.blank()
	case fm.gap(ln) > 0:
		fm.blank()
	}
	fm.first = false
	if depth == 0 {
		fm.prevTarget = false
		fm.prevComment = true
	}
}

// leadsInto reports whether the comments from line ln run without a blank
// line into node n.
func (fm *formatter) leadsInto(ln int, n ast.Node) bool {
	end := fm.line(n.Pos())
	for i := ln; i < end; i++ {
		if isBlankLine(fm.p.line(i)) {
			return false
		}
	}
	return true
}
