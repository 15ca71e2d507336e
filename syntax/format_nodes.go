package syntax

import (
	"strings"
	"unicode"

	"github.com/skillscript/skillc/ast"
)

// Headers.

// header prints "# Key: value" with the canonical key spelling and a
// normalized value, and for # Tests: its YAML block unchanged.
func (fm *formatter) header(h *ast.Header) {
	fm.endLine()
	fm.write("# " + h.Kind.String() + ":")
	if v := fm.headerValue(h); v != "" {
		fm.write(" " + v)
	}
	ln := fm.line(h.Pos())
	if h.Tests == nil {
		fm.finish(max(h.ValueRng.To.Offset(), h.Key.To.Offset()))
	} else {
		fm.last = ln
		fm.endLine()
	}
	if h.Tests != nil && fm.line(h.Tests.Pos()) > ln {
		fm.out.Write(fm.src[fm.p.lineStart(ln+1):h.Tests.To.Offset()])
		fm.out.WriteString(fm.crTail(h.Tests.To.Offset()))
		fm.last = fm.line(h.Tests.End())
		fm.newline()
	}
}

// headerValue returns the normalized value of h, or its raw value when
// normalizing would change anything but spacing and letter case.
func (fm *formatter) headerValue(h *ast.Header) string {
	v := fm.normalValue(h)
	if squeeze(v) != squeeze(h.Value) {
		return h.Value
	}
	return v
}

// squeeze drops whitespace and folds case: the content a header value must
// keep through formatting.
func squeeze(s string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s))
}

func (fm *formatter) normalValue(h *ast.Header) string {
	switch h.Kind {
	case ast.HeaderStatus:
		return fm.statusValue(h)
	case ast.HeaderType:
		if len(h.Names) == 1 {
			return h.Names[0].Name
		}
	case ast.HeaderAutonomous:
		if h.Bool != nil {
			return strings.ToLower(h.Value)
		}
	case ast.HeaderVars:
		return join(h.Vars, fm.varDecl)
	case ast.HeaderReturns, ast.HeaderTemplates, ast.HeaderTags:
		return join(h.Names, func(n *ast.Ident) string { return n.Name })
	case ast.HeaderRequires:
		return join(h.Reqs, func(r *ast.Requirement) string { return fm.snippet(r.Span()) })
	case ast.HeaderTriggers:
		return fm.triggers(h)
	case ast.HeaderOutput:
		return join(h.Outputs, fm.output)
	case ast.HeaderClassification:
		return classificationValue(h)
	}
	return h.Value
}

// classificationValue prints the pairs in source order, one blank apart,
// items joined by commas without blanks. Pairs are not reordered or
// re-cased: formatting never changes the tree.
func classificationValue(h *ast.Header) string {
	if len(h.Pairs) == 0 {
		return h.Value
	}
	parts := make([]string, len(h.Pairs))
	for i, kv := range h.Pairs {
		items := make([]string, len(kv.Items))
		for j, it := range kv.Items {
			items[j] = it.Name
		}
		parts[i] = kv.Key.Name + "=" + strings.Join(items, ",")
	}
	return strings.Join(parts, " ")
}

func join[T any](xs []T, f func(T) string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = f(x)
	}
	return strings.Join(parts, ", ")
}

func (fm *formatter) statusValue(h *ast.Header) string {
	sv := h.Status
	if sv == nil || sv.State == "" {
		return h.Value
	}
	if sv.Token != "" {
		return sv.State + " " + sv.Token
	}
	return sv.State
}

// varDecl prints NAME or NAME=default.
func (fm *formatter) varDecl(d *ast.VarDecl) string {
	if d.Default == nil {
		if d.Eq.IsValid() {
			return d.Name.Name + "="
		}
		return d.Name.Name
	}
	if _, ok := d.Default.(*ast.BareWord); ok || !d.Default.Span().IsValid() || d.Default.Pos() == d.Default.End() {
		return d.Name.Name + "=" + fm.text(d.Default.Span())
	}
	return d.Name.Name + "=" + fm.snippet(d.Default.Span())
}

