package syntax

// This file holds the line pre-scan: line classes, indentation, the
// encoding check, the skillscript fence and logical (multi-line) statements.

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillscript/skillc/ast"
)

// line helpers (1-based line numbers)

// lineStart, lineEnd and line give the byte range and text of line i; a
// UTF-8 byte order mark at the start of the file is not part of line 1.
func (p *parser) lineStart(i int) int {
	if i == 1 {
		return p.lines.LineStart(i) + p.bom
	}
	return p.lines.LineStart(i)
}
func (p *parser) lineEnd(i int) int { return p.lines.LineEnd(i) }
func (p *parser) line(i int) []byte {
	if i == 1 {
		return p.lines.Line(i)[p.bom:]
	}
	return p.lines.Line(i)
}

// utf8BOM is the byte order mark some editors write at the start of a file.
const utf8BOM = "\xef\xbb\xbf"

// skipBOM steps over a byte order mark at the start of the source, with an
// info diagnostic: otherwise the mark glues itself to the first line and a
// "# Skill:" header there would read as body text.
func (p *parser) skipBOM() {
	if !bytes.HasPrefix(p.src, []byte(utf8BOM)) {
		return
	}
	p.bom = len(utf8BOM)
	p.report(ast.Infof("byte-order-mark", ast.RangeOf(0, p.bom), "the file starts with a UTF-8 byte order mark; it is ignored (save the file as UTF-8 without BOM)")).
		WithFix("remove the byte order mark", ast.RangeOf(0, p.bom), "")
}

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

var reFenceOpen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s*```+\\s*(skillscript|skill)\\s*$") })
var reFenceClose = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s*```+\\s*$") })

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

func (p *parser) lineTextTrim(i int) []byte { return bytes.TrimSpace(p.line(i)) }

