package syntax

import (
	"strings"

	"github.com/skillscript/skillc/ast"
)

// textParser turns raw source text (a string's contents, a bare word, a
// template line or an # Output: target) into an *ast.Text of literal parts,
// substitutions and secret markers, with exact ranges.
type textParser struct {
	p       *parser
	escapes bool // decode backslash escapes (quoted strings)
}

// litRun accumulates one literal run of a text. The run is a slice of the
// source text until an escape decodes to something else; only then is it
// copied into buf.
type litRun struct {
	p          *parser
	text       string // the whole source
	start, end int    // the run so far is text[start:end] while !decoded; start < 0 when empty
	decoded    bool
	buf        strings.Builder
}

func (r *litRun) add(at int, s string) {
	if r.start < 0 {
		r.start, r.end = at, at
	}
	if !r.decoded && at == r.end && at+len(s) <= len(r.text) && r.text[at:at+len(s)] == s {
		r.end += len(s)
		return
	}
	if !r.decoded {
		r.buf.WriteString(r.text[r.start:r.end])
		r.decoded = true
	}
	r.buf.WriteString(s)
}

// addSource adds the source bytes text[at:end] to the run.
func (r *litRun) addSource(at, end int) {
	if r.start < 0 {
		r.start, r.end = at, at
	}
	if !r.decoded && at == r.end {
		r.end = end
		return
	}
	if !r.decoded {
		r.buf.WriteString(r.text[r.start:r.end])
		r.decoded = true
	}
	r.buf.WriteString(r.text[at:end])
}

// flush appends the run, if any, to parts as a literal ending at end.
func (r *litRun) flush(parts []ast.TextPart, end int) []ast.TextPart {
	if r.start < 0 {
		return parts
	}
	v := r.text[r.start:r.end]
	if r.decoded {
		v = r.buf.String()
		r.buf.Reset()
	}
	l := r.p.lits.New()
	l.Range, l.Value = ast.RangeOf(r.start, end), v
	r.start, r.decoded = -1, false
	return append(parts, l)
}

