package secret

import (
	"fmt"
	"os"
	"strings"
)

// EnvPrefix prefixes the environment variable that provisions a secret.
const EnvPrefix = "SKILLSCRIPT_SECRET_"

const (
	markerOpen  = "{{secret."
	markerClose = "}}"
)

// Marker is one {{secret.NAME}} occurrence in a string.
type Marker struct {
	Name       string
	Start, End int // byte offsets of the whole marker
}

// Text returns the marker as written.
func (m Marker) Text() string { return MarkerFor(m.Name) }

// MarkerFor returns the marker text for name.
func MarkerFor(name string) string { return markerOpen + name + markerClose }

// MalformedMarkerError reports text that starts like a marker but is not
// one, such as {{secret.${NAME}}} or an unclosed {{secret.X.
type MalformedMarkerError struct {
	Offset int
}

// Error implements error.
func (e *MalformedMarkerError) Error() string {
	return fmt.Sprintf("malformed secret marker at offset %d (want {{secret.NAME}} with a literal name)", e.Offset)
}

// UndeclaredError reports a marker whose name the skill did not declare.
type UndeclaredError struct {
	Name string
}

// Error implements error.
func (e *UndeclaredError) Error() string {
	return fmt.Sprintf("secret %s is not declared (add # Requires: secret.%s)", MarkerFor(e.Name), e.Name)
}

// NotProvisionedError reports a declared secret with no value.
type NotProvisionedError struct {
	Name string
}

// Error implements error.
func (e *NotProvisionedError) Error() string {
	return fmt.Sprintf("secret %s is not provisioned (set %s%s)", MarkerFor(e.Name), EnvPrefix, e.Name)
}

// Find returns the markers in s in order, or the first malformed one.
func Find(s string) ([]Marker, error) {
	var out []Marker
	for off := 0; ; {
		i := strings.Index(s[off:], markerOpen)
		if i < 0 {
			return out, nil
		}
		start := off + i
		n := identLen(s[start+len(markerOpen):])
		end := start + len(markerOpen) + n
		if n == 0 || !strings.HasPrefix(s[end:], markerClose) {
			return out, &MalformedMarkerError{Offset: start}
		}
		end += len(markerClose)
		out = append(out, Marker{Name: s[start+len(markerOpen) : end-len(markerClose)], Start: start, End: end})
		off = end
	}
}

// identLen returns the length of the identifier at the start of s.
func identLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return i
		}
	}
	return len(s)
}

// Contains reports whether s holds anything that looks like a marker.
func Contains(s string) bool { return strings.Contains(s, markerOpen) }

// EnvLookup returns a Lookup reading SKILLSCRIPT_SECRET_<NAME> through
// lookupEnv (os.LookupEnv when nil). Only prefixed variables are reachable:
// {{secret.PATH}} reads SKILLSCRIPT_SECRET_PATH, never PATH.
func EnvLookup(lookupEnv func(string) (string, bool)) func(string) (string, bool) {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	return func(name string) (string, bool) {
		return lookupEnv(EnvPrefix + name)
	}
}

// Resolver fills in declared secrets at a sink.
type Resolver struct {
	// Lookup returns the value of a secret by name.
	Lookup func(name string) (string, bool)
	// Declared holds the names from # Requires: secret.NAME.
	Declared map[string]bool
}

// Resolve replaces every marker in s with its value. A malformed marker,
// an undeclared name or a missing value is an error, and then nothing is
// resolved.
func (r *Resolver) Resolve(s string) (string, error) {
	markers, err := Find(s)
	if err != nil || len(markers) == 0 {
		return s, err
	}
	var b strings.Builder
	prev := 0
	for _, m := range markers {
		v, err := r.value(m.Name)
		if err != nil {
			return "", err
		}
		b.WriteString(s[prev:m.Start])
		b.WriteString(v)
		prev = m.End
	}
	b.WriteString(s[prev:])
	return b.String(), nil
}

func (r *Resolver) value(name string) (string, error) {
	if r == nil || !r.Declared[name] {
		return "", &UndeclaredError{Name: name}
	}
	if r.Lookup == nil {
		return "", &NotProvisionedError{Name: name}
	}
	v, ok := r.Lookup(name)
	if !ok {
		return "", &NotProvisionedError{Name: name}
	}
	return v, nil
}

// ResolveValue resolves markers in every string inside v (lists and
// string-keyed maps are walked, object keys are left alone) and returns a
// new value; v is not modified. It is the form for connector arguments.
func (r *Resolver) ResolveValue(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return r.Resolve(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = r.ResolveValue(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var err error
			if out[k], err = r.ResolveValue(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// Redactor returns a Redactor that knows every declared secret that has a
// value, so text can be scrubbed even before any sink resolved it.
func (r *Resolver) Redactor() *Redactor {
	red := &Redactor{}
	if r == nil || r.Lookup == nil {
		return red
	}
	for name, ok := range r.Declared {
		if !ok {
			continue
		}
		if v, found := r.Lookup(name); found {
			red.Add(name, v)
		}
	}
	return red
}