func (fm *formatter) triggers(h *ast.Header) string {
	var b strings.Builder
	for i, t := range h.Triggers {
		if i > 0 {
			sep := strings.TrimSpace(fm.text(ast.Range{From: h.Triggers[i-1].To, To: t.From}))
			b.WriteString(sep + " ")
		}
		b.WriteString(t.Source.Name + ": " + fm.text(t.SpecRange))
	}
	return b.String()
}

func (fm *formatter) output(o *ast.OutputSpec) string {
	if o.Target == nil {
		return o.Kind.Name
	}
	return o.Kind.Name + ": " + fm.text(o.Target.Span())
}

func (fm *formatter) text(r ast.Range) string {
	if !r.IsValid() {
		return ""
	}
	return string(fm.src[r.From.Offset():r.To.Offset()])
}

// snippet returns the tokens of r with canonical spacing, on one line.
func (fm *formatter) snippet(r ast.Range) string {
	sub := &formatter{f: fm.f, src: fm.src, p: fm.p}
	sub.tokens(r.From.Offset(), r.To.Offset(), 0, "", spacing{})
	return strings.TrimRight(sub.out.String(), "\n")
}

// Targets.

func (fm *formatter) target(t *ast.Target) {
	fm.endLine()
	fm.write(t.Name.Name + ":")
	colon := t.Colon.Offset()
	fm.lineRest(colon + 1)
	limit := fm.topLimit
	if t.Else != nil {
		limit = t.Else.Pos()
	}
	fm.block(t.Body, 1, limit)
	if t.Else != nil {
		fm.comments(t.Else.Pos(), 0, -1, nil)
		fm.prevComment = false
		fm.endLine()
		fm.clause("else", t.Else.Pos().Offset(), -1, 0)
		fm.block(t.Else.Body, 1, fm.topLimit)
	}
}

// advance skips the comments that start before offset end: they have been
// printed as part of a token range.
func (fm *formatter) advance(end int) {
	for fm.ci < len(fm.cmts) && fm.cmts[fm.ci].From.Offset() < end {
		fm.ci++
	}
}

func (fm *formatter) defaultDecl(d *ast.DefaultDecl) {
	fm.endLine()
	fm.write("default:")
	from := d.Pos().Offset()
	ln := fm.lineOfOff(from)
	colon := from + strings.IndexByte(string(fm.src[from:fm.p.lineEnd(ln)]), ':')
	fm.lineRest(colon + 1)
}

// lineRest prints the rest of a target or default: line after its colon,
// splitting off a trailing comment the way the parser does.
func (fm *formatter) lineRest(from int) {
	end := stripTrailingComment(fm.src, from, fm.p.lineEnd(fm.lineOfOff(from)))
	fm.tokens(from, end, 0, " ", spacing{})
	fm.finish(end)
}

// Blocks and statements.

// block prints the statements of b at depth, with the own-line comments
// among them; limit is where the enclosing construct's next sibling starts.
func (fm *formatter) block(b *ast.Block, depth int, limit ast.Pos) {
	first := true
	for i := 0; i < len(b.Stmts); {
		s := b.Stmts[i]
		fm.blockComments(s.Pos(), depth, &first)
		if !first && fm.gap(fm.line(s.Pos())) > 0 {
			fm.blank()
		}
		first = false
		i = fm.stmt(b, i, depth, fm.nextLimit(b, i, limit))
	}
	minCol := b.Indent
	if len(b.Stmts) > 0 {
		off := b.Stmts[0].Pos().Offset()
		minCol = off - fm.p.lineStart(fm.lineOfOff(off))
	}
	for fm.ci < len(fm.cmts) && fm.cmts[fm.ci].From < limit {
		c := fm.cmts[fm.ci]
		off := c.From.Offset()
		if off-fm.p.lineStart(fm.lineOfOff(off)) < minCol {
			break
		}
		fm.blockComments(c.To, depth, &first)
	}
}

func (fm *formatter) nextLimit(b *ast.Block, i int, limit ast.Pos) ast.Pos {
	if i+1 < len(b.Stmts) {
		return b.Stmts[i+1].Pos()
	}
	return limit
}

