// Package filter implements the twelve shipped skillscript pipe filters
// (${VAR|name} and ${VAR|name:"arg"}). Their names, signatures and docs are
// catalogued in internal/leaf/lang (lang.FilterDocs).
//
// [Apply] runs a whole chain left to right. Every filter except fallback
// reads the value's string form (see value.String) and returns a string;
// contains, length and pluck look at lists first, and fallback passes a
// present value through unchanged, keeping its type.
//
// # Semantics settled here
//
//   - A chain on a missing base (an unset variable, a missing field) fails
//     with *value.UnresolvedRefError unless it has a fallback somewhere. With
//     one, the filters before the first fallback are skipped, the fallback's
//     argument becomes the value, and the rest of the chain runs on it, so
//     ${x|trim|fallback:"d"} and ${x|fallback:"d"|trim} both give "d".
//   - fallback:"X" on a present value replaces null, the empty string and
//     an empty list; any other value (including "  ") flows on unchanged.
//   - json quotes the value's string form as a JSON string literal, as in
//     the reference's example: {"k":"v"} becomes "{\"k\":\"v\"}".
//   - length counts characters as Unicode code points, not UTF-16 units.
//   - isodate reads epoch seconds from a number or a decimal string, drops
//     sub-millisecond digits, and prints JavaScript's Date#toISOString form,
//     including the six-digit signed year outside 0000–9999.
//   - head, tail and lines never fail on their input or argument: bad or
//     negative counts act as 0, a range start below 1 is clamped to 1.
//   - Calling an unknown filter, giving an argument to a filter that takes
//     none, or leaving out a required argument is an *Error, reported before
//     any filter runs.
package filter
