package eval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/secret"
	"github.com/skillscript/skillc/eval/value"
)

// secretBox places, resolves and redacts {{secret.NAME}} markers for one
// run. Rendering turns a marker into a sentinel that only this run can
// produce (it embeds a random nonce), so a variable value that happens to
// contain "{{secret.X}}" stays inert. Sinks resolve sentinels to values
// after their gates pass; everything the run returns is redacted.
type secretBox struct {
	prefix   string // "\x00" + nonce + ":"
	declared map[string]bool
	lookup   func(string) (string, bool)
	red      secret.Redactor // knows every value looked up, for redaction
}

func newSecretBox(info *check.Info, lookup func(string) (string, bool)) *secretBox {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	b := &secretBox{prefix: "\x00" + hex.EncodeToString(nonce[:]) + ":", declared: map[string]bool{}, lookup: lookup}
	for name := range info.Secrets {
		b.declared[name] = true
		if v, ok := b.get(name); ok {
			b.red.Add(name, v)
		}
	}
	return b
}

func (b *secretBox) get(name string) (string, bool) {
	if b.lookup == nil {
		return "", false
	}
	v, ok := b.lookup(name)
	return v, ok && v != ""
}

// marker returns the sentinel standing for {{secret.name}}.
func (b *secretBox) marker(name string) string { return b.prefix + name + "\x00" }

// has reports whether s holds a secret sentinel.
func (b *secretBox) has(s string) bool { return strings.Contains(s, b.prefix) }

// names returns the secret names whose sentinels appear in s.
func (b *secretBox) names(s string) []string {
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

// checkDeclared fails, fatally, when s uses a secret that # Requires: does
// not declare.
func (b *secretBox) checkDeclared(s string) error {
	for _, n := range b.names(s) {
		if !b.declared[n] {
			return fatalf(KindSecret, "secret %q is not declared: add \"# Requires: secret.%s\"", n, n)
		}
	}
	return nil
}

// resolve replaces every sentinel in s with the secret's value.
func (b *secretBox) resolve(s string) (string, error) {
	if !b.has(s) {
		return s, nil
	}
	if err := b.checkDeclared(s); err != nil {
		return "", err
	}
	for _, n := range b.names(s) {
		v, ok := b.get(n)
		if !ok {
			return "", fatalf(KindSecret, "secret %q is not provisioned (set SKILLSCRIPT_SECRET_%s)", n, n)
		}
		b.red.Add(n, v)
		s = strings.ReplaceAll(s, b.marker(n), v)
	}
	return s, nil
}

// resolveValue resolves sentinels in every string inside v.
func (b *secretBox) resolveValue(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return b.resolve(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := b.resolveValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case *value.Object:
		out := value.NewObject(x.Len())
		for k, e := range x.All() {
			r, err := b.resolveValue(e)
			if err != nil {
				return nil, err
			}
			out.Set(k, r)
		}
		return out, nil
	}
	return v, nil
}

// display turns sentinels back into the {{secret.NAME}} marker form.
func (b *secretBox) display(s string) string {
	for _, n := range b.names(s) {
		s = strings.ReplaceAll(s, b.marker(n), "{{secret."+n+"}}")
	}
	return s
}

// redact replaces every known secret value in s (and its JSON- and
// URL-encoded spellings) with its marker.
func (b *secretBox) redact(s string) string {
	return b.red.Redact(b.display(s))
}

// redactValue redacts every string inside v.
func (b *secretBox) redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return b.redact(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = b.redactValue(e)
		}
		return out
	case *value.Object:
		out := value.NewObject(x.Len())
		for k, e := range x.All() {
			out.Set(b.redact(k), b.redactValue(e))
		}
		return out
	}
	return v
}

// redactResult scrubs every string a result carries.
func (b *secretBox) redactResult(res *Result) {
	res.Outputs.Text = b.redact(res.Outputs.Text)
	for i := range res.Emissions {
		res.Emissions[i] = b.redact(res.Emissions[i])
	}
	for i := range res.Transcript {
		res.Transcript[i].Text = b.redact(res.Transcript[i].Text)
	}
	b.redactErrors(res.Errors)
	for i := range res.Fallbacks {
		res.Fallbacks[i].Reason = b.redact(res.Fallbacks[i].Reason)
	}
	for i := range res.Receipts {
		res.Receipts[i].Error = b.redact(res.Receipts[i].Error)
	}
	for i := range res.UncertainEffects {
		res.UncertainEffects[i].Detail = b.redact(res.UncertainEffects[i].Detail)
	}
	for i := range res.Notices {
		res.Notices[i] = b.redact(res.Notices[i])
	}
	if res.FinalVars != nil {
		for i := range res.FinalVars.vals {
			res.FinalVars.vals[i] = b.redactValue(res.FinalVars.vals[i])
		}
	}
}

func (b *secretBox) redactErrors(errs []ErrorInfo) {
	for i := range errs {
		errs[i].Message = b.redact(errs[i].Message)
		b.redactErrors(errs[i].Nested)
	}
}

func withIdentity(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return contract.WithCallerIdentity(ctx, id)
}
