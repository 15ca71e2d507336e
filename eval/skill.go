package eval

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// loadSkill fetches a stored skill and compiles it with the Runner's Load.
// A Disabled skill is refused, fatally.
func (x *run) loadSkill(ctx context.Context, name string) (*contract.SkillRecord, *ast.File, *check.Info, error) {
	rec, err := x.getSkill(ctx, name)
	if err != nil {
		return nil, nil, nil, err
	}
	if x.r.Load == nil {
		return nil, nil, nil, errorf(KindInvalidSkill, "skill %q cannot be loaded: the runner has no skill loader", name)
	}
	f, info, err := x.r.Load(ctx, name, []byte(rec.Body))
	if re := refusal(err); re != nil {
		return nil, nil, nil, re
	}
	if err != nil {
		return nil, nil, nil, errorf(KindInvalidSkill, "skill %q does not parse: %s", name, loadMessage(err))
	}
	if info == nil {
		info = check.Check(f)
	}
	if info.Status == contract.StatusDisabled || childLifecycle(rec, info) == contract.StatusDisabled {
		return nil, nil, nil, fatalf(KindDisabled, "skill %q is Disabled and cannot run", name)
	}
	return rec, f, info, nil
}

// mechanicalKey marks the context of a child load in a mechanical walk.
type mechanicalKey struct{}

// WithMechanical returns ctx marked as loading a child for a mechanical
// walk (no side effects) when mech is set; a Loader reads it with
// IsMechanical.
func WithMechanical(ctx context.Context, mech bool) context.Context {
	if !mech {
		return ctx
	}
	return context.WithValue(ctx, mechanicalKey{}, true)
}

// IsMechanical reports whether a Loader is called for a child of a
// mechanical walk, which performs no side effects.
func IsMechanical(ctx context.Context) bool {
	v, _ := ctx.Value(mechanicalKey{}).(bool)
	return v
}

// refusal turns a host policy refusal (an error with a Kind, such as the
// approval gate's) into a fatal RunError of that kind; nil for any other
// error.
func refusal(err error) *RunError {
	var k interface{ Kind() string }
	if !errors.As(err, &k) {
		return nil
	}
	return &RunError{Kind: k.Kind(), Msg: err.Error(), Fatal: true, Err: err}
}

// spanOf is the source range an error names (Span() ast.Range), or the
// zero Range.
func spanOf(err error) ast.Range {
	var sp interface{ Span() ast.Range }
	if errors.As(err, &sp) {
		return sp.Span()
	}
	return ast.Range{}
}

// loadMessage is the first error of a loader's diagnostics, or the error
// text for any other loader failure.
func loadMessage(err error) string {
	var ds ast.Diagnostics
	if errors.As(err, &ds) {
		for _, d := range ds {
			if d.Severity == ast.Error {
				return d.Message
			}
		}
	}
	return err.Error()
}

// opExecuteSkill runs a child skill from the store in its own frame, under
// its author's identity, and binds its result.
func (x *run) opExecuteSkill(ctx context.Context, op *opCall) (any, error) {
	args, err := x.kwargs(op.args, x.opScope(op), false)
	if err != nil {
		return nil, err
	}
	name := str(args, "name")
	if name == "" {
		name = str(args, "skill_name")
	}
	if x.depth+1 > x.r.maxDepth() {
		return nil, errorf(KindRecursion, "execute_skill %q: recursion depth limit %d exceeded", name, x.r.maxDepth())
	}
	mech := x.mech || value.Truthy(mustGet(args, "mechanical"))
	rec, f, info, err := x.loadSkill(WithMechanical(ctx, mech), name)
	if err != nil {
		return nil, err
	}
	inputs := map[string]any{}
	if o, ok := mustGet(args, "inputs").(*value.Object); ok {
		for k, v := range o.All() {
			inputs[k] = v
		}
	}
	res := x.runChild(ctx, rec, f, info, inputs, mech)
	return x.childOutcome(name, res)
}

// childTaint carries a child's taint into its caller's statement: a child
// that saw tainted data taints everything its caller binds from it.
func (x *run) childTaint(res *Result) {
	if res.touched {
		x.taint()
	}
}

