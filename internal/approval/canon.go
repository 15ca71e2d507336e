package approval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sync"
	"unicode/utf8"
)

// Canonical returns the signing input of a skill source: line endings
// normalized to "\n", every # Status: and # Tags: header line of the
// header region removed, the other lines joined with "\n". The header
// region is the part of the skill before its first line that is neither
// blank nor a '#' line (a target, a template line, default:, ...), after
// the opening ```skillscript fence of a Markdown-embedded skill; a line
// elsewhere that looks like such a header (inside a """ string, a
// file_write content, the body, the # Tests: block, the prose around the
// fence) is signed like any other line. Such a line makes the skill
// unsignable (CheckSignable): Verify refuses it.
//
// For a skill whose # Status: and # Tags: lines are all header lines the
// result is the same as the reference runtime's, which drops every
// matching line wherever it is.
func Canonical(src []byte) []byte {
	out := make([]byte, 0, len(src))
	kept := 0
	scanLines(src, func(seg []byte, drop bool) {
		if drop {
			return
		}
		if kept > 0 {
			out = append(out, '\n')
		}
		out = append(out, seg...)
		kept++
	})
	return out
}

// UnsignableLineError: a skill has a line the signing input cannot treat
// soundly, so it is neither signed nor verified: a line outside the
// header region that looks like a # Status: or # Tags: header (the
// reference runtime would leave it out of the signature, so it could be
// changed under a valid one), a '#' line that starts with white space
// other than spaces and tabs (it reads as a header to the signing rule
// and as text to the parser), or a header line that a bare carriage
// return joins to other text.
type UnsignableLineError struct {
	Line   int // 1-based, counting "\n"-terminated lines as an editor does
	Reason string
}

// Error implements error.
func (e *UnsignableLineError) Error() string {
	return fmt.Sprintf("line %d %s; a signature cannot cover it", e.Line, e.Reason)
}

// CheckSignable reports the first line of src that makes it unsignable
// (*UnsignableLineError), or nil. approve, sign, the dashboard and
// Verify (so every execution path in secured mode) refuse such a skill.
func CheckSignable(src []byte) error {
	if p := scanLines(src, nil); p != nil {
		return p
	}
	return nil
}

// HeaderRegion returns the byte range src[from:end] of the header region:
// from is 0, or just after the opening fence of a Markdown-embedded skill;
// end is the start of the first body line (or of the closing fence, or
// len(src)).
func HeaderRegion(src []byte) (from, end int) {
	r := regionOf(src)
	return r.from, r.end
}

// region is where the skill's header region lies in src.
type region struct {
	from, end int // byte offsets: the header region is src[from:end]
}

// Lines of the skill in the sense of the parser (split on "\n"; a "\r"
// before it belongs to the terminator) are classified one after the
// other; within a line, a bare "\r" ends a line of the signing input
// (a segment).
const (
	stateHeader = iota // before the first body line
	stateTests         // inside the indented block of a # Tests: header
	stateBody          // from the first body line on
)

var (
	// the parser's fence lines (syntax/scan.go)
	fenceOpen  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s*```+\\s*(skillscript|skill)\\s*$") })
	fenceClose = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s*```+\\s*$") })
)

const utf8BOM = "\xef\xbb\xbf"

// parserLines splits src on "\n" and calls fn with each line's number,
// start offset, text (without the "\r" of a "\r\n" terminator) and the
// offset of the next line.
func parserLines(src []byte, fn func(n, start int, line []byte, next int)) {
	n := 0
	for off := 0; ; {
		n++
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			fn(n, off, src[off:], len(src))
			return
		}
		line := src[off : off+i]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		fn(n, off, line, off+i+1)
		off += i + 1
	}
}

// skillLines returns the 1-based range of parser lines the parser reads
// as the skill: all, or those inside the first ```skillscript fence.
func skillLines(src []byte) (first, last int) {
	first, last = 1, -1 // -1: to the end
	if !bytes.Contains(src, []byte("```")) {
		return first, last
	}
	open := 0
	parserLines(src, func(n, _ int, line []byte, _ int) {
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte(utf8BOM))
		}
		switch {
		case open == 0 && fenceOpen().Match(line):
			open = n
		case open > 0 && last < 0 && fenceClose().Match(line):
			last = n - 1
		}
	})
	if open == 0 {
		return 1, -1
	}
	return open + 1, last
}

