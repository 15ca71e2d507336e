package value

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// TypeName names the type of v as skill authors see it: "null", "string",
// "number", "boolean", "list" or "object".
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, json.Number, Numeral:
		return "number"
	case bool:
		return "boolean"
	case []any, []string:
		return "list"
	case *Object, map[string]any:
		return "object"
	}
	return TypeName(Normalize(v))
}

// String returns the substitution form of v: strings as they are, numbers
// in shortest form, booleans as true/false, null as "", lists and objects as
// compact JSON.
func String(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return FormatNumber(x)
	case Numeral:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case *Object:
		if t, ok := x.Text(); ok {
			return t
		}
		return ToJSON(x)
	case []any:
		return ToJSON(x)
	}
	return String(Normalize(v))
}

// Truthy reports whether v counts as true in a condition. False are: null,
// false, the number 0, an empty list, and a string whose trimmed text is
// "", "false", "0" or "[]". Everything else is true.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		switch strings.TrimSpace(x) {
		case "", "false", "0", "[]":
			return false
		}
		return true
	case float64:
		return x != 0
	case Numeral:
		return numeralTruthy(x)
	case bool:
		return x
	case []any:
		return len(x) > 0
	case *Object:
		return x != nil
	}
	return Truthy(Normalize(v))
}

// IsEmpty reports whether v is an empty result in the sense of the op-level
// (fallback:) trailer: null, a string that is empty after trimming, or an
// empty list. An object is never empty, even one with an empty list inside.
func IsEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case []string:
		return len(x) == 0
	}
	return false
}

// Equal reports whether a and b have the same String form.
func Equal(a, b any) bool {
	if sa, ok := a.(string); ok {
		if sb, ok := b.(string); ok {
			return sa == sb
		}
	}
	return String(a) == String(b)
}

// AsList returns v as a list: a list as it is, or a string whose text is a
// JSON array, parsed. Anything else reports false.
func AsList(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case string:
		if !IsJSONArrayText(x) {
			return nil, false
		}
		parsed, err := FromJSON(x)
		if err != nil {
			return nil, false
		}
		list, ok := parsed.([]any)
		return list, ok
	case []string:
		return Normalize(x).([]any), true
	}
	return nil, false
}

// In reports whether list contains an element equal (see Equal) to x. The
// list may be a JSON-array string; anything else that is not a list is a
// TypeMismatchError.
func In(x, list any) (bool, error) {
	elems, ok := AsList(list)
	if !ok {
		return false, mismatch("in", "a list or a JSON array string", list)
	}
	for _, e := range elems {
		if Equal(e, x) {
			return true, nil
		}
	}
	return false, nil
}

// Number coerces v to a number for a numeric comparison. Numbers pass;
// strings must hold a decimal numeral (see ParseNumber). Anything else is a
// TypeMismatchError.
func Number(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case Numeral:
		return x.Float(), nil
	case string:
		if f, ok := ParseNumber(x); ok {
			return f, nil
		}
		return 0, mismatch("numeric comparison", "a number", v)
	case nil, bool, []any, *Object:
		return 0, mismatch("numeric comparison", "a number", v)
	}
	return Number(Normalize(v))
}

// ParseNumber parses a decimal numeral with optional sign, fraction and
// exponent, ignoring surrounding white space: "5", "-2.5", ".5", "5.",
// "1e3". It rejects the empty string, hex, underscores, "Infinity" and NaN.
func ParseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if !isDecimal(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	intEnd := skipDigits(s, i)
	digits := intEnd - i
	i = intEnd
	if i < len(s) && s[i] == '.' {
		fracEnd := skipDigits(s, i+1)
		digits += fracEnd - i - 1
		i = fracEnd
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		expEnd := skipDigits(s, i)
		if expEnd == i {
			return false
		}
		i = expEnd
	}
	return i == len(s)
}

// Clone returns a deep copy of v; lists and objects are copied, scalars are
// returned as they are.
func Clone(v any) any {
	switch x := v.(type) {
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = Clone(e)
		}
		return c
	case *Object:
		return x.Clone()
	}
	return v
}

// Normalize converts a Go value into the value model: integer and float
// kinds become float64, json.Number is parsed, map[string]any becomes an
// *Object with sorted keys, slices become []any. Values already in the model
// are returned as they are (lists and objects are walked). Other types go
// through encoding/json; a value that cannot be encoded becomes its
// fmt.Sprint text.
func Normalize(v any) any {
	switch x := v.(type) {
	case nil, string, float64, bool, Numeral:
		return v
	case []any:
		return normalizeList(x)
	case *Object:
		return normalizeObject(x)
	case map[string]any:
		return normalizeMap(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return NumberFromText(string(x), f)
		}
		return string(x)
	case json.RawMessage:
		if parsed, err := FromJSON(string(x)); err == nil {
			return parsed
		}
		return string(x)
	}
	return normalizeReflect(v)
}

func normalizeList(x []any) any {
	for i, e := range x {
		if n := Normalize(e); !sameShallow(n, e) {
			out := slices.Clone(x)
			out[i] = n
			for j := i + 1; j < len(x); j++ {
				out[j] = Normalize(x[j])
			}
			return out
		}
	}
	return x
}

func normalizeObject(o *Object) any {
	if o == nil {
		return nil
	}
	for _, v := range o.vals {
		switch v.(type) {
		case nil, string, float64, bool, Numeral:
		default:
			c := NewObject(o.Len())
			for k, e := range o.All() {
				c.Set(k, Normalize(e))
			}
			return c
		}
	}
	return o
}

func normalizeMap(m map[string]any) any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	o := NewObject(len(keys))
	for _, k := range keys {
		o.Set(k, Normalize(m[k]))
	}
	return o
}

// sameShallow reports whether a normalized element is the same value as the
// original, without comparing uncomparable types.
func sameShallow(n, e any) bool {
	switch e.(type) {
	case nil, string, float64, bool, Numeral:
		return true
	case []any, *Object:
		return reflect.ValueOf(n).Pointer() == reflect.ValueOf(e).Pointer()
	}
	return false
}

func normalizeReflect(v any) any {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint())
	case reflect.Float32, reflect.Float64:
		return rv.Float()
	case reflect.String:
		return rv.String()
	case reflect.Bool:
		return rv.Bool()
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	parsed, err := FromJSON(string(data))
	if err != nil {
		return string(data)
	}
	return parsed
}
