package config

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// DotenvVar is one assignment of a .env file.
type DotenvVar struct {
	Key, Value string
	Line       int // 1-based line of the assignment
}

// ParseDotenv parses a .env file: KEY=value lines, values optionally in
// double or single quotes (a double-quoted value turns \n into a newline),
// '#' comment lines and blank lines; the value runs to the end of the line,
// equals signs included. Lines without '=', invalid key names (an 'export '
// prefix included) and unterminated quotes are reported as warnings and
// skipped. Multi-line values, interpolation and inline comments are not
// supported. A later assignment of a key replaces an earlier one.
func ParseDotenv(data []byte) ([]DotenvVar, ast.Diagnostics) {
	orig := data
	data = bytes.TrimPrefix(data, utf8BOM)
	base := len(orig) - len(data) // offsets count from the file's first byte
	var vars []DotenvVar
	var problems ast.Diagnostics
	off := 0
	for n, raw := range strings.SplitAfter(string(data), "\n") {
		start := off
		off += len(raw)
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		v, msg := parseDotenvLine(line)
		if msg != "" {
			problems = append(problems, diagAt(ast.Warning, orig, base+start, "%s (line skipped)", msg))
			continue
		}
		v.Line = n + 1
		vars = append(vars, v)
	}
	return vars, problems
}

// parseDotenvLine parses one trimmed, non-comment line; it returns a message
// when the line is malformed.
func parseDotenvLine(line string) (DotenvVar, string) {
	key, value, ok := strings.Cut(line, "=")
	if !ok {
		return DotenvVar{}, "malformed entry without '='"
	}
	key = strings.TrimSpace(key)
	if !validEnvName(key) {
		if strings.HasPrefix(key, "export ") {
			return DotenvVar{}, "the 'export' prefix is not supported"
		}
		return DotenvVar{}, "invalid variable name " + quote(key)
	}
	value, msg := unquote(strings.TrimSpace(value))
	if msg != "" {
		return DotenvVar{}, msg
	}
	return DotenvVar{Key: key, Value: value}, ""
}

// unquote strips matching quotes from a .env value.
func unquote(v string) (string, string) {
	if v == "" || (v[0] != '"' && v[0] != '\'') {
		return v, ""
	}
	q := v[0]
	if len(v) < 2 || v[len(v)-1] != q {
		return "", "unterminated quoted value (multi-line values are not supported)"
	}
	inner := v[1 : len(v)-1]
	if q == '"' {
		inner = strings.ReplaceAll(inner, `\n`, "\n")
	}
	return inner, ""
}

// validEnvName reports whether s is a valid variable name:
// a letter or underscore, then letters, digits or underscores.
func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// quote quotes s for a message, shortening long text.
func quote(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strconv.Quote(s)
}