// regionOf finds the header region of src.
func regionOf(src []byte) region {
	r := region{end: len(src)}
	if bytes.HasPrefix(src, []byte(utf8BOM)) {
		r.from = len(utf8BOM) // the parser skips it; nothing goes before it
	}
	first, last := skillLines(src)
	state, done := stateHeader, false
	parserLines(src, func(n, start int, line []byte, next int) {
		if done {
			return
		}
		if n < first {
			r.from = next // after the fence line
			return
		}
		if last >= 0 && n > last {
			r.end, done = start, true
			return
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte(utf8BOM))
		}
		if state = nextState(state, line); state == stateBody {
			r.end, done = start, true
		}
	})
	if r.end < r.from {
		r.end = r.from
	}
	return r
}

// nextState is the state after line (a parser line) read in state st.
func nextState(st int, line []byte) int {
	switch {
	case st == stateBody:
		return stateBody
	case isBlank(line):
		return st
	case st == stateTests && (line[0] == ' ' || line[0] == '\t'):
		return stateTests // the indented YAML of # Tests:
	case !isHashLine(line):
		return stateBody
	case isTestsHeader(line):
		return stateTests
	}
	return stateHeader
}

// isTestsHeader reports whether line is a column-0 # Tests: header as the
// parser reads it: '#', spaces or tabs, the key (ASCII case folded),
// spaces or tabs, ':'.
func isTestsHeader(line []byte) bool {
	if len(line) == 0 || line[0] != '#' {
		return false
	}
	rest, ok := cutKeyword(bytes.TrimLeft(line[1:], " \t"), "tests")
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) > 0 && rest[0] == ':'
}

// scanLines walks the lines of the signing input of src, telling fn (when
// not nil) whether each is left out, and returns the first line that
// makes src unsignable.
func scanLines(src []byte, fn func(seg []byte, drop bool)) *UnsignableLineError {
	first, last := skillLines(src)
	state := stateHeader
	var problem *UnsignableLineError
	report := func(n int, reason string) {
		if problem == nil {
			problem = &UnsignableLineError{Line: n, Reason: reason}
		}
	}
	parserLines(src, func(n, _ int, raw []byte, _ int) {
		text := raw
		if n == 1 {
			text = bytes.TrimPrefix(raw, []byte(utf8BOM)) // the parser skips it
		}
		inSkill := n >= first && (last < 0 || n <= last)
		where := "outside the skill's ```skillscript block"
		if inSkill {
			tests := state == stateTests && !isBlank(text) && (text[0] == ' ' || text[0] == '\t')
			state = nextState(state, text)
			switch {
			case state == stateBody:
				where = "inside the body"
			case tests:
				where = "inside the # Tests: block"
			default:
				where = ""
			}
		}
		if r, ok := oddSpaceBeforeHash(text); ok {
			report(n, fmt.Sprintf("starts with %s before '#': the signing rule reads it as a header, the parser as text", runeName(r)))
		}
		headerLine := inSkill && where == "" && isHashLine(text)
		dropped, other := false, false
		rest := raw
		for i := 0; ; i++ {
			seg := rest
			j := bytes.IndexByte(rest, '\r')
			if j >= 0 {
				seg, rest = rest[:j], rest[j+1:]
			}
			unsigned := IsUnsignedLine(seg)
			if i > 0 {
				if r, ok := oddSpaceBeforeHash(seg); ok {
					report(n, fmt.Sprintf("has %s before '#' after a bare carriage return: the signing rule reads it as a header, the parser as text", runeName(r)))
				}
			}
			drop := unsigned && headerLine
			switch {
			case unsigned && !headerLine:
				report(n, "looks like a # Status:/# Tags: header "+where)
			case drop:
				dropped = true
			case !isJSBlank(seg):
				other = true
			}
			if fn != nil {
				fn(seg, drop)
			}
			if j < 0 {
				break
			}
		}
		if dropped && other {
			report(n, "joins a # Status:/# Tags: header and other text with a bare carriage return (U+000D)")
		}
	})
	return problem
}

