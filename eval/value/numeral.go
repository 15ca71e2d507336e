package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// Numeral is a number that keeps the text it was written with. A literal
// or an input whose text a float64 cannot reproduce (a leading zero as in
// 02134, more significant digits than a float holds, a trailing zero as in
// 2.50, an exponent, a sign such as -0 or +5) is held as a Numeral: it
// renders, compares as a string and reaches argv exactly as written, and
// it is still a number where the language compares numbers (decision V1 in
// docs/decisions.md). A number whose text is the float's own shortest form
// (5, 2.5, 100) stays a float64.
type Numeral string

// Float returns the numeral's value as a float64 (the nearest one for
// text with more digits than a float holds).
func (n Numeral) Float() float64 {
	f, _ := ParseNumber(string(n))
	return f
}

// KeepsText reports whether a number written as text (with float64 value
// f) must be held as a Numeral: its text is not f's shortest form. Empty
// text keeps nothing. Plain integers of up to 15 digits without a leading
// zero are answered without formatting f.
func KeepsText(text string, f float64) bool {
	if text == "" {
		return false
	}
	if plainInt(text) {
		return false
	}
	return FormatNumber(f) != text
}

// plainInt reports whether s is an optional minus and 1 to 15 digits
// without a leading zero (or "0"): text that FormatNumber reproduces.
func plainInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
		if s == "0" {
			return false // -0 formats as 0
		}
	}
	if len(s) == 0 || len(s) > 15 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// NumberFromText returns the value of a number written as text whose
// float64 value f has already been parsed: f itself when FormatNumber(f)
// gives the same text back, otherwise the text as a Numeral.
func NumberFromText(text string, f float64) any {
	if !KeepsText(text, f) {
		return f
	}
	return Numeral(text)
}

// NumberFromTextOK parses text as a decimal numeral (see ParseNumber,
// without the surrounding white space) and returns NumberFromText of it;
// ok is false when text is not a numeral.
func NumberFromTextOK(text string) (any, bool) {
	if text != strings.TrimSpace(text) {
		return nil, false
	}
	f, ok := ParseNumber(text)
	if !ok {
		return nil, false
	}
	return NumberFromText(text, f), true
}

// jsonNumberText reports whether s is a number in JSON's grammar: an
// optional minus, an integer part without leading zeros, an optional
// fraction with digits, an optional exponent.
func jsonNumberText(s string) bool {
	return s != "" && scanJSONNumber(s) == len(s)
}

// writeNumeralJSON writes the JSON of a numeral: its text as a JSON number
// when that text is valid JSON (2.50, 1e3, -0, a 19-digit integer),
// otherwise as a JSON string, so that the text is never lost (02134,
// +5, .5 and 5. are not JSON numbers).
func writeNumeralJSON(b *strings.Builder, n Numeral) {
	if jsonNumberText(string(n)) {
		b.WriteString(string(n))
		return
	}
	writeJSONString(b, string(n))
}

// numeralTruthy: a numeral is false when its value is 0 (0.0, -0, 00).
func numeralTruthy(n Numeral) bool {
	f, err := strconv.ParseFloat(strings.TrimSpace(string(n)), 64)
	return err != nil || f != 0
}

// MarshalJSON writes the numeral as writeNumeralJSON does, so that
// encoding/json (a run result, an MCP answer) keeps the text too.
func (n Numeral) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	writeNumeralJSON(&b, n)
	return []byte(b.String()), nil
}

// Inputs is a map of run inputs that decodes from JSON without turning
// numbers into float64: each number keeps its text (a json.Number, which
// Normalize makes a float64 or a Numeral). Use it for every JSON field that
// carries inputs into a run (MCP arguments, event params, queued jobs).
type Inputs map[string]any

// UnmarshalJSON decodes a JSON object (or null) with numbers kept as text.
func (in *Inputs) UnmarshalJSON(data []byte) error {
	var m map[string]any
	if err := DecodeJSONNumbers(data, &m); err != nil {
		return err
	}
	*in = m
	return nil
}

// DecodeJSONNumbers is json.Unmarshal with numbers decoded as json.Number.
func DecodeJSONNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("invalid JSON: data after the value")
	}
	return nil
}
