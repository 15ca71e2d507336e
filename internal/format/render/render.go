package render

import (
	"strings"
	"unicode"

	"github.com/skillscript/skillc/ast"
)

// Summary counts the files checked and the diagnostics by severity.
type Summary struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// Summarize counts the files and diagnostics in results. A diagnostic with an
// unknown severity counts as an error, as it is rendered.
func Summarize(results []ast.FileDiagnostics) Summary {
	s := Summary{Files: len(results)}
	for _, r := range results {
		for _, d := range r.Diags {
			if d == nil {
				continue
			}
			switch level(d.Severity) {
			case ast.Warning:
				s.Warnings++
			case ast.Info:
				s.Infos++
			default:
				s.Errors++
			}
		}
	}
	return s
}

// level normalizes a severity: anything that is not a warning or an info is
// treated as an error, so that a malformed diagnostic is never hidden.
func level(s ast.Severity) ast.Severity {
	if s == ast.Warning || s == ast.Info {
		return s
	}
	return ast.Error
}

// span is a range converted to 1-based lines and character columns; the end
// column is exclusive. The zero span means "no position".
type span struct {
	Line, Col, EndLine, EndCol int
}

// valid reports whether s carries a position.
func (s span) valid() bool { return s.Line > 0 }

// spanOf converts r using lt. An invalid start yields the zero span; an
// invalid or inverted end collapses the span to its start.
func spanOf(lt *ast.LineTable, r ast.Range) span {
	if !r.From.IsValid() {
		return span{}
	}
	from := lt.Position(r.From)
	to := from
	if r.To >= r.From {
		to = lt.Position(r.To)
	}
	return span{Line: from.Line, Col: from.Column, EndLine: to.Line, EndCol: to.Column}
}

// sanitize replaces control characters other than tab with U+FFFD so that
// source text cannot smuggle terminal escape sequences into the output. It
// keeps one rune per rune, so column arithmetic is unchanged.
func sanitize(s string) string { return replaceControls(s, "\t") }

// sanitizeMessage is sanitize for messages, which may also contain newlines.
func sanitizeMessage(s string) string { return replaceControls(s, "\t\n") }

// plainText reports, in one pass over the bytes, whether s is printable
// ASCII apart from the characters of keep: the common case, which needs no
// decoding (a false answer only means "look closer").
func plainText(s, keep string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' || c >= 0x7f) && strings.IndexByte(keep, c) < 0 {
			return false
		}
	}
	return true
}

// replaceControls replaces every control character not in keep with U+FFFD.
func replaceControls(s, keep string) string {
	bad := func(r rune) bool { return unicode.IsControl(r) && !strings.ContainsRune(keep, r) }
	if plainText(s, keep) || strings.IndexFunc(s, bad) < 0 {
		return s
	}
	out := []rune(s)
	for i, r := range out {
		if bad(r) {
			out[i] = unicode.ReplacementChar
		}
	}
	return string(out)
}