// parse parses src[from:to].
func (tp textParser) parse(from, to int) *ast.Text {
	t := tp.p.texts.New()
	t.Range = ast.RangeOf(from, to)
	src := tp.p.src
	lit := litRun{p: tp.p, text: tp.p.text, start: -1}
	// parts are gathered on the parser's part stack (a nested parse, of a
	// filter argument, pushes above them and pops back), then copied to a
	// carved slice
	base := len(tp.p.partStack)
	parts := tp.p.partStack
	reported := false // one unterminated-substitution error per text
	i := from
	for i < to {
		c := src[i]
		if c != '$' && c != '{' && c != '\\' {
			// a run of plain bytes
			j := i + 1
			for j < to && src[j] != '$' && src[j] != '{' && src[j] != '\\' {
				j++
			}
			lit.addSource(i, j)
			i = j
			continue
		}
		switch {
		case c == '$' && (hasAt(src, i+1, to, "${") || hasAt(src, i+1, to, "$(")):
			// "$${" / "$$(" escape a literal "${" / "$("
			lit.add(i, "$")
			lit.add(i, string(src[i+2]))
			i += 3
			continue
		case hasAt(src, i, to, "${") || hasAt(src, i, to, "$("):
			closer := substCloser(src[i+1])
			if end, ok := substEnd(src, i, to, closer); ok {
				tp.p.partStack = lit.flush(parts, i)
				sub := tp.p.parseSubst(i, end, tp.escapes)
				parts = append(tp.p.partStack, sub)
				i = end
				continue
			}
			if closer == '}' && !reported {
				reported = true
				tp.p.errorf("parse-error", ast.RangeOf(i, min(i+2, to)), "unterminated substitution: \"${\" has no closing \"}\"")
			}
		case hasAt(src, i, to, "{{"):
			if e := indexFrom(src, i+2, to, "}}"); e >= 0 && isSecretMarker(src[i+2:e]) {
				parts = append(lit.flush(parts, i), tp.p.parseSecret(i, e+2))
				i = e + 2
				continue
			}
		case c == '\\' && tp.escapes && hasAt(src, i+1, to, "${"):
			// a backslash before a substitution is a literal backslash and
			// the substitution still happens, as in the template (decision
			// V3); the literal "${" is written "$${"
			lit.add(i, `\`)
			i++
			continue
		case c == '\\' && tp.escapes && i+1 < to:
			lit.add(i, decodeEscape(src[i+1]))
			i += 2
			continue
		}
		lit.add(i, string(src[i:i+1]))
		i++
	}
	parts = lit.flush(parts, to)
	if n := len(parts) - base; n > 0 {
		t.Parts = tp.p.parts.Make(n, n)
		copy(t.Parts, parts[base:])
	}
	tp.p.partStack = parts[:base]
	return t
}

func hasAt(src []byte, i, to int, s string) bool {
	return i+len(s) <= to && string(src[i:i+len(s)]) == s
}

func isSecretMarker(inner []byte) bool {
	return strings.HasPrefix(strings.TrimSpace(string(inner)), "secret.")
}

// decodeEscape decodes the character after a backslash. Unknown escapes keep
// the backslash so that regexes and Windows paths survive.
func decodeEscape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '"':
		return `"`
	case '\'':
		return "'"
	case '\\':
		return `\`
	}
	return `\` + string(c)
}

// parseSecret parses "{{secret.NAME}}" at src[from:to].
func (p *parser) parseSecret(from, to int) *ast.SecretRef {
	inner := strings.TrimSpace(p.text[from+2 : to-2])
	name := strings.TrimPrefix(inner, "secret.")
	s := &ast.SecretRef{Range: ast.RangeOf(from, to)}
	if isIdent(name) && !strings.Contains(name, "-") {
		s.Name = name
	} else {
		s.Bad = inner
	}
	return s
}

// parseSubst parses "${...}" or "$(...)" at src[from:to]. inString says the
// substitution sits inside a quoted string, where \" may quote filter args.
func (p *parser) parseSubst(from, to int, inString bool) *ast.Subst {
	s := p.substs.New()
	s.Range, s.Legacy = ast.RangeOf(from, to), p.src[from+1] == '('

	i, end := from+2, to-1
	src := p.src
	i = skipBlanks(src, i, end)
	j := scanIdent(src, i, end)
	if j == i {
		s.Bad = p.text[from+2 : end]
		return s
	}
	s.Root = p.newIdent(ast.RangeOf(i, j), p.text[i:j])
	i = j
	for i < end && src[i] == '.' {
		k := i + 1
		for k < end && (isWordByte(src[k]) || src[k] == '-') {
			k++
		}
		if k == i+1 {
			s.Bad = p.text[from+2 : end]
			return s
		}
		seg := p.text[i+1 : k]
		s.Path = append(s.Path, &ast.PathSeg{Range: ast.RangeOf(i, k), Name: seg, Index: allDigits(seg)})
		i = k
	}
	for {
		i = skipBlanks(src, i, end)
		if i >= end || src[i] != '|' {
			break
		}
		f, next, ok := p.parseFilter(i, end)
		if !ok {
			s.Bad = p.text[from+2 : end]
			return s
		}
		s.Filters = append(s.Filters, f)
		i = next
	}
	if skipBlanks(src, i, end) < end {
		s.Bad = p.text[from+2 : end]
	}
	return s
}

// parseFilter parses "|name" or "|name:arg" starting at the '|'.
func (p *parser) parseFilter(i, end int) (*ast.Filter, int, bool) {
	src := p.src
	start := i
	i = skipBlanks(src, i+1, end)
	j := scanIdent(src, i, end)
	if j == i {
		return nil, 0, false
	}
	f := &ast.Filter{Name: p.newIdent(ast.RangeOf(i, j), p.text[i:j])}
	i = j
	if i < end && src[i] == ':' {
		argStart := i + 1
		k, val, quoted, ok := scanFilterArg(src, argStart, end)
		if !ok {
			return nil, 0, false
		}
		f.Arg = &ast.FilterArg{Range: ast.RangeOf(argStart, k), Value: val, Quoted: quoted}
		f.Arg.Text = p.filterArgText(argStart, k, quoted)
		i = k
	}
	f.Range = ast.RangeOf(start, i)
	return f, i, true
}

// filterArgText parses the quoted filter argument at src[from:to] as text
// when it holds a substitution (|contains:"${KW}"); nil otherwise.
func (p *parser) filterArgText(from, to int, quoted bool) *ast.Text {
	if !quoted {
		return nil
	}
	q := 1 // "x" or 'x'
	if p.src[from] == '\\' {
		q = 2 // \"x\"
	}
	t := textParser{p: p}.parse(from+q, to-q)
	for _, part := range t.Parts {
		if _, ok := part.(*ast.Subst); ok {
			return t
		}
	}
	return nil
}

// scanFilterArg scans a filter argument: "x", \"x\", or a bare run up to
// '|' or the end.
func scanFilterArg(src []byte, i, end int) (next int, val string, quoted, ok bool) {
	switch {
	case i < end && (src[i] == '"' || src[i] == '\''):
		k := i + 1
		for k < end && src[k] != src[i] {
			k++
		}
		if k >= end {
			return 0, "", false, false
		}
		return k + 1, string(src[i+1 : k]), true, true
	case i+1 < end && src[i] == '\\' && src[i+1] == '"':
		k := i + 2
		for k+1 < end && !(src[k] == '\\' && src[k+1] == '"') {
			k++
		}
		if k+1 >= end {
			return 0, "", false, false
		}
		return k + 2, string(src[i+2 : k]), true, true
	}
	k := i
	for k < end && src[k] != '|' && !isSpace(src[k]) {
		k++
	}
	return k, string(src[i:k]), false, true
}

func skipBlanks(src []byte, i, end int) int {
	for i < end && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

func scanIdent(src []byte, i, end int) int {
	if i >= end || !isWordStart(src[i]) {
		return i
	}
	j := i + 1
	for j < end && (isWordByte(src[j]) || src[j] == '-') {
		j++
	}
	return j
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// stringLit builds a StringLit from a String, SString or Triple token at
// src[from:to].
func (p *parser) stringLit(from, to int) *ast.StringLit {
	raw := p.text[from:to]
	lit := p.strLits.New()
	lit.Range, lit.Raw = ast.RangeOf(from, to), raw
	tp := textParser{p: p, escapes: true}
	switch {
	case strings.HasPrefix(raw, `"""`):
		lit.Kind = ast.TripleQuoted
		lit.Value = p.tripleText(from+3, to-3)
	case raw[0] == '\'':
		lit.Kind = ast.SingleQuoted
		lit.Value = tp.parse(from+1, to-1)
	default:
		lit.Kind = ast.DoubleQuoted
		lit.Value = tp.parse(from+1, to-1)
	}
	return lit
}

// tripleText parses the body of a """...""" string: leading and trailing
// blank lines are dropped and the common indentation of the non-blank lines
// is removed (before interpolation, so substituted values keep their own
// whitespace).
func (p *parser) tripleText(from, to int) *ast.Text {
	src := p.src
	type span struct{ a, b int }
	var lines []span
	a := from
	for i := from; i <= to; i++ {
		if i == to || src[i] == '\n' {
			lines = append(lines, span{a, i})
			a = i + 1
		}
	}
	blank := func(s span) bool { return strings.TrimSpace(string(src[s.a:s.b])) == "" }
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	common := -1
	for _, l := range lines {
		if blank(l) {
			continue
		}
		n := 0
		for l.a+n < l.b && (src[l.a+n] == ' ' || src[l.a+n] == '\t') {
			n++
		}
		if common < 0 || n < common {
			common = n
		}
	}
	t := &ast.Text{Range: ast.RangeOf(from, to)}
	tp := textParser{p: p, escapes: true}
	for i, l := range lines {
		start := min(l.a+max(common, 0), l.b)
		if blank(l) {
			start = l.b
		}
		part := tp.parse(start, l.b)
		t.Parts = append(t.Parts, part.Parts...)
		if i < len(lines)-1 {
			t.Parts = append(t.Parts, &ast.Lit{Range: ast.RangeOf(l.b, l.b+1), Value: "\n"})
		}
	}
	return t
}
