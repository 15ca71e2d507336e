// Package value is the runtime value model of the skillscript evaluator.
//
// A runtime value is a Go any restricted to a small closed set of types:
//
//	nil          JSON null, and the value of an unset optional
//	string       text (the common case: connector output, shell stdout)
//	float64      numbers; integers print without a trailing ".0"
//	bool         true / false
//	[]any        lists
//	*Object      objects; an ordered map, so JSON output keeps key order
//
// Values from outside the evaluator (a decoded map[string]any, an int, a
// []string, json.Number, ...) are brought into this set with [Normalize].
// Every function in the package also tolerates a plain map[string]any.
//
// # Decisions
//
// The language reference leaves a few corners open; this package settles them
// as follows (each has a test):
//
//   - [String] is the substitution form: strings as-is, numbers in their
//     shortest round-trip form the way JavaScript prints them (3, 2.5, 1e+21),
//     booleans as true/false, null as the empty string, lists and objects as
//     compact JSON with key order preserved.
//   - [Truthy] is false for null, false, the number 0, an empty list, and a
//     string whose trimmed text is "", "false", "0" or "[]"; everything else
//     (including an empty object, which is an envelope) is true.
//   - [Path] walks objects by key and lists by canonical decimal index
//     ("0", "12"; not "01" or "-1"). It never parses JSON out of a string:
//     field access works on structured values only, so parse text first with
//     $ json_parse.
//   - [Number] accepts decimal numerals only (optional sign, fraction and
//     exponent, surrounding white space). The empty string, hex, "Infinity",
//     booleans and null are a [TypeMismatchError], never a silent 0.
//   - [AsList] accepts a list, or a string whose text is a JSON array (the
//     spec's JSON-string tolerance for in / not in, length, contains, pluck).
//   - [Equal] compares the [String] forms byte for byte; there is no type
//     coercion in equality.
package value
