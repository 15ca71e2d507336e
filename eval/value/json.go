package value

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of decoded JSON so hostile input cannot
// exhaust the stack.
const maxDepth = 1000

// SyntaxError reports malformed JSON text.
type SyntaxError struct {
	Offset int // byte offset of the problem
	Msg    string
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid json at offset %d: %s", e.Offset, e.Msg)
}

// FromJSON decodes JSON text into the value model: objects become *Object
// (keys in source order; a repeated key keeps its first position and its
// last value), numbers float64. Invalid UTF-8 in strings becomes U+FFFD.
func FromJSON(text string) (any, error) {
	d := decoder{s: text}
	if sp := stackPool.Get(); sp != nil {
		d.stack = (*sp.(*[]any))[:0]
	}
	defer d.release()
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skipSpace()
	if d.i != len(d.s) {
		return nil, d.errorf("unexpected %q after value", d.s[d.i])
	}
	return v, nil
}

// IsJSONArrayText reports whether s, after surrounding white space, looks
// like a JSON array (starts with '[' and ends with ']'). It is a cheap
// pre-check before FromJSON.
func IsJSONArrayText(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']'
}

type decoder struct {
	s      string
	i      int
	stack  []any // elements of the arrays being decoded, innermost last
	floats floatArena
}

// stackPool keeps decoders' element stacks between decodings, so that a
// long array does not grow a fresh stack each time.
var stackPool sync.Pool

// maxPooledStack is the largest stack (in elements) kept in the pool.
const maxPooledStack = 1 << 17

func (d *decoder) release() {
	if d.stack == nil || cap(d.stack) > maxPooledStack {
		return
	}
	s := d.stack[:0]
	stackPool.Put(&s)
}

func (d *decoder) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: d.i, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) skipSpace() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.errorf("nesting deeper than %d", maxDepth)
	}
	if d.i >= len(d.s) {
		return nil, d.errorf("unexpected end of input")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	default:
		return d.keyword()
	}
}

func (d *decoder) keyword() (any, error) {
	for _, kw := range [...]struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if strings.HasPrefix(d.s[d.i:], kw.text) {
			d.i += len(kw.text)
			return kw.v, nil
		}
	}
	return nil, d.errorf("unexpected %q", d.s[d.i])
}

func (d *decoder) object(depth int) (any, error) {
	d.i++ // {
	obj := &Object{}
	d.skipSpace()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return obj, nil
	}
	for {
		d.skipSpace()
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, d.errorf("expected string key")
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.errorf("expected ':' after key")
		}
		d.i++
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		obj.Set(key.(string), v)
		if done, err := d.listEnd('}'); done || err != nil {
			return obj, err
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	d.i++ // [
	d.skipSpace()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return []any{}, nil
	}
	// A nested array's elements collect on the decoder's stack (shared by
	// nested arrays) and are copied once into a list of the exact length,
	// instead of growing each list by repeated doubling.
	if depth == 0 {
		// The outermost array: count its elements first (a plain byte
		// scan) and decode into a list of that size directly.
		list := make([]any, 0, countElems(d.s[d.i:]))
		for {
			d.skipSpace()
			if f, n := leadingInt(d.s[d.i:]); n > 0 {
				d.i += n // what value and number do for it, without the calls
				list = append(list, d.floats.box(f))
			} else {
				v, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if d.i < len(d.s) && d.s[d.i] == ',' {
				d.i++ // listEnd's common case
				continue
			}
			if done, err := d.listEnd(']'); done || err != nil {
				if err != nil {
					return nil, err
				}
				return list, nil
			}
		}
	}
	base := len(d.stack)
	defer func() {
		clear(d.stack[base:])
		d.stack = d.stack[:base]
	}()
	for {
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.stack = append(d.stack, v)
		if done, err := d.listEnd(']'); done || err != nil {
			if err != nil {
				return nil, err
			}
			return append([]any(nil), d.stack[base:]...), nil
		}
	}
}

// listEnd consumes a ',' (more to come) or the closing byte (done).
func (d *decoder) listEnd(closing byte) (bool, error) {
	d.skipSpace()
	if d.i >= len(d.s) {
		return false, d.errorf("unexpected end of input")
	}
	switch d.s[d.i] {
	case ',':
		d.i++
		return false, nil
	case closing:
		d.i++
		return true, nil
	}
	return false, d.errorf("expected ',' or %q", closing)
}

func (d *decoder) number() (any, error) {
	if f, n := leadingInt(d.s[d.i:]); n > 0 {
		d.i += n
		return d.floats.box(f), nil // the common case, converted while scanned
	}
	start := d.i
	n := scanJSONNumber(d.s[d.i:])
	if n == 0 {
		return nil, d.errorf("invalid number")
	}
	d.i += n
	text := d.s[start:d.i]
	if f, ok := smallInt(text); ok && text != "-0" {
		return d.floats.box(f), nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		d.i = start
		return nil, d.errorf("number %s out of range", d.s[start:start+n])
	}
	if KeepsText(text, f) {
		return Numeral(text), nil // keeps 2.50, 1e3, -0 and long integers as written
	}
	return d.floats.box(f), nil
}

// leadingInt returns the value and length of the JSON number at the start
// of s when it is a positive integer of at most 15 digits (exact in a
// float64, so the value is ParseFloat's); n is 0 for any other number (a
// sign, a leading zero, a fraction or exponent, more digits), which the
// general path decodes.
func leadingInt(s string) (f float64, n int) {
	if len(s) == 0 || s[0] < '1' || s[0] > '9' {
		return 0, 0
	}
	v := int64(s[0] - '0')
	i := 1
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if i == 15 {
			return 0, 0
		}
		v = v*10 + int64(s[i]-'0')
	}
	if i < len(s) && (s[i] == '.' || s[i] == 'e' || s[i] == 'E') {
		return 0, 0
	}
	return float64(v), i
}