// blockComments prints the own-line comments before pos inside a block.
func (fm *formatter) blockComments(pos ast.Pos, depth int, first *bool) {
	for fm.ci < len(fm.cmts) && fm.cmts[fm.ci].From < pos {
		c := fm.cmts[fm.ci]
		ln := fm.line(c.From)
		if !*first && fm.gap(ln) > 0 {
			fm.blank()
		}
		*first = false
		fm.endLine()
		fm.indent(depth)
		fm.write(c.Text + fm.crTail(c.To.Offset()))
		fm.ci++
		fm.last = ln
		fm.endLine()
	}
}

// stmt prints statement i of b (and any further statements sharing its
// line) and returns the index of the next statement to print.
func (fm *formatter) stmt(b *ast.Block, i, depth int, limit ast.Pos) int {
	switch s := b.Stmts[i].(type) {
	case *ast.IfStmt:
		fm.ifStmt(s, depth, limit)
		return i + 1
	case *ast.ForeachStmt:
		fm.clause("foreach", s.Pos().Offset(), -1, depth)
		fm.block(s.Body, depth+1, limit)
		return i + 1
	case *ast.BadStmt, *ast.LegacyOpStmt:
		fm.raw(depth*len(indentUnit), s.Pos().Offset(), s.End().Offset())
		return i + 1
	}
	return fm.simpleLine(b, i, depth)
}

func (fm *formatter) ifStmt(s *ast.IfStmt, depth int, limit ast.Pos) {
	for k, c := range s.Clauses {
		kw := fm.text(c.Keyword)
		fm.clause(kw, c.Pos().Offset(), c.Keyword.To.Offset(), depth)
		next := limit
		if k+1 < len(s.Clauses) {
			next = s.Clauses[k+1].Pos()
		} else if s.Else != nil {
			next = s.Else.Pos()
		}
		fm.block(c.Body, depth+1, next)
	}
	if s.Else != nil {
		fm.blockComments(s.Else.Pos(), depth, new(bool))
		fm.clause("else", s.Else.Pos().Offset(), -1, depth)
		fm.block(s.Else.Body, depth+1, limit)
	}
}

// clause prints a block header line "kw ...:" starting at offset from:
// if/elif (kwEnd is the end of the keyword), foreach, or else.
func (fm *formatter) clause(kw string, from, kwEnd, depth int) {
	fm.endLine()
	fm.indent(depth)
	ln := fm.lineOfOff(from)
	w, _ := fm.p.indent(ln)
	end, last := fm.p.logical(ln, from, w)
	if kwEnd < 0 {
		kwEnd = from + len(kw)
	}
	fm.write(kw)
	colon := end - 1
	if colon > kwEnd {
		fm.tokens(kwEnd, colon, depth*len(indentUnit), " ", spacing{})
	}
	fm.write(":")
	tail := fm.tokens(end, fm.p.lineEnd(last), depth*len(indentUnit), " ", spacing{})
	fm.advance(max(tail, fm.p.lineEnd(last)))
	fm.last = last
	fm.endLine()
}

// simpleLine prints the logical line holding statement i and the other
// simple statements written on it.
func (fm *formatter) simpleLine(b *ast.Block, i, depth int) int {
	s := b.Stmts[i]
	from := s.Pos().Offset()
	ln := fm.lineOfOff(from)
	w, _ := fm.p.indent(ln)
	end, last := fm.p.logical(ln, from, w)
	sp := spacing{starts: map[int]bool{}, setEq: map[int]bool{}, lparen: map[int]bool{}}
	j := i
	for ; j < len(b.Stmts) && b.Stmts[j].Pos().Offset() < max(end, from+1); j++ {
		if j > i {
			sp.starts[b.Stmts[j].Pos().Offset()] = true
		}
		markSpacing(b.Stmts[j], sp)
	}
	fm.endLine()
	fm.indent(depth)
	tail := fm.tokens(from, fm.p.lineEnd(last), depth*len(indentUnit), "", sp)
	fm.advance(max(tail, fm.p.lineEnd(last)))
	fm.last = last
	fm.endLine()
	return max(j, i+1)
}

func markSpacing(s ast.Stmt, sp spacing) {
	switch s := s.(type) {
	case *ast.SetStmt:
		if s.Eq.IsValid() {
			sp.setEq[s.Eq.Offset()] = true
		}
	case *ast.CallStmt:
		if s.Lparen.IsValid() {
			sp.lparen[s.Lparen.Offset()] = true
		}
	}
}