// checkEncoding rejects binary and non-UTF-8 input with one diagnostic.
func (p *parser) checkEncoding() bool {
	if i := bytes.IndexByte(p.src, 0); i >= 0 {
		p.errorf("parse-error", ast.RangeOf(i, i+1), "file contains a NUL byte: this is a binary file, not a skillscript source")
		p.file.NotText = true
		return false
	}
	if utf8.Valid(p.src) {
		return true
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
	if !bytes.Contains(p.src, []byte("```")) {
		return // no line can open a fence
	}
	for i := p.first; i <= p.last; i++ {
		if l := p.line(i); !hasFenceMark(l) || !reFenceOpen().Match(l) {
			continue
		}
		end := p.last
		closed := false
		for j := i + 1; j <= p.last; j++ {
			if reFenceClose().Match(p.line(j)) {
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

// headerMatch matches a header line, as the expression
// ^#[ \t]*([A-Za-z][A-Za-z0-9_-]*)[ \t]*: would: key is the name's
// byte range and end the offset after the colon. The expression has one
// way to match (the name cannot stop before a name byte, which is neither
// blank nor a colon), so a scan decides it without backtracking (decision
// CF6); TestHeaderMatchAgrees holds the two equal.
func headerMatch[T ~string | ~[]byte](line T) (keyStart, keyEnd, end int, ok bool) {
	if len(line) == 0 || line[0] != '#' {
		return 0, 0, 0, false
	}
	i := 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || !isASCIILetter(line[i]) {
		return 0, 0, 0, false
	}
	keyStart = i
	for i++; i < len(line) && (isASCIILetter(line[i]) || line[i] >= '0' && line[i] <= '9' || line[i] == '_' || line[i] == '-'); i++ {
	}
	keyEnd = i
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || line[i] != ':' {
		return 0, 0, 0, false
	}
	return keyStart, keyEnd, i + 1, true
}

// isHeaderLine reports whether line is a header line (headerMatch).
func isHeaderLine[T ~string | ~[]byte](line T) bool {
	_, _, _, ok := headerMatch(line)
	return ok
}

// isDefaultLine reports whether text is a "default:" line, the
// expression `^default[ \t]*:(.*)$` (kept in the tests, which hold the two
// together): matched by hand, a one-shot check does not compile it.
func isDefaultLine(text string) bool {
	rest, ok := strings.CutPrefix(text, "default")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	return strings.HasPrefix(rest, ":") && !strings.Contains(rest, "\n")
}

// isElseLine reports whether text is a column-0 "else:" line with at most
// a comment after it, the expression `^else[ \t]*:[ \t]*(#.*)?$` (kept in
// the tests), matched by hand.
func isElseLine(text string) bool {
	rest, ok := strings.CutPrefix(text, "else")
	if !ok {
		return false
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t"), ":")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	return rest == "" || rest[0] == '#' && !strings.Contains(rest, "\n")
}

// isDepList reports whether rest, the text after a target header's
// colon, is a dependency list: an optional "needs:", names separated by
// blanks and at most one comma, at most one trailing comma, an optional
// comment. It is the expression depListPattern (kept in the tests, which
// compare the two), by hand: compiling the expression cost every process
// that parsed a target ~0.1 ms.
func isDepList(rest string) bool {
	i := skipBlankStr(rest, 0)
	if strings.HasPrefix(rest[i:], "needs") {
		if j := skipBlankStr(rest, i+len("needs")); j < len(rest) && rest[j] == ':' {
			i = j + 1
		}
	}
	names, comma := false, false // a name seen; the last token a comma
	for i = skipBlankStr(rest, i); i < len(rest); i = skipBlankStr(rest, i) {
		switch c := rest[i]; {
		case c == '#':
			return strings.IndexByte(rest[i:], '\n') < 0
		case c == ',':
			if comma {
				return false
			}
			comma = true
			i++
		case isWordStart(c):
			if comma && !names {
				return false // a comma before the first name
			}
			names, comma = true, false
			i += identLen(rest[i:])
		default:
			return false
		}
	}
	return true
}

// skipBlankStr returns the offset of the first byte of s at or after i that
// is neither a space nor a tab.
func skipBlankStr(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
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

// logicalSpecial marks the bytes the logical-line scan looks at outside
// strings; it steps over every other byte at once.
var logicalSpecial = func() (t [256]bool) {
	for _, c := range []byte(`"'([{)]}#`) {
		t[c] = true
	}
	return t
}()

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
			if !triple && q == 0 && !logicalSpecial[c] {
				pos++
				continue
			}
			switch {
			case triple:
				if c == '\\' {
					pos++
				} else if hasAt(src, pos, le, `"""`) {
					triple = false
					pos += 2
				}
			case q != 0:
				// step over the bytes that neither end the string nor
				// start an escape or a substitution (a long literal)
				for c != '\\' && c != q && c != '$' {
					if pos++; pos == le {
						break
					}
					c = src[pos]
				}
				if pos == le {
					continue
				}
				if c == '\\' {
					pos++
				} else if c == q {
					q = 0
				} else if hasAt(src, pos, le, "${") || hasAt(src, pos, le, "$(") {
					if e, ok := substEnd(src, pos, le, substCloser(src[pos+1])); ok {
						pos = e - 1
					}
				}
			case c == '"' && hasAt(src, pos, le, `"""`):
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

// targetHeaderRest matches a target header line "name:" (a name, blanks,
// a colon) without a regular expression and returns the text after the
// colon; ok is false when text is not shaped so or the rest holds a
// newline. TestClassifiers and FuzzClassifiers compare it with the
// expression ^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*)$.
func targetHeaderRest(text string) (rest string, ok bool) {
	n := identLen(text)
	if n == 0 {
		return "", false
	}
	for n < len(text) && (text[n] == ' ' || text[n] == '\t') {
		n++
	}
	if n == len(text) || text[n] != ':' {
		return "", false
	}
	rest = text[n+1:]
	if strings.IndexByte(rest, '\n') >= 0 {
		return "", false
	}
	return rest, true
}