// scanJSONNumber returns the length of the JSON number at the start of s, or
// 0 when there is none.
func scanJSONNumber(s string) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return 0
	}
	if i < len(s) && s[i] == '.' {
		j := skipDigits(s, i+1)
		if j == i+1 {
			return 0
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return 0
		}
		i = j
	}
	return i
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func (d *decoder) str() (any, error) {
	d.i++ // opening quote
	start := d.i
	// Fast path: no escapes and plain ASCII/valid UTF-8.
	for d.i < len(d.s) {
		c := d.s[d.i]
		if c == '"' {
			s := d.s[start:d.i]
			d.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		d.i++
	}
	var b strings.Builder
	b.WriteString(d.s[start:d.i])
	return d.strSlow(&b)
}

func (d *decoder) strSlow(b *strings.Builder) (any, error) {
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return b.String(), nil
		case c == '\\':
			if err := d.escape(b); err != nil {
				return nil, err
			}
		case c < 0x20:
			return nil, d.errorf("control character in string")
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(d.s[d.i:])
			b.WriteRune(r) // RuneError for invalid bytes, as encoding/json does
			d.i += size
		default:
			b.WriteByte(c)
			d.i++
		}
	}
	return nil, d.errorf("unterminated string")
}

var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (d *decoder) escape(b *strings.Builder) error {
	if d.i+1 >= len(d.s) {
		return d.errorf("unterminated string")
	}
	c := d.s[d.i+1]
	if r := simpleEscapes[c]; r != 0 {
		b.WriteByte(r)
		d.i += 2
		return nil
	}
	if c != 'u' {
		return d.errorf("invalid escape \\%c", c)
	}
	r, ok := hex4(d.s, d.i+2)
	if !ok {
		return d.errorf("invalid \\u escape")
	}
	d.i += 6
	if utf16.IsSurrogate(r) {
		if r2, ok := hex4(d.s, d.i+2); ok && d.i+1 < len(d.s) && d.s[d.i] == '\\' && d.s[d.i+1] == 'u' {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				b.WriteRune(dec)
				d.i += 6
				return nil
			}
		}
		r = utf8.RuneError
	}
	b.WriteRune(r)
	return nil
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// ToJSON returns the compact JSON text of v with the same conventions as
// JavaScript's JSON.stringify: object keys in order, no HTML escaping,
// numbers in shortest form, NaN and infinities as null. Values outside the
// model are normalized first.
func ToJSON(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		writeJSONString(b, x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b.WriteString("null")
			return
		}
		b.WriteString(FormatNumber(x))
	case Numeral:
		writeNumeralJSON(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case []any:
		writeJSONList(b, x)
	case *Object:
		writeJSONObject(b, x)
	default:
		writeJSON(b, Normalize(v))
	}
}

func writeJSONList(b *strings.Builder, list []any) {
	b.WriteByte('[')
	for i, e := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(b, e)
	}
	b.WriteByte(']')
}

func writeJSONObject(b *strings.Builder, o *Object) {
	if o == nil {
		b.WriteString("null")
		return
	}
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, k)
		b.WriteByte(':')
		writeJSON(b, o.vals[k])
	}
	b.WriteByte('}')
}

// QuoteJSON returns s as a JSON string literal, escaped the way
// JSON.stringify escapes it.
func QuoteJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	writeJSONString(&b, s)
	return b.String()
}

const hexDigits = "0123456789abcdef"

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b.WriteString(s[start:i])
			b.WriteString("\ufffd")
			i++
			start = i
			continue
		}
		b.WriteString(s[start:i])
		writeEscape(b, c)
		i++
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

func writeEscape(b *strings.Builder, c byte) {
	switch c {
	case '"', '\\':
		b.WriteByte('\\')
		b.WriteByte(c)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		b.WriteString(`\u00`)
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&0xf])
	}
}

// FormatNumber formats f the way JavaScript's Number#toString does: the
// shortest digits that round-trip, integers without a fraction, exponent
// form below 1e-6 and from 1e21 up (1e+21, 1.5e-7), NaN and Infinity by name.
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		if f == math.Trunc(f) && a < 1e15 {
			return strconv.FormatInt(int64(f), 10)
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + digits
}

// CountMembers returns the number of members of the JSON object or array
// whose content starts s (just after its '{' or '['), counted as
// countElems does: exact for valid text, where an empty one counts 1.
func CountMembers(s string) int { return countElems(s) }

// elemByte marks the bytes countElems acts on.
var elemByte = [256]bool{'"': true, '[': true, '{': true, ']': true, '}': true, ',': true}

// countElems returns the number of elements of the array whose content
// starts s (just after its '['), counting the commas outside strings and
// nested values up to the closing ']'. Malformed text gives a wrong count,
// which only sizes the decoder's stack: the decoding reports the error.
func countElems(s string) int {
	n, depth := 1, 0
	for i := 0; i < len(s); i++ {
		if !elemByte[s[i]] {
			continue // most bytes: one table load, no switch
		}
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// smallInt converts a JSON integer of at most 15 digits (exactly
// representable, so the result equals strconv.ParseFloat's) without the
// general float parser; ok is false for anything else.
func smallInt(s string) (float64, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	f := float64(n)
	if neg {
		f = -f // -0 stays negative zero, as ParseFloat gives it
	}
	return f, true
}
