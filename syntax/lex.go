package syntax

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/skillscript/skillc/ast"
)

// Token types of the statement lexer. The lexer is total: every byte of the
// input ends up in some token (unknown bytes become Invalid).
const (
	tInvalid lexer.TokenType = -(iota + 2)
	tTriple
	tString
	tSString
	tBadString
	tSubst
	tLegacy
	tSecret
	tSetKw
	tAppendKw
	tDollarWord
	tDollar
	tArrow
	tCmpOp
	tEq
	tPunct
	tColon
	tNumber
	tIdent
	tDotted
	tColonKey
	tColonWord
	tWord
)

// symbolMap names the token types for the grammar.
func symbolMap() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":        lexer.EOF,
		"Invalid":    tInvalid,
		"Triple":     tTriple,
		"String":     tString,
		"SString":    tSString,
		"BadString":  tBadString,
		"Subst":      tSubst,
		"Legacy":     tLegacy,
		"Secret":     tSecret,
		"SetKw":      tSetKw,
		"AppendKw":   tAppendKw,
		"DollarWord": tDollarWord,
		"Dollar":     tDollar,
		"Arrow":      tArrow,
		"CmpOp":      tCmpOp,
		"Eq":         tEq,
		"Punct":      tPunct,
		"Colon":      tColon,
		"Number":     tNumber,
		"Ident":      tIdent,
		"Dotted":     tDotted,
		"ColonKey":   tColonKey,
		"ColonWord":  tColonWord,
		"Word":       tWord,
	}
}

// stmtLexerDef satisfies participle's lexer.Definition; the parser is always
// driven through ParseFromLexer with tokens from [lexStmt], so Lex is only
// used by participle for grammar introspection.
type stmtLexerDef struct{}

func (stmtLexerDef) Symbols() map[string]lexer.TokenType { return symbolMap() }

func (stmtLexerDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	toks, _ := lexStmt(b, 0, len(b))
	return &sliceLexer{toks: toks}, nil
}

type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (l *sliceLexer) Next() (lexer.Token, error) {
	if l.i >= len(l.toks) {
		return lexer.EOFToken(lexer.Position{}), nil
	}
	t := l.toks[l.i]
	l.i++
	return t, nil
}

