package approval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// Canonical returns the signing input of a skill source: line endings
// normalized to "\n", every # Status: and # Tags: line removed, the other
// lines joined with "\n".
func Canonical(src []byte) []byte {
	lines := bytes.Split(normalizeNewlines(src), []byte{'\n'})
	out := make([]byte, 0, len(src))
	kept := 0
	for _, l := range lines {
		if IsUnsignedLine(l) {
			continue
		}
		if kept > 0 {
			out = append(out, '\n')
		}
		out = append(out, l...)
		kept++
	}
	return out
}

// normalizeNewlines turns "\r\n" and lone "\r" into "\n".
func normalizeNewlines(src []byte) []byte {
	if bytes.IndexByte(src, '\r') < 0 {
		return src
	}
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\r' {
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			c = '\n'
		}
		out = append(out, c)
	}
	return out
}

// IsUnsignedLine reports whether line (without its terminator) is left
// out of the signing input: it matches ^\s*#\s*(Status|Tags)\s*: with the
// key compared case-insensitively. \s is the white-space class of
// ECMAScript regular expressions, so that a skill signed by the reference
// runtime strips exactly the same lines here.
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
// endings, # Status: and # Tags: do not change it).
func ContentHash(src []byte) string {
	sum := sha256.Sum256(Canonical(src))
	return "sha256:" + hex.EncodeToString(sum[:])
}
