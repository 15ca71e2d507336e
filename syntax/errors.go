package syntax

// This file explains parse errors: participle's messages are rewritten
// into the shape the statement should have.

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/skillscript/skillc/ast"
)

func (p *parser) badDollarWord(t lexer.Token, from, to int) ast.Stmt {
	r := tokRange(t)
	word := t.Value[1:]
	d := p.errorf("malformed-op-grammar", r, "%q is not an op: the dispatch form is \"$ %s\" with a space after \"$\" (only $set and $append are written without one)", t.Value, word)
	d.WithFix("insert a space after $", ast.RangeOf(r.From.Offset()+1, r.From.Offset()+1), " ")
	return &ast.BadStmt{Range: ast.RangeOf(from, to), Text: p.text[from:to]}
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
	text := p.text[from:to]
	p.errorf(rule, ast.RangeOf(at, endAt), "cannot parse %q: %s", abbreviate(text), explainParseError(text, friendly(msg), rule))
	return &ast.BadStmt{Range: ast.RangeOf(from, to), Text: text}
}

// reExpected matches participle's "(expected <grammar>)" tail.
var reExpected = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\(expected (.*)\)$`) })

// explainParseError replaces participle's grammar-internal "expected ..."
// wording with the shape the statement should have.
func explainParseError(text, msg, rule string) string {
	m := reExpected().FindStringSubmatch(msg)
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

var reTokType = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<([a-z]+)>`) })

// friendly rewrites participle's wording into plain words.
func friendly(msg string) string {
	msg = strings.ReplaceAll(msg, "<EOF>", "end of line")
	msg = strings.ReplaceAll(msg, `"EOF"`, "end of line")
	msg = reTokType().ReplaceAllString(msg, "$1")
	return msg
}
