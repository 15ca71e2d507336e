package eval

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/filter"
	"github.com/skillscript/skillc/eval/value"
)

// info returns the cached path and filter chain of s.
func (x *run) substInfo(s *ast.Subst) *substInfo {
	if si, ok := x.substs[s]; ok {
		return si
	}
	si := &substInfo{segs: make([]string, len(s.Path))}
	var ref strings.Builder
	if s.Root != nil {
		ref.WriteString(s.Root.Name)
	}
	for i, p := range s.Path {
		si.segs[i] = p.Name
		ref.WriteString("." + p.Name)
	}
	si.ref = ref.String()
	for _, f := range s.Filters {
		c := filter.Call{}
		if f.Name != nil {
			c.Name = f.Name.Name
		}
		if f.Arg != nil {
			c.Arg, c.HasArg = f.Arg.Value, true
			if f.Arg.Text != nil {
				si.dyn = append(si.dyn, len(si.chain))
			}
		}
		si.chain = append(si.chain, c)
	}
	x.substs[s] = si
	return si
}

// resolve evaluates a substitution in scope sc: the root, the path, then
// the filter chain. missing reports a base that did not resolve (only
// possible when the error is nil in mechanical mode, or with a fallback).
func (x *run) resolve(s *ast.Subst, sc *scope) (any, error) {
	if s.Bad == "" && s.Root != nil && len(s.Path) == 0 && len(s.Filters) == 0 && !x.touched {
		// the common plain ${X} bound in a scope, in a run without
		// tainted data: what lookupPath returns (USER without a path is
		// its value as bound; ambient names are looked up below)
		for o := sc; o != nil; o = o.parent { // sc.lookup, inlined
			if i := o.find(s.Root.Name); i >= 0 {
				return o.ents[i].value(), nil
			}
		}
	}
	return x.resolveRef(s, sc)
}

// resolveRef is resolve without its fast path.
func (x *run) resolveRef(s *ast.Subst, sc *scope) (any, error) {
	if s.Bad != "" || s.Root == nil {
		if s.Legacy {
			return x.source(s.Range), nil // bash $(...) passes through
		}
		return nil, errorf(KindUnresolved, "malformed substitution %s", x.source(s.Range))
	}
	if len(s.Path) == 0 && len(s.Filters) == 0 {
		// a plain ${X}: no path or chain to cache
		v, ok := x.lookupPath(s.Root.Name, nil, sc)
		if x.tainted(s.Root.Name, sc) {
			x.taint()
		}
		if !ok {
			return x.unresolved(s, x.substInfo(s))
		}
		return v, nil
	}
	si := x.substInfo(s)
	v, ok := x.lookupPath(s.Root.Name, si.segs, sc)
	if x.tainted(s.Root.Name, sc) {
		x.taint()
	}
	if len(si.chain) == 0 {
		if !ok {
			return x.unresolved(s, si)
		}
		return v, nil
	}
	if ok && listFilter(si.chain[0].Name) {
		v = listView(v)
	}
	chain, err := x.filterChain(s, si, sc)
	if err != nil {
		return nil, err
	}
	out, err := filter.Apply(v, !ok, chain)
	if err == nil {
		return out, nil
	}
	if _, isMissing := err.(*value.UnresolvedRefError); isMissing {
		return x.unresolved(s, si)
	}
	re := classify(err)
	re.Msg = "${" + si.ref + "}: " + re.Msg
	return nil, re
}

// filterChain returns the filter chain of s with the arguments that hold
// substitutions (|contains:"${KW}") rendered in scope sc.
func (x *run) filterChain(s *ast.Subst, si *substInfo, sc *scope) ([]filter.Call, error) {
	if len(si.dyn) == 0 {
		return si.chain, nil
	}
	chain := append([]filter.Call(nil), si.chain...)
	for _, i := range si.dyn {
		arg, err := x.renderText(s.Filters[i].Arg.Text, sc)
		if err != nil {
			return nil, err
		}
		if err := x.checkNoSecret(arg); err != nil {
			return nil, err
		}
		chain[i].Arg = arg
	}
	return chain, nil
}

