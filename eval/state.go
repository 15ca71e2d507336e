package eval

import (
	"context"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/filter"
	"github.com/skillscript/skillc/eval/value"
)

// run is the state of one skill execution. Children of execute_skill get
// their own run, linked to the parent through depth and the context.
type run struct {
	r      *Runner
	ctx    context.Context // carries the deadline and the caller identity
	cancel context.CancelFunc
	done   <-chan struct{} // ctx.Done(), for alive; set with ctx
	parent context.Context // the caller's context, to tell cancellation from the deadline
	f      *ast.File
	info   *check.Info
	res    *Result
	root   *scope

	depth    int
	identity string
	entry    string // the root skill of a composed run ("" for the root)
	mech     bool
	// draftChild marks a Draft skill reached by composition: effectGate
	// refuses its effects and its # Autonomous: is not honoured.
	draftChild bool
	start      time.Time
	deadline   time.Time // zero when the run has no deadline

	opTimeout time.Duration // # Timeout:
	targetOut map[string]any
	cur       *targetState
	lastBound any
	hasBound  bool
	emitted   bool
	secrets   secretBox
	substs    map[*ast.Subst]*substInfo
	constStr  map[*ast.StringLit]any // literal-only strings, boxed once (see eval)
	// textLoopNoted marks the foreach statements that already noted a
	// single pass over multi-line text (one notice per statement)
	textLoopNoted map[*ast.ForeachStmt]bool
	scratch       []byte            // renderText's buffer, used as a stack
	floats        value.Floats      // boxes the numbers of list literals
	strs          value.Strings     // boxes the texts renderValue builds
	inlined       map[string]string // data skills baked in by inline(), name → text
	dispatch      int
	loopLeft      int // iterations left in the innermost foreach (a sizing hint for $append)

	budget *budget // the composed run's op count and memory estimate
	lim    limits  // the runner's bounds
	held   int64   // bytes this run holds in the memory estimate

	// Taint (taint.go): flow is the taint of the statement being run, pc
	// that of the branch it runs in, touched whether the run has seen
	// tainted data at all; targetTaint is the taint of ${target.output}.
	flow, pc, touched bool
	targetTaint       map[string]bool
	inlinedTaint      map[string]bool // inlined data skills that saw tainted data
	unboundTaint      map[string]bool // names a branch not taken under taint would have bound
	lastTainted       bool
}

// targetState tracks the target being run.
type targetState struct {
	t         *ast.Target
	name      string
	emitStart int
	out       any
	hasOut    bool
	tainted   bool // out is tainted
}

// substInfo caches the path and filter chain of a substitution.
type substInfo struct {
	segs  []string
	chain []filter.Call
	ref   string // the reference as written, without ${ }
	// dyn are the chain positions whose argument holds substitutions,
	// rendered each time the substitution resolves.
	dyn []int
}

func (r *Runner) newRun(ctx context.Context, f *ast.File, info *check.Info, depth int, identity string, mech bool) *run {
	x := &run{
		r: r, parent: ctx, f: f, info: info, res: newResult(f), depth: depth,
		identity: identity, mech: mech, start: r.clock(),
		targetOut: map[string]any{}, substs: map[*ast.Subst]*substInfo{}, constStr: map[*ast.StringLit]any{},
		inlined: map[string]string{},
	}
	x.res.Mechanical = mech
	x.budget = &budget{}
	x.lim = r.limits()
	x.root = newScope(scopeSkill, nil)
	x.secrets = newSecretBox(info, r.Secrets)
	x.ctx, x.cancel = context.WithCancel(withIdentity(ctx, identity))
	x.done = x.ctx.Done()
	return x
}

// scopeKind says how a scope takes bindings.
type scopeKind int

const (
	scopeSkill scopeKind = iota // skill-level bindings
	scopeLoop                   // one foreach iteration; bindings die with it
	scopeElse                   // a target's else: handler; binds to its parent
)

// target returns the scope where a $set or -> binding made in s lands.
func (s *scope) target() *scope {
	sc := s
	for sc.kind == scopeElse && sc.parent != nil {
		sc = sc.parent
	}
	return sc
}

// bind binds name where a $set or -> binding made in sc lands, with its
// taint, after checking the value against the per-value cap and the run's
// memory budget.
func (x *run) bind(sc *scope, name string, v any, tainted bool) error {
	t := sc.target()
	n := sizeOf(v)
	if err := x.checkSize(name, n); err != nil {
		return err
	}
	var old int64
	recorded := false
	i := t.find(name)
	if i >= 0 {
		old, recorded = t.ents[i].sizeHeld()
	}
	if err := x.hold(n - old); err != nil {
		return err
	}
	if i >= 0 {
		e := &t.ents[i]
		e.v, e.list, e.lazy = v, nil, false
	} else {
		i = t.add(name, v)
	}
	t.held += n - old
	if tainted || recorded || n >= metaMinSize {
		t.ents[i].m, t.ents[i].rec = varMeta{size: n, tainted: tainted}, true
	}
	return nil
}

