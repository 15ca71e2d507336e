package agentskills

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// nfkc returns s in Unicode normalisation form KC.
func nfkc(s string) string { return norm.NFKC.String(s) }

// nameProblem explains why s is not a valid name ("" when it is). With
// unicode, lowercase or caseless letters and digits of any script are
// accepted besides ASCII.
func nameProblem(s string, unicodeOK bool) string {
	if s == "" {
		return "it is empty"
	}
	for _, r := range s {
		if why := runeProblem(r, unicodeOK); why != "" {
			return why
		}
	}
	switch {
	case strings.HasPrefix(s, "-"):
		return "it starts with a hyphen"
	case strings.HasSuffix(s, "-"):
		return "it ends with a hyphen"
	case strings.Contains(s, "--"):
		return "it contains two hyphens in a row"
	}
	return ""
}

// runeProblem explains why r may not appear in a name.
func runeProblem(r rune, unicodeOK bool) string {
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
		return ""
	case r >= 'A' && r <= 'Z':
		return "it has uppercase letters; names are lowercase"
	case unicodeOK && unicode.IsUpper(r):
		return "it has uppercase letters; names are lowercase"
	case unicodeOK && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		return ""
	case r > unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		return "it has non-ASCII letters; names use a-z, 0-9 and hyphens (enable unicode names to allow them)"
	}
	return "it contains " + quoteRune(r) + "; names use lowercase letters, digits and hyphens"
}

func quoteRune(r rune) string {
	if r == ' ' {
		return "a space"
	}
	return "`" + string(r) + "`"
}

// SanitizeName turns s into a valid ASCII name when that is mechanical:
// lowercase, other separators to hyphens, repeated and outer hyphens
// dropped. It returns "" when nothing valid remains.
func SanitizeName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-', r == '_', r == ' ', r == '.', r == '/':
			b.WriteByte('-')
		default:
			return ""
		}
	}
	out := b.String()
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	out = strings.Trim(out, "-")
	if len(out) > maxNameRunes || nameProblem(out, false) != "" {
		return ""
	}
	return out
}