// unresolved reports a reference that did not resolve; mechanical runs
// keep its source text instead.
func (x *run) unresolved(s *ast.Subst, si *substInfo) (any, error) {
	if x.mech {
		return x.source(s.Range), nil
	}
	return nil, &RunError{Kind: KindUnresolved, Msg: "unresolved reference ${" + si.ref + "}", Range: s.Range}
}

// lookupPath resolves root and follows segs.
func (x *run) lookupPath(root string, segs []string, sc *scope) (any, bool) {
	v, ok := sc.lookup(root)
	if !ok {
		v, ok = x.ambient(root)
	}
	if !ok && len(segs) > 0 && segs[0] == "output" {
		if out, done := x.targetOut[root]; done {
			v, ok, segs = out, true, segs[1:]
		}
	}
	if !ok {
		return nil, false
	}
	if root == "USER" {
		v, segs = userLogin(v, segs)
	}
	for _, seg := range segs {
		if v, ok = step(v, seg); !ok {
			return nil, false
		}
	}
	return v, true
}

// userLogin lets ${USER.login} read a plain-string ${USER}: the configured
// identity is the login, so .login of a string user is the string itself.
func userLogin(v any, segs []string) (any, []string) {
	if s, isStr := v.(string); isStr && len(segs) > 0 && segs[0] == "login" {
		return s, segs[1:]
	}
	return v, segs
}

// step follows one path segment.
func step(v any, seg string) (any, bool) {
	if o, ok := v.(*value.Object); ok {
		return o.Get(seg)
	}
	return value.Path(v, []string{seg})
}

// ambient returns the ambient value called name.
func (x *run) ambient(name string) (any, bool) {
	env := &x.r.Env
	switch name {
	case "NOW":
		return isoTime(x.r.clock()), true
	case "USER":
		return orEmpty(env.User), true
	case "SESSION_CONTEXT":
		return orEmpty(env.SessionContext), true
	case "TRIGGER_TYPE":
		return env.TriggerType, true
	case "TRIGGER_PAYLOAD":
		return orEmpty(env.TriggerPayload), true
	case "EVENT":
		return x.eventValue(), true
	}
	return nil, false
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return value.Normalize(v)
}

// eventValue builds ${EVENT}: the trigger's fields plus the fire-time
// offsets.
func (x *run) eventValue() *value.Object {
	fired := x.r.Env.FiredAt
	if fired.IsZero() {
		fired = x.start
	}
	o := value.NewObject(8)
	if ev, ok := value.Normalize(x.r.Env.Event).(*value.Object); ok {
		for k, v := range ev.All() {
			o.Set(k, v)
		}
	}
	unix := float64(fired.Unix())
	o.Set("fired_at", float64(fired.UnixMilli()))
	o.Set("fired_at_unix", unix)
	o.Set("fired_at_plus_1h_unix", unix+3600)
	o.Set("fired_at_plus_1d_unix", unix+86400)
	o.Set("fired_at_plus_7d_unix", unix+604800)
	return o
}

// isoTime formats t like JavaScript's Date#toISOString.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// source returns the source text of r.
func (x *run) source(r ast.Range) string {
	from, to := r.From.Offset(), r.To.Offset()
	if from < 0 || to > len(x.f.Src) || from > to {
		return ""
	}
	return string(x.f.Src[from:to])
}

// renderText renders t to a string. Secret markers become sentinels;
// callers outside sinks reject them (see checkNoSecret).
func (x *run) renderText(t *ast.Text, sc *scope) (string, error) {
	if t == nil {
		return "", nil
	}
	if len(t.Parts) == 1 {
		if l, ok := t.Parts[0].(*ast.Lit); ok {
			return litValue(l), nil
		}
	}
	// Literals and substitutions are appended to the run's scratch buffer
	// and copied out once: one allocation for the result in the common
	// case. A nested rendering (a filter argument) appends after this one
	// and cuts the buffer back to where it started, so the buffer is used
	// like a stack.
	start := len(x.scratch)
	if err := x.appendText(t, sc); err != nil {
		return "", err
	}
	s := string(x.scratch[start:])
	x.scratch = x.scratch[:start]
	return s, nil
}