// execute runs the whole skill, recording any failure in the result.
func (x *run) execute(inputs map[string]any) {
	if err := x.debugStop(PointSkill, nil, nil, x.root); err != nil {
		x.fail(err)
		return
	}
	if err := x.prepare(inputs); err != nil {
		x.fail(err)
		return
	}
	if err := x.runTargets(); err != nil {
		x.fail(err)
		return
	}
	if err := x.produceOutput(); err != nil {
		x.fail(err)
	}
}

// prepare checks the skill can run and binds its inputs.
func (x *run) prepare(inputs map[string]any) error {
	if x.depth == 0 && x.r.Admit != nil {
		if err := x.r.Admit(x.ctx, x.f, x.info, x.mech); err != nil {
			if re := refusal(err); re != nil {
				re.Range = spanOf(err) // the root's own source: where it applies
				return re
			}
			return &RunError{Kind: KindInvalidSkill, Msg: err.Error(), Fatal: true, Err: err}
		}
	}
	if err := x.checkRunnable(); err != nil {
		return err
	}
	if err := x.bindInputs(inputs); err != nil {
		return err
	}
	if err := x.applyTimeHeaders(); err != nil {
		return err
	}
	return x.preloadInlines()
}

// fail records err as the run's failure.
func (x *run) fail(err error) {
	re := classify(err)
	if re.Kind == KindDeadline {
		x.res.DeadlineExceeded = true
	}
	x.flow = re.Tainted
	x.res.Status = statusFailed
	if re.Fatal && uncatchable(re.Kind) && x.res.stop == nil {
		x.res.stop = re
	}
	x.res.Errors = append(x.res.Errors, x.errorInfo(re))
	x.trace("error", re.Target, re.Op, x.line(re.Range), re.Msg)
	x.progress(Event{Kind: "error", Target: re.Target, Op: re.Op, Line: x.line(re.Range), Detail: re.Msg})
	if x.res.Outputs.Text == "" && len(x.res.Emissions) > 0 {
		x.res.Outputs.Text = strings.Join(x.res.Emissions, "\n")
		x.res.outFrom = outEmissions
	}
}

// finish exports the returns, redacts secrets and returns the result.
func (x *run) finish() *Result {
	for _, id := range x.info.Returns {
		if v, ok := x.root.get(id.Name); ok {
			if x.depth == 0 && x.root.metaOf(id.Name).tainted {
				v = TaintMarker
			}
			x.res.FinalVars.set(id.Name, v)
		}
	}
	x.res.touched = x.touched
	x.flow = false
	x.progress(Event{Kind: "done", Detail: x.res.Status})
	if x.r.Debug != nil {
		_ = x.debugStop(PointDone, nil, nil, x.root) // the run is over: nothing left to stop
	}
	if x.depth == 0 {
		// The output boundary: a child's result stays whole for its
		// caller (its taint travels with it); the root's is redacted,
		// tainted values whole, then known secret spellings.
		redactTaint(x.res)
		x.secrets.redactResult(x.res)
	}
	return x.res
}

func (x *run) errorInfo(re *RunError) ErrorInfo {
	return ErrorInfo{
		Kind: re.Kind, Message: re.Msg, Target: re.Target, Op: re.Op,
		Range: x.span(re.Range), Nested: re.Nested, tainted: re.Tainted,
	}
}

// span converts a byte range to human coordinates, or nil.
func (x *run) span(r ast.Range) *Span {
	if !r.IsValid() || x.f.Lines == nil {
		return nil
	}
	a, b := x.f.Lines.Position(r.From), x.f.Lines.Position(r.To)
	return &Span{Line: a.Line, Column: a.Column, EndLine: b.Line, EndColumn: b.Column}
}

func (x *run) line(r ast.Range) int {
	if !r.From.IsValid() || x.f.Lines == nil {
		return 0
	}
	return x.f.Lines.Position(r.From).Line
}

// trace appends a transcript entry.
func (x *run) trace(kind, target, op string, line int, text string) {
	x.res.Transcript = append(x.res.Transcript, TraceEntry{Kind: kind, Target: target, Op: op, Line: line, Text: redactTainted(x.secrets.Display(text), x.flow)})
}

func (x *run) notice(format string) {
	x.res.Notices = append(x.res.Notices, redactTainted(format, x.flow))
	x.trace("notice", "", "", 0, format)
}

// progress reports an event to the runner's Progress hook.
func (x *run) progress(ev Event) {
	if x.r.Progress == nil {
		return
	}
	ev.Skill, ev.Depth = x.res.Skill, x.depth
	ev.Detail = x.secrets.Redact(redactTainted(x.secrets.Display(ev.Detail), x.flow))
	x.r.Progress(ev)
}

// curTarget is the target being run, or nil.
func (x *run) curTarget() *ast.Target {
	if x.cur == nil {
		return nil
	}
	return x.cur.t
}

func (x *run) targetName() string {
	if x.cur == nil {
		return ""
	}
	return x.cur.name
}