// runChild runs a child skill to completion.
func (x *run) runChild(ctx context.Context, rec *contract.SkillRecord, f *ast.File, info *check.Info, inputs map[string]any, mech bool) *Result {
	child := x.r.newRun(contract.WithCallerIdentity(ctx, rec.Author), f, info, x.depth+1, rec.Author, mech)
	child.draftChild = childLifecycle(rec, info) != contract.StatusApproved
	child.entry = x.entry
	if child.entry == "" {
		child.entry = x.skillName()
	}
	child.budget = x.budget // one op budget and memory estimate for the composed run
	child.secrets.ShareRedaction(x.secrets.Box)
	child.pc, child.touched = x.flow, x.flow // inputs from tainted data taint the whole child
	defer child.cancel()
	defer child.release()
	if err := x.spend(childRunCost); err != nil {
		child.fail(err)
		return child.finish()
	}
	child.execute(inputs)
	return child.finish()
}

// childOutcome turns a child's result into the bound value, or into an
// op failure when the child failed (its errors nest in the failure).
func (x *run) childOutcome(name string, res *Result) (any, error) {
	x.res.UncertainEffects = append(x.res.UncertainEffects, res.UncertainEffects...)
	x.childTaint(res)
	if err := reraise(res); err != nil {
		return nil, err
	}
	if res.Failed() {
		re := &RunError{Kind: KindChild, Msg: "child skill " + name + " failed", Nested: res.Errors, Fatal: res.DeadlineExceeded}
		if len(res.Errors) > 0 {
			re.Msg += ": " + res.Errors[0].Message
		}
		if res.DeadlineExceeded {
			re.Kind = KindDeadline
			x.res.DeadlineExceeded = true
		}
		return nil, re
	}
	return childValue(res), nil
}

// childValue is what "-> R" receives: the result's JSON form (outputs,
// transcript, errors, ...) with the child's declared returns also at the
// top level (${R.X}).
func childValue(res *Result) any {
	data, err := json.Marshal(res)
	if err != nil {
		return nil
	}
	v, err := value.FromJSON(string(data))
	o, ok := v.(*value.Object)
	if err != nil || !ok {
		return nil
	}
	for k, val := range res.Vars() {
		if _, taken := o.Get(k); !taken {
			o.Set(k, val)
		}
	}
	o.SetText(res.Outputs.Text) // ${R} is the child's output (decision S4)
	return o
}

// preloadInlines resolves every inline(skill="...") with a literal name
// before the targets run, so the data skill's returns are bound wherever
// the host uses them (inline is compile-time inclusion).
func (x *run) preloadInlines() error {
	for _, op := range x.info.Ops {
		c, ok := op.Stmt.(*ast.CallStmt)
		if !ok || c.Name.Name != "inline" {
			continue
		}
		a := argOf(c.Args, "skill")
		if a == nil {
			continue
		}
		name, err := x.evalPlain(a.Value, x.root)
		if err != nil {
			continue // reported when the op runs
		}
		if err := x.inline(x.ctx, value.String(name)); err != nil && classify(err).Fatal {
			return x.locate(classify(err), c)
		}
	}
	return nil
}

// inline runs a # Type: data skill once and remembers its text; its
// declared returns are bound in the host unless the host binds them.
func (x *run) inline(ctx context.Context, name string) error {
	if _, done := x.inlined[name]; done {
		return nil
	}
	if x.depth+1 > x.r.maxDepth() {
		return errorf(KindRecursion, "inline %q: recursion depth limit %d exceeded", name, x.r.maxDepth())
	}
	rec, f, info, err := x.loadSkill(WithMechanical(ctx, x.mech), name)
	if err != nil {
		return err
	}
	if info.SkillType != "data" {
		return errorf(KindArgument, "inline(skill=%q): only # Type: data skills can be inlined; use execute_skill to run %q", name, name)
	}
	res := x.runChild(ctx, rec, f, info, nil, x.mech)
	x.childTaint(res)
	if err := reraise(res); err != nil {
		return err
	}
	if res.Failed() {
		return &RunError{Kind: KindChild, Msg: "data skill " + name + " failed", Nested: res.Errors}
	}
	for k, v := range res.Vars() {
		if _, bound := x.root.vars[k]; !bound {
			if err := x.bind(x.root, k, v, res.touched); err != nil {
				return err
			}
		}
	}
	x.inlined[name] = res.Outputs.Text
	if res.touched {
		if x.inlinedTaint == nil {
			x.inlinedTaint = map[string]bool{}
		}
		x.inlinedTaint[name] = true
	}
	return nil
}

// opInline emits the inlined data skill's text at the call site.
func (x *run) opInline(ctx context.Context, op *opCall) (any, error) {
	args, err := x.kwargs(op.args, x.opScope(op), false)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(str(args, "skill"))
	if err := x.inline(ctx, name); err != nil {
		return nil, err
	}
	if x.inlinedTaint[name] {
		x.taint()
	}
	if err := x.emit(op, x.inlined[name]); err != nil {
		return nil, err
	}
	return x.inlined[name], nil
}