var reDotted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*$`) })

// maxNesting bounds bracket nesting inside one statement.
const maxNesting = 200

// lexComment is a "# ..." comment found by the lexer.
type lexComment struct{ from, to int }

// tok is one token of the statement lexer: its type and the bounds of its
// text in the source. It holds no pointer, so a slice of them costs the
// collector nothing; [parser.token] makes a participle token of one.
type tok struct {
	typ      lexer.TokenType
	from, to int
}

// rng returns the token's source range.
func (t *tok) rng() ast.Range { return ast.RangeOf(t.from, t.to) }

// lexStmt tokenizes src[from:to] into participle tokens. Token offsets are
// absolute offsets into src. Comments (" # ..." outside strings) are
// skipped and returned.
func lexStmt(src []byte, from, to int) ([]lexer.Token, []lexComment) {
	var scratch []tok
	return lexStmtScratch(src, from, to, &scratch)
}

// lexStmtScratch is lexStmt lexing through *scratch, which it reuses and
// keeps for the caller's next call.
func lexStmtScratch(src []byte, from, to int, scratch *[]tok) ([]lexer.Token, []lexComment) {
	text := string(src[from:to])
	if est := tokenEstimate(from, to); cap(*scratch) < est {
		*scratch = make([]tok, 0, max(est, 16))
	}
	toks, comments := lexStmtIn(src, text, from, (*scratch)[:0])
	*scratch = toks[:0]
	out := make([]lexer.Token, len(toks))
	for i, t := range toks {
		out[i] = lexer.Token{Type: t.typ, Value: text[t.from-from : t.to-from], Pos: lexer.Position{Offset: t.from}}
	}
	return out, comments
}

// token returns t as a participle token.
func (p *parser) token(t tok) lexer.Token {
	return lexer.Token{Type: t.typ, Value: p.text[t.from:t.to], Pos: lexer.Position{Offset: t.from}}
}

// tokens returns toks as participle tokens, for the slow path.
func (p *parser) tokens(toks []tok) []lexer.Token {
	out := make([]lexer.Token, len(toks))
	for i, t := range toks {
		out[i] = p.token(t)
	}
	return out
}

// val returns the text of t.
func (p *parser) val(t *tok) string { return p.text[t.from:t.to] }

// maxArenaTokens bounds the statements parser.lex lexes into its reused
// token arena.
const maxArenaTokens = 4096

// tokenEstimate is the token capacity reserved for src[from:to].
func tokenEstimate(from, to int) int { return (to-from)/4 + 2 }

// lex is lexStmt for the parser's own source: token values are slices of
// the source string, and the tokens are appended to the parser's token
// arena, which is used as a stack: a caller takes [parser.lexMark] before
// lexing and calls [parser.lexRelease] with it once it no longer reads the
// tokens, so one statement's tokens cost no allocation. A nested lex (a
// glued "key:value" argument) appends above its caller's tokens; when the
// arena grows, the caller's slice keeps the old array.
func (p *parser) lex(from, to int) ([]tok, []lexComment) {
	est := tokenEstimate(from, to)
	if est > maxArenaTokens {
		// a very long statement (a # Vars: list of a million numbers) gets
		// its own slice: growing the arena would keep it alive
		return lexStmtIn(p.src, p.text[from:to], from, make([]tok, 0, est))
	}
	start := len(p.arena)
	if cap(p.arena)-start < est {
		grown := make([]tok, start, max(2*cap(p.arena), start+est, 64))
		copy(grown, p.arena)
		p.arena = grown
	}
	all, comments := lexStmtIn(p.src, p.text[from:to], from, p.arena)
	p.arena = all
	return all[start:len(all):len(all)], comments
}

// lexMark returns the arena height to give back to lexRelease.
func (p *parser) lexMark() int { return len(p.arena) }

// lexRelease pops the arena back to mark.
func (p *parser) lexRelease(mark int) { p.arena = p.arena[:mark] }

// lexStmtIn tokenizes src[from:to], whose text is text, appending to toks.
func lexStmtIn(src []byte, text string, from int, toks []tok) ([]tok, []lexComment) {
	l := &stmtLexer{src: src, p: from, end: from + len(text), text: text, base: from, toks: toks}
	l.run()
	return l.toks, l.comments
}

type stmtLexer struct {
	src      []byte
	text     string // src[base:end] as a string: token values are slices of it
	base     int
	p, end   int
	toks     []tok
	comments []lexComment
	depth    int
}

func (l *stmtLexer) emit(t lexer.TokenType, from int) {
	l.toks = append(l.toks, tok{typ: t, from: from, to: min(l.p, l.end)})
}

func (l *stmtLexer) run() {
	for {
		l.skipSpace()
		if l.p >= l.end {
			l.toks = append(l.toks, tok{typ: lexer.EOF, from: l.end, to: l.end})
			return
		}
		l.next()
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func (l *stmtLexer) skipSpace() {
	for l.p < l.end {
		c := l.src[l.p]
		if isSpace(c) {
			l.p++
			continue
		}
		if c == '#' && (l.p == 0 || isSpace(l.src[l.p-1])) {
			start := l.p
			for l.p < l.end && l.src[l.p] != '\n' {
				l.p++
			}
			l.comments = append(l.comments, lexComment{start, l.p})
			continue
		}
		return
	}
}

func (l *stmtLexer) has(s string) bool {
	return l.p+len(s) <= l.end && string(l.src[l.p:l.p+len(s)]) == s
}

func (l *stmtLexer) next() {
	start := l.p
	c := l.src[l.p]
	if isWordByte(c) {
		// the commonest token: a name, number or bare word (no case below
		// starts with a letter, a digit or '_')
		l.word()
		return
	}
	switch {
	case c == '"' && l.has(`"""`):
		l.triple()
	case c == '"' || c == '\'':
		l.quoted(c)
	case c == '-' && l.has("->"):
		l.p += 2
		l.emit(tArrow, start)
	case c == 0xE2 && l.has("→"):
		l.p += len("→")
		l.emit(tArrow, start)
	case (c == '=' || c == '!' || c == '<' || c == '>') && l.p+1 < l.end && l.src[l.p+1] == '=':
		l.p += 2
		l.emit(tCmpOp, start)
	case c == '<' || c == '>':
		l.p++
		l.emit(tCmpOp, start)
	case c == '=':
		l.p++
		l.emit(tEq, start)
	case c == '(' || c == '[' || (c == '{' && !l.has("{{")):
		l.p++
		l.depth++
		if l.depth > maxNesting {
			l.p = l.end
			l.emit(tInvalid, start)
			return
		}
		l.emit(tPunct, start)
	case c == ')' || c == ']' || c == '}' || c == ',':
		l.p++
		if c != ',' && l.depth > 0 {
			l.depth--
		}
		l.emit(tPunct, start)
	case c == ':':
		l.p++
		l.emit(tColon, start)
	case c == '$' && (l.p+1 >= l.end || isSpace(l.src[l.p+1])):
		l.p++
		l.emit(tDollar, start)
	case c == '$' && l.p+1 < l.end && isWordStart(l.src[l.p+1]):
		l.dollarWord()
	default:
		l.word()
	}
}

func isWordStart(b byte) bool { return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
func isWordByte(b byte) bool  { return isWordStart(b) || '0' <= b && b <= '9' }

func (l *stmtLexer) dollarWord() {
	start := l.p
	l.p++
	for l.p < l.end && isWordByte(l.src[l.p]) {
		l.p++
	}
	switch string(l.src[start:l.p]) {
	case "$set":
		l.emit(tSetKw, start)
	case "$append":
		l.emit(tAppendKw, start)
	default:
		l.emit(tDollarWord, start)
	}
}

func (l *stmtLexer) triple() {
	start := l.p
	l.p += 3
	for l.p < l.end {
		if l.src[l.p] == '\\' {
			l.p += 2
			continue
		}
		if l.has(`"""`) {
			l.p += 3
			l.emit(tTriple, start)
			return
		}
		l.p++
	}
	l.p = l.end
	l.emit(tBadString, start)
}

// quoted scans a '...' or "..." string. Substitutions inside it, ${...}
// and the legacy $(...) alike, are skipped as units so that quotes in
// their filter arguments do not end the string.
func (l *stmtLexer) quoted(q byte) {
	start := l.p
	l.p++
	for l.p < l.end {
		c := l.src[l.p]
		if c != '\\' && c != '\n' && c != q && c != '$' {
			l.p++ // nothing else in a string needs a look (a long literal)
			continue
		}
		switch {
		case c == '\\':
			l.p += 2
			if l.p > l.end {
				l.p = l.end
			}
			continue
		case c == '\n':
			l.emit(tBadString, start)
			return
		case c == q:
			l.p++
			if q == '"' {
				l.emit(tString, start)
			} else {
				l.emit(tSString, start)
			}
			return
		case l.has("${") || l.has("$("):
			if end, ok := substEnd(l.src, l.p, l.end, substCloser(l.src[l.p+1])); ok {
				l.p = end
				continue
			}
		}
		l.p++
	}
	l.emit(tBadString, start)
}

// substCloser is the closing delimiter of a substitution whose opener is
// "$" followed by open ('{' or '(').
func substCloser(open byte) byte {
	if open == '(' {
		return ')'
	}
	return '}'
}

// maxSubstLen bounds the length of one ${...} or $(...) substitution and of
// one {{...}} marker. A scan for the closing delimiter never looks further,
// which keeps lines full of unclosed openers linear instead of quadratic.
const maxSubstLen = 1024

// substEnd returns the offset just past the closing delimiter of the
// substitution starting at p ("${" or "$("), honouring quoted filter
// arguments (plain or backslash-escaped) and, for "$(", nested parentheses.
// ok is false when it does not close on the same line within maxSubstLen
// bytes.
func substEnd(src []byte, p, end int, closer byte) (int, bool) {
	end = min(end, p+maxSubstLen)
	i := p + 2
	if i >= end || bytes.IndexByte(src[i:end], closer) < 0 {
		// nothing can close it within reach: answer without the byte loop,
		// so that a line full of unclosed openers costs one fast scan per
		// opener instead of a byte-by-byte walk
		return 0, false
	}
	inQuote := false
	depth := 0
	for ; i < end; i++ {
		c := src[i]
		switch {
		case c == '\n':
			return 0, false
		case c == '\\' && i+1 < end && src[i+1] == '"':
			inQuote = !inQuote
			i++
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case closer == ')' && c == '(':
			depth++ // nested parens in bash $( ... ( ... ) ... )
		case c == closer && depth > 0:
			depth--
		case c == closer:
			return i + 1, true
		}
	}
	return 0, false
}

func isRunDelim(src []byte, p int) bool {
	c := src[p]
	switch c {
	case ' ', '\t', '\r', '\n', '"', '\'', '(', ')', '[', ']', '}', ',', '=', '<', '>':
		return true
	case '{':
		return !(p+1 < len(src) && src[p+1] == '{')
	case '-':
		return p+1 < len(src) && src[p+1] == '>'
	case '!':
		return p+1 < len(src) && src[p+1] == '='
	}
	return c == 0xE2 && p+2 < len(src) && string(src[p:p+3]) == "→"
}

// word scans a bare run: everything up to a delimiter, with embedded
// ${...}, $(...) and {{...}} taken as units.
func (l *stmtLexer) word() {
	start := l.p
	units, lits := 0, false
	for l.p < l.end && !isRunDelim(l.src, l.p) {
		if n := l.unitLen(); n > 0 {
			l.p += n
			units++
			continue
		}
		if l.src[l.p] == '#' && l.p > start && isSpace(l.src[l.p-1]) {
			break
		}
		_, w := utf8.DecodeRune(l.src[l.p:l.end])
		l.p += max(w, 1)
		lits = true
	}
	if l.p == start { // a lone delimiter we did not expect: consume one rune
		_, w := utf8.DecodeRune(l.src[l.p:l.end])
		l.p += max(w, 1)
		l.emit(tInvalid, start)
		return
	}
	l.emit(classifyRun(l.text[start-l.base:l.p-l.base], units, lits), start)
}

// unitLen returns the length of a ${...}, $(...) or {{...}} unit at the
// current position, or 0.
func (l *stmtLexer) unitLen() int {
	switch {
	case l.has("${") || l.has("$("):
		if e, ok := substEnd(l.src, l.p, l.end, substCloser(l.src[l.p+1])); ok {
			return e - l.p
		}
	case l.has("{{"):
		if e := indexFrom(l.src, l.p+2, l.end, "}}"); e >= 0 {
			return e + 2 - l.p
		}
	}
	return 0
}

// indexFrom returns the offset of s in src[from:end] on the same line and
// within maxSubstLen bytes, or -1. s must not contain a newline.
func indexFrom(src []byte, from, end int, s string) int {
	end = min(end, from+maxSubstLen)
	if from >= end {
		return -1
	}
	w := src[from:end]
	if nl := bytes.IndexByte(w, '\n'); nl >= 0 {
		w = w[:nl]
	}
	if i := bytes.Index(w, []byte(s)); i >= 0 {
		return from + i
	}
	return -1
}

func classifyRun(s string, units int, lits bool) lexer.TokenType {
	if units > 0 {
		if i := strings.IndexByte(s, ':'); i > 0 && i < len(s)-1 && isIdent(s[:i]) {
			return tColonWord // key:${X}
		}
		if units == 1 && !lits {
			switch {
			case s[:2] == "${":
				return tSubst
			case s[:2] == "$(":
				return tLegacy
			default:
				return tSecret
			}
		}
		return tWord
	}
	if isNumber(s) {
		return tNumber
	}
	n := identLen(s)
	switch {
	case n == 0:
		return tWord
	case n == len(s):
		return tIdent
	case s[n] == '.' && isIdent(s[n+1:]):
		return tDotted
	case s[n] == ':' && n+1 == len(s):
		return tColonKey
	case s[n] == ':' && strings.IndexByte(s[n+1:], '\n') < 0:
		return tColonWord
	}
	return tWord
}

// identLen returns the length of the identifier [A-Za-z_][A-Za-z0-9_-]* that
// s starts with, or 0.
func identLen(s string) int {
	if s == "" || !isWordStart(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) && (isWordByte(s[n]) || s[n] == '-') {
		n++
	}
	return n
}

// isIdent reports whether s is an identifier: [A-Za-z_][A-Za-z0-9_-]*.
func isIdent(s string) bool { return s != "" && identLen(s) == len(s) }

// isNumber reports whether s is a number literal:
// [-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?.
func isNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i > start
	}
	if !digits() {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}
