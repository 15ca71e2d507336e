package value

import (
	"fmt"
	"strings"
)

// ParseLiteral types the text of a literal the way $set, # Vars: defaults
// and (fallback:) values read it:
//
//	"..."              a string, escapes \n \t \" \\ decoded (see Unquote)
//	42, -1.5, 1e3      a number
//	true, false        a boolean
//	null               null
//	[...]              a JSON array, or else a bracketed list of permissive
//	                   items: [a, b, "c d", 3] is ["a","b","c d",3]
//	{...}              a JSON object (malformed is an error)
//	anything else      the text itself, trimmed (a bare identifier)
//
// Substitution (${...}) is not performed here; the evaluator interpolates
// quoted strings before or after typing them as it needs.
func ParseLiteral(text string) (any, error) {
	s := strings.TrimSpace(text)
	switch {
	case s == "":
		return "", nil
	case s == "true":
		return true, nil
	case s == "false":
		return false, nil
	case s == "null":
		return nil, nil
	case s[0] == '"':
		return Unquote(s)
	case s[0] == '{':
		return FromJSON(s)
	case s[0] == '[':
		return parseList(s)
	}
	if f, ok := ParseNumber(s); ok && !strings.HasPrefix(s, "+") {
		return f, nil
	}
	return s, nil
}

// Unquote decodes a double-quoted skillscript string. The escapes \n, \t,
// \r, \" and \\ are decoded; any other backslash is kept as written, so
// regular expressions and jq filters survive. The string must start and end
// with a quote and contain no unescaped quote in between.
func Unquote(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", fmt.Errorf("string %s is not double-quoted", Preview(s, 40))
	}
	body := s[1 : len(s)-1]
	if !strings.ContainsAny(body, `\"`) {
		return body, nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '"':
			return "", fmt.Errorf("unescaped quote at offset %d in string", i+1)
		case c == '\\' && i+1 < len(body):
			i++
			b.WriteString(unescape(body[i]))
		case c == '\\':
			return "", fmt.Errorf("string ends in a lone backslash")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

func unescape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '"':
		return `"`
	case '\\':
		return `\`
	}
	return `\` + string(c)
}

// parseList reads a JSON array, or else a permissive bracketed list.
func parseList(s string) (any, error) {
	if v, err := FromJSON(s); err == nil {
		return v, nil
	}
	if s[len(s)-1] != ']' {
		return nil, fmt.Errorf("list literal %s is missing its closing ]", Preview(s, 40))
	}
	items, err := splitTopLevel(s[1 : len(s)-1])
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(items))
	for _, item := range items {
		v, err := ParseLiteral(item)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// splitTopLevel splits s on commas outside quotes and brackets.
func splitTopLevel(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var items []string
	depth, start, inQuote := 0, 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case c == '[' || c == '{' || c == '(':
			depth++
		case c == ']' || c == '}' || c == ')':
			depth--
		case c == ',' && depth == 0:
			items = append(items, s[start:i])
			start = i + 1
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated string in list literal")
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets in list literal")
	}
	return append(items, s[start:]), nil
}
