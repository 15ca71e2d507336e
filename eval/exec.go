package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/value"
)

// runTargets runs the targets in dependency order, walked back from the
// goal. A failure that no else: recovers stops the run.
func (x *run) runTargets() error {
	for _, t := range x.info.Graph.Order {
		if err := x.runTarget(t); err != nil {
			return err
		}
	}
	return nil
}

func (x *run) runTarget(t *ast.Target) error {
	name := t.Name.Name
	x.cur = &targetState{name: name, emitStart: len(x.res.Emissions), t: t}
	x.res.TargetOrder = append(x.res.TargetOrder, name)
	x.trace("target", name, "", x.line(t.Range), name)
	x.progress(Event{Kind: "target", Target: name, Line: x.line(t.Range)})
	err := x.debugStop(PointTarget, t, nil, x.root)
	if err == nil {
		err = x.execBlock(t.Body, x.root)
	}
	if err != nil {
		if err = x.recover(t, err); err != nil {
			return err
		}
	}
	out, tainted := x.targetOutput()
	x.targetOut[name] = out
	if tainted {
		if x.targetTaint == nil {
			x.targetTaint = map[string]bool{}
		}
		x.targetTaint[name] = true
	}
	x.cur = nil
	return nil
}

// recover runs t's else: handler for a containable failure.
func (x *run) recover(t *ast.Target, err error) error {
	re := x.locate(classify(err), nil)
	if re.Fatal || t.Else == nil {
		return re
	}
	name := t.Name.Name
	x.res.ElseExecuted = append(x.res.ElseExecuted, name)
	x.flow = re.Tainted
	x.trace("else", name, re.Op, x.line(re.Range), re.Kind+": "+re.Msg)
	x.progress(Event{Kind: "else", Target: name, Line: x.line(t.Else.Range), Detail: re.Msg})
	sc := newScope(scopeElse, x.root)
	ec := value.NewObject(3)
	ec.Set("kind", re.Kind)
	// The message as raised, never rewritten by redaction: a rewritten
	// message would tell the skill which text equals a secret. A failure
	// of tainted data taints ${ERROR_CONTEXT} and the handler.
	ec.Set("message", re.Msg)
	ec.Set("target", name)
	sc.set("ERROR_CONTEXT", ec)
	sc.setMeta("ERROR_CONTEXT", varMeta{tainted: re.Tainted})
	return x.underTaint(re.Tainted, func() error { return x.execBlock(t.Else.Body, sc) })
}

// targetOutput is ${target.output}: the last "-> VAR" value bound in the
// target, or else its emissions joined; and its taint.
func (x *run) targetOutput() (any, bool) {
	if x.cur.hasOut {
		return x.cur.out, x.cur.tainted
	}
	return strings.Join(x.res.Emissions[x.cur.emitStart:], "\n"), slices.Contains(x.res.emitTaint[x.cur.emitStart:], true)
}

func (x *run) execBlock(b *ast.Block, sc *scope) error {
	if b == nil {
		return nil
	}
	for _, s := range b.Stmts {
		if err := x.execStmt(s, sc); err != nil {
			return x.locate(classify(err), s)
		}
	}
	return nil
}

// locate fills in where a failure happened, if not known yet.
func (x *run) locate(re *RunError, s ast.Stmt) *RunError {
	if re.Target == "" {
		re.Target = x.targetName()
	}
	if s != nil && re.Op == "" {
		re.Op = opName(s)
	}
	if s != nil && !re.Range.IsValid() {
		re.Range = s.Span()
	}
	return re
}

// execStmt runs one statement. Its taint starts as the branch's (see
// taint.go); a failure it raises after reading tainted data is tainted.
func (x *run) execStmt(s ast.Stmt, sc *scope) error {
	if err := x.alive(nil); err != nil {
		return err
	}
	if err := x.step(); err != nil {
		return err
	}
	if x.r.Debug != nil {
		if err := x.debugStop(PointStmt, x.curTarget(), s, sc); err != nil {
			return err
		}
	}
	saved := x.flowFrom()
	var err error
	switch s := s.(type) { // the common statements without a call to dispatchStmt
	case *ast.SetStmt:
		err = x.execSet(s, sc)
	case *ast.AppendStmt:
		err = x.execAppend(s, sc)
	case *ast.IfStmt:
		err = x.execIf(s, sc)
	default:
		err = x.dispatchStmt(s, sc)
	}
	if err != nil && x.flow {
		re := classify(err)
		re.Tainted = true
		err = re
	}
	x.flow = saved
	return err
}

