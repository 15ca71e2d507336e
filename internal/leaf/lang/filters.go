package lang

import (
	"sync"

	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// FilterDoc describes one shipped pipe filter for hover, completion and generated reference
// documentation.
type FilterDoc struct {
	Name     string // the filter name, e.g. "head"
	Summary  string // one line
	Arg      string // what the argument means; empty when it takes none
	Example  string // a substitution using the filter
	Input    string // the example's input value
	Output   string // the example's output
	TakesArg bool   // whether the filter requires an argument
}

// filterDocs returns the filter table in the order of the language
// reference. eval/filter implements every entry (its tests check both
// directions).
func filterDocs() []FilterDoc {
	return []FilterDoc{
		{Name: "url", Summary: "Percent-encodes the value like JavaScript's encodeURIComponent.",
			Example: `${LOCATION|url}`, Input: `Asheville, NC`, Output: `Asheville%2C%20NC`},
		{Name: "shell", Summary: "Wraps the value in POSIX single quotes, escaping embedded quotes.",
			Example: `${ARG|shell}`, Input: `it's safe`, Output: `'it'\''s safe'`},
		{Name: "json", Summary: "Encodes the value as JSON once, by its type: lists, objects, numbers, booleans and null as their JSON, text as a JSON string literal (text that already is a JSON list or object is not quoted again).",
			Example: `${TEXT|json}`, Input: `say "hi"`, Output: `"say \"hi\""`},
		{Name: "trim", Summary: "Removes leading and trailing white space.",
			Example: `${VERDICT|trim}`, Input: "urgent\n", Output: `urgent`},
		{Name: "length", Summary: "Counts the items of a list (or JSON array text) or the characters of a string.",
			Example: `${ITEMS|length}`, Input: `["a","b","c"]`, Output: `3`},
		{Name: "contains", Summary: `Yields "true" when the list holds the argument or the text includes it, else "".`,
			Arg: "the element or substring to look for", TakesArg: true,
			Example: `${MSG|contains:"urgent"}`, Input: `Yes, urgent`, Output: `true`},
		{Name: "fallback", Summary: "Replaces a missing, null, empty-string or empty-list value with the argument.",
			Arg: "the replacement text", TakesArg: true,
			Example: `${VAR.missing|fallback:"-"}`, Input: `(missing)`, Output: `-`},
		{Name: "isodate", Summary: "Formats Unix epoch seconds as an ISO-8601 UTC timestamp with milliseconds.",
			Example: `${EPOCH|isodate}`, Input: `1779660000`, Output: `2026-05-24T22:00:00.000Z`},
		{Name: "head", Summary: "Keeps the first N lines.",
			Arg: "the number of lines, quoted", TakesArg: true,
			Example: `${LOG|head:"2"}`, Input: "a\nb\nc", Output: "a\nb"},
		{Name: "tail", Summary: "Keeps the last N lines; a final newline does not count as an empty line.",
			Arg: "the number of lines, quoted", TakesArg: true,
			Example: `${LOG|tail:"1"}`, Input: "a\nb\n", Output: `b`},
		{Name: "lines", Summary: "Keeps lines M to N, counting from 1, both ends included.",
			Arg: `the range "M-N"`, TakesArg: true,
			Example: `${LOG|lines:"2-3"}`, Input: "a\nb\nc\nd", Output: "b\nc"},
		{Name: "pluck", Summary: "Projects a list of objects to a JSON array of one field's present values.",
			Arg: "the field name", TakesArg: true,
			Example: `${ITEMS|pluck:"id"}`, Input: `[{"id":"1"},{"id":"2"}]`, Output: `["1","2"]`},
	}
}

// filterIndex maps a filter name to its entry; built once and never
// modified afterwards.
var filterIndex = sync.OnceValue(func() map[string]FilterDoc {
	m := map[string]FilterDoc{}
	for _, d := range filterDocs() {
		m[d.Name] = d
	}
	return m
})

// FilterDocs returns the documentation of every shipped filter, in
// reference order. The slice is a fresh copy.
func FilterDocs() []FilterDoc { return filterDocs() }

// Filters returns the names of the shipped filters, in reference order.
func Filters() []string {
	d := filterDocs()
	names := make([]string, len(d))
	for i, doc := range d {
		names[i] = doc.Name
	}
	return names
}

// LookupFilter returns the documentation of the named filter
// (case-sensitive). It does not allocate.
func LookupFilter(name string) (FilterDoc, bool) {
	d, ok := filterIndex()[name]
	return d, ok
}

// IsFilter reports whether name is a shipped filter (case-sensitive).
func IsFilter(name string) bool {
	_, ok := filterIndex()[name]
	return ok
}

// SuggestFilter returns the shipped filter name closest to name (at most
// two edits away), or "" when none is close: the "did you mean" for
// unknown filters.
func SuggestFilter(name string) string {
	best, bestDist := "", 3
	for _, n := range Filters() {
		if d := textdist.Distance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}
