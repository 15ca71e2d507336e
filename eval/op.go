package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// opCall is one op with its optional "-> VAR" binding and (fallback:).
type opCall struct {
	stmt     ast.Stmt
	name     string
	args     []*ast.Arg
	bind     *ast.Binding
	fb       *ast.Fallback
	external bool // bounded by timeout=, # Timeout: and the default timeout
	mutating bool // set by the mutation gate; cut mid-flight it is an uncertain effect
	sc       *scope
}

// opScope returns the scope op runs in.
func (x *run) opScope(op *opCall) *scope { return op.sc }

// opFunc performs an op and returns the value to bind.
type opFunc func(ctx context.Context, op *opCall) (any, error)

// runOp performs op with its timeout, then binds the result or, for a
// containable failure or an empty result, the fallback value.
func (x *run) runOp(op *opCall, sc *scope, fn opFunc) error {
	op.sc = sc
	if err := x.alive(op); err != nil {
		return err
	}
	ctx, cancel, err := x.opContext(op, sc)
	if err != nil {
		return x.contain(op, sc, err)
	}
	defer cancel()
	if isEffect(op) {
		if err := x.effectGate(op.name); err != nil {
			return x.locate(classify(err), op.stmt)
		}
	}
	x.progress(Event{Kind: "op", Target: x.targetName(), Op: op.name, Line: x.line(op.stmt.Span())})
	v, err := fn(ctx, op)
	if err != nil {
		return x.contain(op, sc, x.opFailure(ctx, op, err))
	}
	if op.fb != nil && !x.mech && value.IsEmpty(v) {
		return x.fireFallback(op, sc, "empty result")
	}
	return x.bindResult(op, sc, v)
}

// contain applies op's (fallback:) to a containable failure.
func (x *run) contain(op *opCall, sc *scope, err error) error {
	re := x.locate(classify(err), op.stmt)
	if x.flow {
		re.Tainted = true
	}
	if re.Fatal || op.fb == nil {
		return re
	}
	return x.fireFallback(op, sc, re.Kind+": "+re.Msg)
}

// fireFallback binds the fallback value and records why it fired.
func (x *run) fireFallback(op *opCall, sc *scope, reason string) error {
	v, err := x.evalPlain(op.fb.Value, sc)
	if err != nil {
		return x.locate(classify(err), op.stmt)
	}
	fb := Fallback{Target: x.targetName(), Op: op.name, Reason: redactTainted(reason, x.flow), Range: x.span(op.stmt.Span())}
	x.res.Fallbacks = append(x.res.Fallbacks, fb)
	x.trace("fallback", fb.Target, op.name, x.line(op.stmt.Span()), reason)
	x.progress(Event{Kind: "fallback", Target: fb.Target, Op: op.name, Line: x.line(op.stmt.Span()), Detail: reason})
	if op.name == "execute_skill" || op.name == "$ execute_skill" {
		v = degradedChild(v, fb.Reason)
	}
	return x.bindResult(op, sc, v)
}

// degradedChild is what "execute_skill(...) -> R (fallback: v)" binds when
// the fallback fires: a composition result like a successful child's, whose
// outputs.text is the fallback value, so ${R.outputs.text} reads the
// degraded value as the language reference's example does (decision S4).
// A fallback that is already an object is bound as it is.
func degradedChild(v any, reason string) any {
	if _, isObj := v.(*value.Object); isObj {
		return v
	}
	return childValue(&Result{
		Status:  statusFailed,
		Outputs: Outputs{Text: value.String(v)},
		Errors:  []ErrorInfo{{Kind: "FallbackUsed", Message: reason}},
	})
}

// bindResult binds op's value to its "-> VAR", tainted when the op read
// tainted data or its sink received a secret.
func (x *run) bindResult(op *opCall, sc *scope, v any) error {
	if op.bind == nil || op.bind.Name == nil {
		return nil
	}
	if err := x.bind(sc, op.bind.Name.Name, v, x.flow); err != nil {
		return x.locate(classify(err), op.stmt)
	}
	x.lastBound, x.hasBound, x.lastTainted = v, true, x.flow
	if x.cur != nil {
		x.cur.out, x.cur.hasOut, x.cur.tainted = v, true, x.flow
	}
	return nil
}