func (x *run) dispatchStmt(s ast.Stmt, sc *scope) error {
	switch s := s.(type) {
	case *ast.SetStmt:
		return x.execSet(s, sc)
	case *ast.AppendStmt:
		return x.execAppend(s, sc)
	case *ast.IfStmt:
		return x.execIf(s, sc)
	case *ast.ForeachStmt:
		return x.execForeach(s, sc)
	case *ast.CallStmt:
		return x.execCall(s, sc)
	case *ast.DispatchStmt:
		return x.execDispatch(s, sc)
	case *ast.NeedsStmt:
		return nil
	case *ast.LegacyOpStmt:
		return fatalf(KindUnsupportedOp, "the retired %q op cannot run; rewrite it with the current op grammar", s.Op)
	case *ast.BadStmt:
		return fatalf(KindInvalidSkill, "cannot run a statement that did not parse: %s", strings.TrimSpace(s.Text))
	}
	return fatalf(KindUnsupportedOp, "unsupported statement")
}

func (x *run) execSet(s *ast.SetStmt, sc *scope) error {
	v, err := x.evalPlain(s.Value, sc)
	if err != nil {
		return err
	}
	if _, isRef := s.Value.(*ast.Subst); isRef {
		v = value.Clone(v) // a copy keeps structure without aliasing
	}
	return x.bind(sc, s.Name.Name, v, x.flow)
}

func (x *run) execAppend(s *ast.AppendStmt, sc *scope) error {
	v, err := x.evalPlain(s.Value, sc)
	if err != nil {
		return err
	}
	name := s.Name.Name
	owner, e := sc.entry(name)
	if e == nil {
		return errorf(KindUnresolved, "$append %s: %s is not initialized (use $set %s = [] or \"\" first)", name, name, name)
	}
	var m varMeta
	m.size, _ = e.sizeHeld()
	recorded := e.rec
	if x.flow || x.tainted(name, owner) {
		m.tainted = true
	}
	var add int64
	cur := e.list
	if !e.lazy {
		cur = nil
		switch c := e.v.(type) {
		case []any:
			cur = c
		case string:
			s := value.String(v)
			add = int64(len(s))
			if err := x.checkSize(name, m.size+add); err != nil {
				return err
			}
			if err := x.hold(add); err != nil {
				return err
			}
			e.v = c + s
			return x.appended(owner, e, m, add, recorded)
		default:
			return &RunError{Kind: KindTypeMismatch, Msg: "$append " + name + ": expected a list or string, got " + value.TypeName(c)}
		}
	}
	elem := v
	switch v.(type) {
	case []any, *value.Object:
		elem = value.Clone(v) // what value.Clone copies; other values are kept
	}
	add = 16 + sizeOf(elem)
	if err := x.checkSize(name, m.size+add); err != nil {
		return err
	}
	if err := x.hold(add); err != nil {
		return err
	}
	if len(cur) == cap(cur) && len(cur) >= 64 {
		// Grow by doubling at least (append grows large slices by a
		// quarter), and inside a foreach by room for one element per
		// iteration still to run: a list built by $append in a loop is
		// then copied O(1) times per element, usually once.
		n := max(2*len(cur), len(cur)+x.loopLeft)
		cur = append(make([]any, 0, n), cur...)
	}
	e.setList(append(cur, elem))
	return x.appended(owner, e, m, add, recorded)
}

// appended records what $append added to binding e of owner.
func (x *run) appended(owner *scope, e *binding, m varMeta, add int64, recorded bool) error {
	owner.held += add
	m.size += add
	if m.tainted || recorded || m.size >= metaMinSize {
		e.m, e.rec = m, true
	}
	return nil
}

