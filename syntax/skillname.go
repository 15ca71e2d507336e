package syntax

import (
	"bytes"
	"unicode/utf8"

	"github.com/skillscript/skillc/ast"
)

// SkillName returns the name the first `# Skill:` header of src declares,
// the value Parse(name, src).SkillName() gives, without parsing: it reads
// the leading block of blank, comment and header lines only. ok is false
// when that block does not settle the answer (the block ends before any
// `# Skill:` line, a `# Tests:` block, a byte order mark, a fence, a NUL
// byte or text that is not UTF-8); the caller parses the file then. A
// skill store indexes thousands of names this way and parses only the
// skills it is asked about.
func SkillName(src []byte) (name string, ok bool) {
	if bytes.HasPrefix(src, []byte(utf8BOM)) || bytes.IndexByte(src, 0) >= 0 ||
		bytes.Contains(src, []byte("```")) || !utf8.Valid(src) {
		return "", false
	}
	for start := 0; start < len(src); {
		ls, le := start, len(src)
		if nl := bytes.IndexByte(src[start:], '\n'); nl >= 0 {
			le = start + nl
			start = le + 1
		} else {
			start = len(src)
		}
		if le > ls && src[le-1] == '\r' {
			le--
		}
		line := src[ls:le]
		if isBlankLine(line) {
			continue
		}
		if line[0] != '#' {
			return "", false // a statement, target or indented line: parse
		}
		ks, ke, colon := headerKey(line)
		if colon < 0 {
			continue // a comment
		}
		switch kind, _ := ast.LookupHeader(string(line[ks:ke])); kind {
		case ast.HeaderSkill:
			vs := skipBlanks(src, ls+colon+1, le)
			ve := stripTrailingComment(src, vs, le)
			for ve > vs && (src[ve-1] == ' ' || src[ve-1] == '\t' || src[ve-1] == '\r') {
				ve--
			}
			return string(src[vs:ve]), true
		case ast.HeaderTests:
			return "", false // an indented block follows
		}
	}
	return "", false
}

// headerKey matches `#[ \t]*KEY[ \t]*:` (KEY a letter, then letters,
// digits, '_' and '-') at the start of line, as the parser's header
// pattern does: it returns the key's bounds and the offset of the colon,
// or colon -1 when line is not a header line.
func headerKey(line []byte) (ks, ke, colon int) {
	i := 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	ks = i
	if i >= len(line) || !isASCIILetter(line[i]) {
		return 0, 0, -1
	}
	for i < len(line) && (isASCIILetter(line[i]) || ('0' <= line[i] && line[i] <= '9') || line[i] == '_' || line[i] == '-') {
		i++
	}
	ke = i
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) || line[i] != ':' {
		return 0, 0, -1
	}
	return ks, ke, i
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
