package eval

import (
	"context"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/secret"
	"github.com/skillscript/skillc/eval/value"
)

// secretBox is the run's secret.Box with its failures turned into fatal
// secret errors of the run.
type secretBox struct{ *secret.Box }

func newSecretBox(info *check.Info, lookup func(string) (string, bool)) secretBox {
	names := make([]string, 0, len(info.Secrets))
	for name := range info.Secrets {
		names = append(names, name)
	}
	return secretBox{secret.NewBox(names, lookup)}
}

// secretError makes a box failure (undeclared, not provisioned) fatal.
func secretError(err error) error {
	if err == nil {
		return nil
	}
	return fatalf(KindSecret, "%s", err.Error())
}

// checkDeclared fails, fatally, when s uses a secret that # Requires: does
// not declare.
func (b secretBox) checkDeclared(s string) error { return secretError(b.CheckDeclared(s)) }

// resolve replaces every sentinel in s with the secret's value.
func (b secretBox) resolve(s string) (string, error) {
	v, err := b.Resolve(s)
	return v, secretError(err)
}

// HasValue reports whether a sentinel of the box appears in any string
// inside v.
func (b secretBox) HasValue(v any) bool {
	switch t := v.(type) {
	case string:
		return b.Has(t)
	case []any:
		for _, e := range t {
			if b.HasValue(e) {
				return true
			}
		}
	case *value.Object:
		for k, e := range t.All() {
			if b.Has(k) || b.HasValue(e) {
				return true
			}
		}
	}
	return false
}

// resolveValue resolves sentinels in every string inside v.
func (b secretBox) resolveValue(v any) (any, error) {
	r, err := b.ResolveValue(v)
	return r, secretError(err)
}

// redactResult scrubs every string a result carries.
func (b secretBox) redactResult(res *Result) {
	res.Outputs.Text = b.Redact(res.Outputs.Text)
	for i := range res.Emissions {
		res.Emissions[i] = b.Redact(res.Emissions[i])
	}
	for i := range res.Transcript {
		res.Transcript[i].Text = b.Redact(res.Transcript[i].Text)
	}
	b.redactErrors(res.Errors)
	for i := range res.Fallbacks {
		res.Fallbacks[i].Reason = b.Redact(res.Fallbacks[i].Reason)
	}
	for i := range res.Receipts {
		res.Receipts[i].Error = b.Redact(res.Receipts[i].Error)
	}
	for i := range res.UncertainEffects {
		res.UncertainEffects[i].Detail = b.Redact(res.UncertainEffects[i].Detail)
	}
	for i := range res.Notices {
		res.Notices[i] = b.Redact(res.Notices[i])
	}
	if res.FinalVars != nil {
		for i := range res.FinalVars.vals {
			res.FinalVars.vals[i] = b.RedactValue(res.FinalVars.vals[i])
		}
	}
}

func (b secretBox) redactErrors(errs []ErrorInfo) {
	for i := range errs {
		errs[i].Message = b.Redact(errs[i].Message)
		b.redactErrors(errs[i].Nested)
	}
}

func withIdentity(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return contract.WithCallerIdentity(ctx, id)
}