func (x *run) execIf(s *ast.IfStmt, sc *scope) error {
	for _, cl := range s.Clauses {
		ok, err := x.cond(cl.Cond, sc)
		if err != nil {
			return x.locate(classify(err), s)
		}
		if ok {
			if x.flow {
				x.taintBranches(s, sc)
				return x.underTaint(true, func() error { return x.execBlock(cl.Body, sc) })
			}
			return x.execBlock(cl.Body, sc)
		}
	}
	if x.flow {
		x.taintBranches(s, sc)
	}
	if s.Else == nil {
		return nil
	}
	if x.flow {
		return x.underTaint(true, func() error { return x.execBlock(s.Else.Body, sc) })
	}
	return x.execBlock(s.Else.Body, sc)
}

func (x *run) execForeach(s *ast.ForeachStmt, sc *scope) error {
	v, err := x.evalPlain(s.List, sc)
	if err != nil {
		return err
	}
	items, err := iterable(v)
	if err != nil {
		return err
	}
	if t, ok := v.(string); ok && len(items) == 1 && strings.Contains(strings.TrimSpace(t), "\n") && !x.textLoopNoted[s] {
		// one pass over several lines of text: almost never what the
		// author meant (the lint rule foreach-over-text sees literals)
		if x.textLoopNoted == nil {
			x.textLoopNoted = map[*ast.ForeachStmt]bool{}
		}
		x.textLoopNoted[s] = true
		x.notice(fmt.Sprintf("line %d: foreach %s ran once over %d lines of text: it loops over a list or a JSON array; make the value a list to loop per line",
			x.line(s.Range), s.Iter.Name, strings.Count(strings.TrimSpace(t), "\n")+1))
	}
	iter := s.Iter.Name
	listTainted := x.flow
	x.taintBranches(s.Body, sc)
	// One loop scope serves every iteration: emptied at the start of each,
	// it holds exactly what a fresh scope would (the loop variable, then
	// what the body binds), without a new scope and map per item.
	inner := newScope(scopeLoop, sc)
	outerLeft := x.loopLeft
	defer func() {
		x.loopLeft = outerLeft
		clear(inner.ents[:cap(inner.ents)]) // the last iteration's values, for the collector
	}()
	return x.underTaint(listTainted, func() error {
		for i, it := range items {
			x.loopLeft = len(items) - i
			if err := x.step(); err != nil {
				return err
			}
			inner.reset()
			inner.bindFirst(iter, it) // part of the list, already counted
			if listTainted {
				inner.setMeta(iter, varMeta{tainted: true})
			}
			err := x.execBlock(s.Body, inner)
			x.budget.mem -= inner.held // the iteration's bindings die with it
			x.held -= inner.held
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// iterable returns the elements foreach walks (see the package doc).
func iterable(v any) ([]any, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return t, nil
	case string:
		if strings.TrimSpace(t) == "" {
			return nil, nil
		}
		if list, ok := value.AsList(t); ok {
			return list, nil
		}
		return []any{t}, nil
	case *value.Object:
		if items, ok := t.Get("items"); ok {
			if list, ok := items.([]any); ok {
				return list, nil
			}
		}
	}
	return nil, &value.TypeMismatchError{Op: "foreach", Want: "a list or a JSON array string", Got: value.TypeName(v), Value: value.Preview(v, 40)}
}

// opName names a statement for errors and the transcript.
func opName(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.SetStmt:
		return "$set"
	case *ast.AppendStmt:
		return "$append"
	case *ast.IfStmt:
		return "if"
	case *ast.ForeachStmt:
		return "foreach"
	case *ast.CallStmt:
		return s.Name.Name
	case *ast.DispatchStmt:
		if s.Connector != nil {
			return "$ " + s.Connector.Name + "." + s.Tool.Name
		}
		if s.Tool != nil {
			return "$ " + s.Tool.Name
		}
		return "$"
	case *ast.LegacyOpStmt:
		return s.Op
	}
	return ""
}