// renderValue is renderText boxed into an interface value; a short text
// is carved from the run's string chunks (no allocation of its own).
func (x *run) renderValue(t *ast.Text, sc *scope) (any, error) {
	if t == nil || len(t.Parts) == 1 {
		return x.renderText(t, sc)
	}
	start := len(x.scratch)
	for _, p := range t.Parts { // appendText, without a call per text
		if err := x.appendPart(p, sc); err != nil {
			x.scratch = x.scratch[:start]
			return "", err
		}
	}
	v := x.strs.Box(x.scratch[start:])
	x.scratch = x.scratch[:start]
	return v, nil
}

// appendText appends the rendering of t's parts to x.scratch, which it
// leaves as it found it on failure.
func (x *run) appendText(t *ast.Text, sc *scope) error {
	start := len(x.scratch)
	for _, p := range t.Parts {
		if err := x.appendPart(p, sc); err != nil {
			x.scratch = x.scratch[:start]
			return err
		}
	}
	return nil
}

// appendPart appends the rendering of p (what renderPart writes) to
// x.scratch.
func (x *run) appendPart(p ast.TextPart, sc *scope) error {
	switch p := p.(type) {
	case *ast.Lit:
		x.scratch = append(x.scratch, litValue(p)...)
		return nil
	case *ast.Subst:
		v, err := x.resolve(p, sc)
		if err != nil {
			return err
		}
		x.scratch = appendValue(x.scratch, v)
		return nil
	}
	var b strings.Builder
	if err := x.renderPart(&b, p, sc); err != nil {
		return err
	}
	x.scratch = append(x.scratch, b.String()...)
	return nil
}

// appendValue appends value.String(v) to dst, formatting whole numbers in
// place instead of through a temporary string.
func appendValue(dst []byte, v any) []byte {
	switch t := v.(type) {
	case string:
		return append(dst, t...)
	case float64:
		// the integer branch of value.FormatNumber
		if t >= 0 && t < 1e9 && t == float64(uint32(t)) {
			return appendSmall(dst, uint32(t))
		}
		if a := math.Abs(t); t == 0 || a >= 1e-6 && a < 1e15 && t == math.Trunc(t) {
			return strconv.AppendInt(dst, int64(t), 10)
		}
	}
	return append(dst, value.String(v)...)
}

// appendSmall appends the decimal digits of n (what strconv.AppendUint
// writes) without its general machinery.
func appendSmall(dst []byte, n uint32) []byte {
	var buf [10]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}

func (x *run) renderPart(b *strings.Builder, p ast.TextPart, sc *scope) error {
	switch p := p.(type) {
	case *ast.Lit:
		b.WriteString(litValue(p))
	case *ast.Subst:
		v, err := x.resolve(p, sc)
		if err != nil {
			return err
		}
		b.WriteString(value.String(v))
		if n := int64(b.Len()); n > x.lim.value {
			return x.checkSize("", n)
		}
	case *ast.SecretRef:
		if p.Name == "" {
			return fatalf(KindSecret, "secret marker %s is not a literal name", x.source(p.Range))
		}
		b.WriteString(x.secrets.Sentinel(p.Name))
	}
	return nil
}

// singleSubst returns the substitution when t is exactly one ${...}.
func singleSubst(t *ast.Text) *ast.Subst {
	if t == nil || len(t.Parts) != 1 {
		return nil
	}
	s, _ := t.Parts[0].(*ast.Subst)
	return s
}