// opContext derives the op's context: timeout= wins over # Timeout:, which
// wins over the runner default; the run deadline bounds them all.
func (x *run) opContext(op *opCall, sc *scope) (context.Context, context.CancelFunc, error) {
	d := time.Duration(0)
	if op.external {
		d = x.opTimeout
		if d == 0 {
			d = x.r.DefaultTimeout
		}
	}
	if a := argOf(op.args, "timeout"); a != nil {
		v, err := x.evalPlain(a.Value, sc)
		if err != nil {
			return nil, nil, err
		}
		secs, err := value.Number(v)
		if err != nil || secs <= 0 {
			return nil, nil, errorf(KindArgument, "timeout=%s: want a positive number of seconds", value.String(v))
		}
		d = seconds(secs)
	}
	if d <= 0 {
		ctx, cancel := context.WithCancel(x.ctx)
		return ctx, cancel, nil
	}
	ctx, cancel := context.WithTimeout(x.ctx, d)
	return ctx, cancel, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// opFailure turns an op error into a RunError, telling the run deadline
// (fatal) from the op's own timeout (containable).
func (x *run) opFailure(ctx context.Context, op *opCall, err error) error {
	if dead := x.alive(op); dead != nil {
		return dead
	}
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		var re *RunError
		if !errors.As(err, &re) || !re.Fatal {
			return &RunError{Kind: KindTimeout, Msg: fmt.Sprintf("%s timed out", op.name), Err: err}
		}
	}
	return err
}

// alive fails, fatally, once the run's deadline has passed or its caller
// cancelled it. A mutating op cut off this way is an uncertain effect.
func (x *run) alive(op *opCall) error {
	select {
	case <-x.done:
		return x.cutOff(op)
	default:
		return nil // a closed-channel test, cheaper than Err's lock per statement
	}
}

// cutOff is alive's failure once the run's context has ended.
func (x *run) cutOff(op *opCall) error {
	err := x.ctx.Err()
	if err == nil {
		return nil
	}
	if op != nil && op.mutating {
		x.res.UncertainEffects = append(x.res.UncertainEffects, Effect{
			Target: x.targetName(), Op: op.name, Range: x.span(op.stmt.Span()),
			Detail: "issued when the run was cut off; outcome unknown",
		})
		op.mutating = false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		x.res.DeadlineExceeded = true
		return fatalf(KindDeadline, "run deadline exceeded")
	}
	return fatalf(KindCancelled, "run cancelled")
}

// gate is the mutation gate: a mutating op needs approved="..." or
// # Autonomous: true. Refusal is fatal.
func (x *run) gate(op *opCall, sc *scope, what string) error {
	op.mutating = true
	a := argOf(op.args, "approved")
	if a != nil && !x.mech {
		// approved= is the author's literal signature on this op; a value
		// computed at run time (a caller input, a tool answer) never
		// grants it (issue 13 item 9).
		if _, ok := check.LitString(a.Value); !ok {
			return fatalf(KindMutation, "%s: approved= must be a literal string, not a computed value", what)
		}
	}
	if x.mech || x.autonomous() {
		return nil
	}
	if a != nil {
		v, err := x.evalPlain(a.Value, sc)
		if err == nil && strings.TrimSpace(value.String(v)) != "" {
			return nil
		}
	}
	return fatalf(KindMutation, "%s is a mutating op: authorize it with approved=\"<reason>\" or declare # Autonomous: true", what)
}

// argOf returns the kwarg called key, or nil.
func argOf(args []*ast.Arg, key string) *ast.Arg {
	for _, a := range args {
		if a.Key != nil && a.Key.Name == key {
			return a
		}
	}
	return nil
}

// consumed reports kwargs the runtime takes itself and never forwards.
func consumed(key string) bool { return lang.IsUniversal(key) }

// kwargs evaluates every forwarded kwarg of op. Secret markers are kept
// as sentinels when sink is set and refused otherwise.
func (x *run) kwargs(args []*ast.Arg, sc *scope, sink bool) (*value.Object, error) {
	o := value.NewObject(len(args))
	for _, a := range args {
		if a.Key == nil || consumed(a.Key.Name) {
			continue
		}
		eval := x.evalPlain
		if sink {
			eval = x.eval
		}
		v, err := eval(a.Value, sc)
		if err != nil {
			return nil, err
		}
		o.Set(a.Key.Name, v)
	}
	return o, nil
}

// str returns kwarg key as a string ("" when absent).
func str(o *value.Object, key string) string {
	v, _ := o.Get(key)
	return value.String(v)
}

// has reports whether kwarg key is present and not null.
func has(o *value.Object, key string) bool {
	v, ok := o.Get(key)
	return ok && v != nil
}

// placeholder is what a side-effect op binds in mechanical mode.
func placeholder(format string, args ...any) string {
	return "[mechanical] " + fmt.Sprintf(format, args...)
}
