package syntax

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// spacing tells the token printer about the statements on a line: where
// statements start, which "=" belongs to a $set, which "(" opens a call.
type spacing struct {
	starts map[int]bool // offsets of statement starts after the first
	setEq  map[int]bool // offsets of $set's "="
	lparen map[int]bool // offsets of a call's "("
}

// tokens prints the tokens and comments of src[from:to] at the current
// output position with canonical spacing. Line breaks inside the range are
// kept where the source has them; continuation lines are indented from
// base (a column) by bracket depth. lead is written before the first
// token. It returns the offset just past the last token or comment.
func (fm *formatter) tokens(from, to, base int, lead string, sp spacing) int {
	toks, cmts := lexStmtScratch(fm.src, from, to, &fm.scratch)
	var prev *lexer.Token
	depth := 0
	ci := 0
	end := from
	for i := range toks {
		t := &toks[i]
		for ci < len(cmts) && (t.Type == lexer.EOF || cmts[ci].from < t.Pos.Offset) {
			fm.tokComment(cmts[ci], prev, base, depth)
			end = cmts[ci].to
			ci++
		}
		if t.Type == lexer.EOF {
			break
		}
		closer := isCloser(t.Value)
		switch {
		case prev == nil:
			fm.write(lead)
		case fm.col == 0 || hasNewline(fm.src, prev.Pos.Offset+len(prev.Value), t.Pos.Offset):
			fm.endLine()
			d := depth
			if closer {
				d--
			}
			if !closer {
				d = max(d, 1)
			}
			fm.write(strings.Repeat(" ", base) + strings.Repeat(indentUnit, max(d, 0)))
		default:
			fm.write(fm.space(prev, t, sp))
		}
		fm.write(fm.tokText(t, prev))
		switch {
		case t.Type == tPunct && isOpener(t.Value):
			depth++
		case closer && depth > 0:
			depth--
		}
		prev = t
		end = t.Pos.Offset + len(t.Value)
	}
	return end
}

// tokComment prints a comment found inside a token range: trailing when a
// token precedes it on its source line, else on its own line.
func (fm *formatter) tokComment(c lexComment, prev *lexer.Token, base, depth int) {
	own := prev == nil || hasNewline(fm.src, prev.Pos.Offset+len(prev.Value), c.from)
	if own && fm.col > 0 && prev != nil {
		fm.endLine()
	}
	if fm.col == 0 {
		fm.write(strings.Repeat(" ", base) + strings.Repeat(indentUnit, max(depth, 1)))
	} else {
		fm.write("  ")
	}
	fm.write(string(fm.src[c.from:c.to]) + fm.crTail(c.to))
	fm.endLine()
}

// tokText returns the text to print for t: its source, except that a
// glued "fallback:value" trailer or "needs:dep" list gets its canonical
// space (the parser reads both spellings the same way).
func (fm *formatter) tokText(t, prev *lexer.Token) string {
	if t.Type != tColonWord {
		return t.Value
	}
	for _, kw := range []string{"fallback:", "needs:"} {
		if !strings.HasPrefix(t.Value, kw) {
			continue
		}
		if kw == "fallback:" && (prev == nil || prev.Value != "(") || kw == "needs:" && prev != nil {
			continue
		}
		rest := t.Value[len(kw):]
		toks, cmts := lexStmt([]byte(rest), 0, len(rest))
		if len(cmts) == 0 && len(toks) == 2 && toks[0].Value == rest {
			return kw + " " + rest
		}
	}
	return t.Value
}

// space returns the separator between prev and t: the canonical one when
// it lexes the same as the source, else the source's own (one space or none).
func (fm *formatter) space(prev, t *lexer.Token, sp spacing) string {
	srcSep := ""
	if prev.Pos.Offset+len(prev.Value) < t.Pos.Offset {
		srcSep = " "
	}
	want := canonicalSpace(prev, t, sp)
	if want == srcSep || lexesSame(prev, t, want) {
		return want
	}
	return srcSep
}

func canonicalSpace(prev, t *lexer.Token, sp spacing) string {
	switch {
	case sp.starts[t.Pos.Offset]:
		return "  "
	case t.Type == tEq:
		if sp.setEq[t.Pos.Offset] {
			return " "
		}
		return ""
	case prev.Type == tEq:
		if sp.setEq[prev.Pos.Offset] {
			return " "
		}
		return ""
	case t.Type == tPunct && (isCloser(t.Value) || t.Value == ","):
		return ""
	case prev.Type == tPunct && isOpener(prev.Value):
		return ""
	case t.Type == tPunct && t.Value == "(" && sp.lparen[t.Pos.Offset]:
		return ""
	case t.Type == tColon && (prev.Type == tString || prev.Type == tSString):
		return ""
	}
	return " "
}

// lexesSame reports whether prev and t, joined by sep, still lex as the
// same two tokens.
func lexesSame(prev, t *lexer.Token, sep string) bool {
	buf := []byte(prev.Value + sep + t.Value)
	toks, cmts := lexStmt(buf, 0, len(buf))
	return len(cmts) == 0 && len(toks) == 3 &&
		toks[0].Type == prev.Type && toks[0].Value == prev.Value &&
		toks[1].Type == t.Type && toks[1].Value == t.Value
}

func isOpener(s string) bool { return s == "(" || s == "[" || s == "{" }
func isCloser(s string) bool { return s == ")" || s == "]" || s == "}" }

func hasNewline(src []byte, from, to int) bool {
	for i := from; i < to && i < len(src); i++ {
		if src[i] == '\n' {
			return true
		}
	}
	return false
}