// eval evaluates an expression to a value. Strings interpolate; a bare
// ${X} (or an unquoted word that is only ${X}) keeps X's structure.
func (x *run) eval(e ast.Expr, sc *scope) (any, error) {
	switch e := e.(type) {
	case nil:
		return nil, nil
	case *ast.StringLit:
		if e.Value != nil && len(e.Value.Parts) == 1 {
			if l, ok := e.Value.Parts[0].(*ast.Lit); ok {
				// a constant: box its value once per run, not per evaluation
				v, ok := x.constStr[e]
				if !ok {
					v = litValue(l)
					x.constStr[e] = v
				}
				return v, nil
			}
		}
		return x.renderValue(e.Value, sc)
	case *ast.NumberLit:
		if value.KeepsText(e.Raw, e.Value) {
			return value.Numeral(e.Raw), nil // 02134, 2.50, a 19-digit id: as written
		}
		return e.Value, nil
	case *ast.BoolLit:
		return e.Value, nil
	case *ast.NullLit:
		return nil, nil
	case *ast.Subst:
		return x.resolve(e, sc)
	case *ast.BareWord:
		if s := singleSubst(e.Value); s != nil {
			return x.resolve(s, sc)
		}
		return x.renderText(e.Value, sc)
	case *ast.SecretRef:
		return x.renderText(&ast.Text{Parts: []ast.TextPart{e}}, sc)
	case *ast.ListLit:
		return x.evalList(e, sc)
	case *ast.ObjectLit:
		return x.evalObject(e, sc)
	}
	return nil, errorf(KindOpError, "unsupported value %s", x.source(e.Span()))
}

func (x *run) evalList(e *ast.ListLit, sc *scope) (any, error) {
	out := make([]any, 0, len(e.Elems))
	for _, el := range e.Elems {
		if n, ok := el.(*ast.NumberLit); ok && !value.KeepsText(n.Raw, n.Value) {
			out = append(out, x.floats.Box(n.Value)) // no allocation per number
			continue
		}
		v, err := x.eval(el, sc)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (x *run) evalObject(e *ast.ObjectLit, sc *scope) (any, error) {
	o := value.NewObject(len(e.Entries))
	for _, en := range e.Entries {
		v, err := x.eval(en.Value, sc)
		if err != nil {
			return nil, err
		}
		o.Set(en.KeyName(), v)
	}
	return o, nil
}

// evalPlain evaluates e outside a sink: a secret marker is refused.
func (x *run) evalPlain(e ast.Expr, sc *scope) (v any, err error) {
	if s, ok := e.(*ast.Subst); ok {
		v, err = x.resolve(s, sc) // what eval does for it, one call less
	} else {
		v, err = x.eval(e, sc)
	}
	if err != nil {
		return nil, err
	}
	if err := x.checkNoSecret(v); err != nil {
		return nil, err
	}
	return v, nil
}

// checkNoSecret refuses a value carrying a secret marker: secrets are
// usable only in shell and "$ conn.tool" arguments.
func (x *run) checkNoSecret(v any) error {
	if !x.secrets.Issued() {
		return nil // no sentinel exists yet, so no value holds one
	}
	return x.checkNoSentinel(v)
}

// checkNoSecretText is checkNoSecret of a string.
func (x *run) checkNoSecretText(s string) error {
	if !x.secrets.Issued() {
		return nil
	}
	return x.checkNoSentinel(s)
}

// checkNoSentinel is checkNoSecret once a sentinel has been issued.
func (x *run) checkNoSentinel(v any) error {
	switch t := v.(type) {
	case string:
		if x.secrets.Has(t) {
			return fatalf(KindSecret, "{{secret.%s}} may only be used in shell(...) or $ connector.tool arguments", firstOr(x.secrets.Names(t)))
		}
	case []any:
		for _, e := range t {
			if err := x.checkNoSentinel(e); err != nil {
				return err
			}
		}
	case *value.Object:
		for _, e := range t.All() {
			if err := x.checkNoSentinel(e); err != nil {
				return err
			}
		}
	}
	return nil
}

func firstOr(ss []string) string {
	if len(ss) == 0 {
		return "?"
	}
	return ss[0]
}