// isBlank reports whether a parser line is blank in the narrowest sense:
// spaces, tabs and carriage returns only (every such line is blank to the
// parser too).
func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// isJSBlank reports whether seg holds ECMAScript white space only.
func isJSBlank(seg []byte) bool { return len(skipSpace(seg)) == 0 }

// isHashLine reports whether line is '#' after ECMAScript white space:
// a header or comment line to the signing rule.
func isHashLine(line []byte) bool {
	rest := skipSpace(line)
	return len(rest) > 0 && rest[0] == '#'
}

// oddSpaceBeforeHash reports the first white-space character other than
// a space or a tab in the white space that leads line to a '#'.
func oddSpaceBeforeHash(line []byte) (rune, bool) {
	odd := rune(-1)
	for len(line) > 0 {
		r, size := utf8.DecodeRune(line)
		if !isJSSpace(r) {
			break
		}
		if odd < 0 && r != ' ' && r != '\t' {
			odd = r
		}
		line = line[size:]
	}
	return odd, odd >= 0 && len(line) > 0 && line[0] == '#'
}

// runeName names a white-space character for a message.
func runeName(r rune) string {
	switch r {
	case '\r':
		return "a carriage return (U+000D)"
	case 0xA0:
		return "a non-breaking space (U+00A0)"
	case 0xFEFF:
		return "a byte order mark (U+FEFF)"
	}
	return fmt.Sprintf("the white-space character U+%04X", r)
}

// IsUnsignedLine reports whether line (without its terminator) matches
// the exclusion pattern of the signing input: ^\s*#\s*(Status|Tags)\s*:
// with the key compared case-insensitively. \s is the white-space class
// of ECMAScript regular expressions, so that a skill signed by the
// reference runtime strips exactly the same lines here. Only such lines
// of the header region are left out (Canonical).
func IsUnsignedLine(line []byte) bool {
	rest := skipSpace(line)
	if len(rest) == 0 || rest[0] != '#' {
		return false
	}
	rest = skipSpace(rest[1:])
	var ok bool
	if rest, ok = cutKeyword(rest, "status"); !ok {
		if rest, ok = cutKeyword(skipSpace(skipHash(line)), "tags"); !ok {
			return false
		}
	}
	rest = skipSpace(rest)
	return len(rest) > 0 && rest[0] == ':'
}

// skipHash returns line after its leading white space and '#'.
func skipHash(line []byte) []byte {
	rest := skipSpace(line)
	if len(rest) > 0 && rest[0] == '#' {
		return rest[1:]
	}
	return rest
}

// cutKeyword removes word (lower-case ASCII) from the front of b, compared
// ASCII-case-insensitively as an ECMAScript /i expression does for these
// letters.
func cutKeyword(b []byte, word string) ([]byte, bool) {
	if len(b) < len(word) {
		return b, false
	}
	for i := 0; i < len(word); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[i] {
			return b, false
		}
	}
	return b[len(word):], true
}

// skipSpace drops leading ECMAScript white space and line terminators.
func skipSpace(b []byte) []byte {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if !isJSSpace(r) {
			return b
		}
		b = b[size:]
	}
	return b
}

// isJSSpace reports whether r is in ECMAScript's \s class (WhiteSpace and
// LineTerminator).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// ContentHash is the hash `skillc sign --hash` prints and `skillc verify
// --hash` checks: "sha256:" and the lower-case hex SHA-256 of the
// canonical signing input, so it is as stable as a signature (line
// endings, # Status: and # Tags: header lines do not change it).
func ContentHash(src []byte) string {
	sum := sha256.Sum256(Canonical(src))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// FileHash is "sha256:" and the lower-case hex SHA-256 of the exact bytes
// of src: what an approval given through a UI binds to (DECISIONS 29),
// since the content hash does not move when a # Status: or # Tags: line
// does.
func FileHash(src []byte) string {
	sum := sha256.Sum256(src)
	return "sha256:" + hex.EncodeToString(sum[:])
}
