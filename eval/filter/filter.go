package filter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// Call is one filter application in a chain: |Name or |Name:"Arg".
type Call struct {
	Name   string
	Arg    string
	HasArg bool
}

// String returns the call as written in a substitution.
func (c Call) String() string {
	if !c.HasArg {
		return c.Name
	}
	return c.Name + ":" + strconv.Quote(c.Arg)
}

// Error reports a chain that cannot run: an unknown filter, or a missing or
// unexpected argument.
type Error struct {
	Filter     string // the filter name as written
	Msg        string
	Suggestion string // a close shipped name for an unknown filter, or ""
}

// Error implements error.
func (e *Error) Error() string {
	msg := "filter " + e.Filter + ": " + e.Msg
	if e.Suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", e.Suggestion)
	}
	return msg
}

// arity reports whether the named filter takes an argument and whether the
// name is known. It agrees with the catalog (lang.FilterDocs); a switch
// rather than a catalog lookup because it runs for every filter applied
// (TestArityMatchesCatalog keeps the two equal).
func arity(name string) (takesArg, known bool) {
	switch name {
	case "url", "shell", "json", "trim", "length", "isodate":
		return false, true
	case "contains", "fallback", "head", "tail", "lines", "pluck":
		return true, true
	}
	return false, false
}

// Check validates a chain without running it.
func Check(chain []Call) error {
	for _, c := range chain {
		takesArg, known := arity(c.Name)
		switch {
		case !known:
			return &Error{Filter: c.Name, Msg: "unknown filter", Suggestion: lang.SuggestFilter(c.Name)}
		case takesArg && !c.HasArg:
			return &Error{Filter: c.Name, Msg: "needs a quoted argument"}
		case !takesArg && c.HasArg:
			return &Error{Filter: c.Name, Msg: "takes no argument"}
		}
	}
	return nil
}

// Apply runs chain on v. missing reports that the base reference did not
// resolve; then the chain needs a fallback (see the package doc), or Apply
// returns *value.UnresolvedRefError. Filter failures are
// *value.TypeMismatchError; a malformed chain is *Error.
func Apply(v any, missing bool, chain []Call) (any, error) {
	if err := Check(chain); err != nil {
		return nil, err
	}
	if missing {
		i := fallbackIndex(chain)
		if i < 0 {
			return nil, &value.UnresolvedRefError{}
		}
		v, chain = chain[i].Arg, chain[i+1:]
	}
	for _, c := range chain {
		var err error
		if v, err = apply(v, c); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// encodeJSON is |json (DECISIONS 23): the JSON of v by its type, once.
// Text that already is the JSON of a list or object (a pluck result, a
// list copied into a string) is that value, so it is not quoted again;
// other text becomes a JSON string.
func encodeJSON(v any) string {
	s, ok := v.(string)
	if !ok {
		return value.ToJSON(v)
	}
	if t := strings.TrimSpace(s); t != "" && (t[0] == '[' || t[0] == '{') {
		if parsed, err := value.FromJSON(t); err == nil {
			return value.ToJSON(parsed)
		}
	}
	return value.QuoteJSON(s)
}

func fallbackIndex(chain []Call) int {
	for i, c := range chain {
		if c.Name == "fallback" {
			return i
		}
	}
	return -1
}

// apply runs one (checked) filter.
func apply(v any, c Call) (any, error) {
	switch c.Name {
	case "url":
		return EncodeURIComponent(value.String(v)), nil
	case "shell":
		return ShellQuote(value.String(v)), nil
	case "json":
		return encodeJSON(v), nil
	case "trim":
		return trim(value.String(v)), nil
	case "length":
		return length(v)
	case "contains":
		return contains(v, c.Arg), nil
	case "fallback":
		return fallback(v, c.Arg), nil
	case "isodate":
		return isodate(v)
	case "head":
		return head(value.String(v), count(c.Arg)), nil
	case "tail":
		return tail(value.String(v), count(c.Arg)), nil
	case "lines":
		return lineRange(value.String(v), c.Arg), nil
	case "pluck":
		return pluck(v, c.Arg)
	}
	return nil, &Error{Filter: c.Name, Msg: "unknown filter"}
}

// EncodeURIComponent percent-encodes s like JavaScript's
// encodeURIComponent: every UTF-8 byte except A-Z a-z 0-9 - _ . ! ~ * ' ( )
// becomes %XX with upper-case hex. A space is %20, never +.
func EncodeURIComponent(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !uriUnreserved(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if uriUnreserved(c) {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&0xf])
	}
	return string(b)
}

func uriUnreserved(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-_.!~*'()", c) >= 0
}

// ShellQuote wraps s in single quotes for a POSIX shell. An embedded single
// quote closes the quoted run, adds a backslash-escaped quote and reopens.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// trim removes white space the way JavaScript's String#trim does, which
// also counts the byte-order mark.
func trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' })
}

func length(v any) (any, error) {
	switch x := v.(type) {
	case []any:
		return strconv.Itoa(len(x)), nil
	case string:
		if list, ok := value.AsList(x); ok {
			return strconv.Itoa(len(list)), nil
		}
		return strconv.Itoa(utf8.RuneCountInString(x)), nil
	}
	return nil, &value.TypeMismatchError{Op: "length", Want: "a list or string", Got: value.TypeName(v), Value: value.Preview(v, 40)}
}

func contains(v any, x string) any {
	if list, ok := value.AsList(v); ok {
		for _, e := range list {
			if value.Equal(e, x) {
				return "true"
			}
		}
		return ""
	}
	if strings.Contains(value.String(v), x) {
		return "true"
	}
	return ""
}

func fallback(v any, alt string) any {
	switch x := v.(type) {
	case nil:
		return alt
	case string:
		if x == "" {
			return alt
		}
	case []any:
		if len(x) == 0 {
			return alt
		}
	}
	return v
}

func pluck(v any, field string) (any, error) {
	list, ok := value.AsList(v)
	if !ok {
		return nil, &value.TypeMismatchError{Op: "pluck", Want: "a list", Got: value.TypeName(v), Value: value.Preview(v, 40)}
	}
	out := make([]any, 0, len(list))
	for _, e := range list {
		if fv, ok := value.Path(e, []string{field}); ok && fv != nil {
			out = append(out, fv)
		}
	}
	return value.ToJSON(out), nil
}
