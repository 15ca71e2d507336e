package value

import "fmt"

// TypeMismatchError reports a value of the wrong type for an operation, such
// as |length on a number or a numeric comparison on non-numeric text.
type TypeMismatchError struct {
	Op    string // the operation, e.g. "length" or "numeric comparison"
	Want  string // what the operation accepts, e.g. "a list or string"
	Got   string // the type name of the value, see TypeName
	Value string // a short preview of the value, may be empty
}

// Error implements error.
func (e *TypeMismatchError) Error() string {
	msg := fmt.Sprintf("%s: expected %s, got %s", e.Op, e.Want, e.Got)
	if e.Value != "" {
		msg += fmt.Sprintf(" (%s)", e.Value)
	}
	return msg
}

// UnresolvedRefError reports a reference that names nothing: an unset
// variable or a missing field or index.
type UnresolvedRefError struct {
	Ref string // the reference as written, without ${ }; may be empty
}

// Error implements error.
func (e *UnresolvedRefError) Error() string {
	if e.Ref == "" {
		return "unresolved reference"
	}
	return "unresolved reference ${" + e.Ref + "}"
}

// mismatch builds a TypeMismatchError with a preview of v.
func mismatch(op, want string, v any) *TypeMismatchError {
	return &TypeMismatchError{Op: op, Want: want, Got: TypeName(v), Value: Preview(v, 40)}
}

// Preview returns the string form of v cut to at most max runes, with an
// ellipsis when it was cut.
func Preview(v any, max int) string {
	s := String(v)
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
