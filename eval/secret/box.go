package secret

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/skillscript/skillc/eval/value"
)

// MarkerFor returns the marker text {{secret.NAME}} for name.
func MarkerFor(name string) string { return "{{secret." + name + "}}" }

// UndeclaredError reports a secret the skill did not declare with
// # Requires: secret.NAME.
type UndeclaredError struct{ Name string }

// Error implements error.
func (e *UndeclaredError) Error() string {
	return fmt.Sprintf("secret %q is not declared: add \"# Requires: secret.%s\"", e.Name, e.Name)
}

// NotProvisionedError reports a declared secret with no value.
type NotProvisionedError struct{ Name string }

// Error implements error.
func (e *NotProvisionedError) Error() string {
	return fmt.Sprintf("secret %q is not provisioned (set SKILLSCRIPT_SECRET_%s)", e.Name, e.Name)
}

// MinBytes is the shortest secret value a run accepts. A shorter value
// cannot be told apart from ordinary text (redacting a 1-character secret
// would rewrite every occurrence of that character) and is cheap to guess
// through any side channel.
const MinBytes = 8

// TooShortError reports a provisioned secret shorter than MinBytes.
type TooShortError struct {
	Name string
	Len  int
}

// Error implements error.
func (e *TooShortError) Error() string {
	return fmt.Sprintf("secret %q is %d bytes long: secrets shorter than %d bytes are refused (a short value cannot be redacted reliably and is easy to guess); provision a longer SKILLSCRIPT_SECRET_%s", e.Name, e.Len, MinBytes, e.Name)
}

// Box places, resolves and redacts the secrets of one run. It is used by
// the goroutine running the skill; its Redactor is safe for concurrent use.
type Box struct {
	prefix   string // "\x00" + nonce + ":"
	declared map[string]bool
	lookup   func(string) (string, bool)
	red      *Redactor // knows every value looked up, for redaction
}

// NewBox returns a box for a run that declares the named secrets and
// looks values up with lookup (nil knows none). Declared secrets that
// have a value are known to the redactor from the start, so text can be
// scrubbed before any sink resolved them.
func NewBox(declared []string, lookup func(string) (string, bool)) *Box {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	b := &Box{prefix: "\x00" + hex.EncodeToString(nonce[:]) + ":", declared: map[string]bool{}, lookup: lookup, red: &Redactor{}}
	for _, name := range declared {
		b.declared[name] = true
		if v, ok := b.get(name); ok && len(v) >= MinBytes {
			b.red.Add(name, v)
		}
	}
	return b
}

func (b *Box) get(name string) (string, bool) {
	if b.lookup == nil {
		return "", false
	}
	v, ok := b.lookup(name)
	return v, ok && v != ""
}

// ShareRedaction makes b and parent redact with one Redactor: a composed
// run (a parent and its children) knows every secret any of them
// declared or resolved, wherever its text ends up.
func (b *Box) ShareRedaction(parent *Box) {
	for spelling, marker := range b.red.snapshot() {
		parent.red.addSpelling(spelling, marker)
	}
	b.red = parent.red
}

// Sentinel returns the text standing for {{secret.name}} in this run.
func (b *Box) Sentinel(name string) string { return b.prefix + name + "\x00" }

// Has reports whether s holds a sentinel of this box.
func (b *Box) Has(s string) bool { return strings.Contains(s, b.prefix) }

// Names returns the secret names whose sentinels appear in s, in order.
func (b *Box) Names(s string) []string {
	var out []string
	for rest := s; ; {
		i := strings.Index(rest, b.prefix)
		if i < 0 {
			return out
		}
		rest = rest[i+len(b.prefix):]
		end := strings.IndexByte(rest, 0)
		if end < 0 {
			return out
		}
		out = append(out, rest[:end])
		rest = rest[end+1:]
	}
}

// CheckDeclared returns an *UndeclaredError when s uses a secret the skill
// does not declare.
func (b *Box) CheckDeclared(s string) error {
	for _, n := range b.Names(s) {
		if !b.declared[n] {
			return &UndeclaredError{Name: n}
		}
	}
	return nil
}

// Resolve replaces every sentinel in s with the secret's value. An
// undeclared name (*UndeclaredError) or a missing value
// (*NotProvisionedError) is an error, and then nothing is resolved.
func (b *Box) Resolve(s string) (string, error) {
	if !b.Has(s) {
		return s, nil
	}
	if err := b.CheckDeclared(s); err != nil {
		return "", err
	}
	for _, n := range b.Names(s) {
		v, ok := b.get(n)
		if !ok {
			return "", &NotProvisionedError{Name: n}
		}
		if len(v) < MinBytes {
			return "", &TooShortError{Name: n, Len: len(v)}
		}
		b.red.Add(n, v)
		s = strings.ReplaceAll(s, b.Sentinel(n), v)
	}
	return s, nil
}

// ResolveValue resolves sentinels in every string inside v (lists and
// objects are walked, keys are left alone) and returns a new value; v is
// not modified. It is the form for connector arguments.
func (b *Box) ResolveValue(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return b.Resolve(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := b.ResolveValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case *value.Object:
		out := value.NewObject(x.Len())
		for k, e := range x.All() {
			r, err := b.ResolveValue(e)
			if err != nil {
				return nil, err
			}
			out.Set(k, r)
		}
		return out, nil
	}
	return v, nil
}

// Display turns sentinels back into the {{secret.NAME}} marker form.
func (b *Box) Display(s string) string {
	for _, n := range b.Names(s) {
		s = strings.ReplaceAll(s, b.Sentinel(n), MarkerFor(n))
	}
	return s
}

// Redact displays s and replaces every known secret value in it (and its
// JSON- and URL-encoded spellings) with its marker.
func (b *Box) Redact(s string) string {
	return b.red.Redact(b.Display(s))
}

// RedactValue returns v with Redact applied to every string inside it,
// including object keys. v is not modified.
func (b *Box) RedactValue(v any) any {
	switch x := v.(type) {
	case string:
		return b.Redact(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = b.RedactValue(e)
		}
		return out
	case *value.Object:
		out := value.NewObject(x.Len())
		for k, e := range x.All() {
			out.Set(b.Redact(k), b.RedactValue(e))
		}
		return out
	}
	return v
}
