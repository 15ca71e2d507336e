package check

import (
	"slices"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/slab"
)

// Check computes the facts of f.
//
// It makes two passes over the statements: the first only counts them
// (statements, binding sites, scopes, skill-scope names), so that the ops,
// bindings and scopes, the Ops and Binds slices and the skill scope's map
// are each allocated once at their final size; the second records the
// facts. References are found by a direct walk of the expression kinds
// (no closure, no child slices) and resolved in place once every binding
// is known. Facts are filled field by field into zeroed memory, and lists
// grow in the builder's slabs, so that the whole result costs a few
// hundred allocations however large the file.
func Check(f *ast.File) *Info {
	var n counts
	n.file(f)
	info := &Info{
		File:      f,
		Ops:       make([]*Op, 0, n.stmts),
		Binds:     make([]*Binding, 0, n.binds),
		Refs:      make([]*Ref, 0, n.stmts),
		Targets:   make(map[string]*ast.Target, len(f.Targets)),
		Declared:  map[string]*ast.VarDecl{},
		Secrets:   map[string]*ast.Requirement{},
		SkillType: "procedural",
	}
	b := &builder{
		info:      info,
		opBuf:     make([]Op, 0, n.stmts),
		bindBuf:   make([]Binding, 0, n.binds),
		scopeBuf:  make([]Scope, 0, n.scopes+1),
		firstBind: make([]*Binding, 0, n.binds),
		firstName: make([]scopeName, 0, n.scopes),
	}
	info.Root = b.newScope(ScopeFile, nil, f, n.names)
	b.headers()
	// the targets that own their name, in source order, for the graph
	nodes := make([]*ast.Target, 0, len(f.Targets))
	for _, t := range f.Targets {
		if t.Name == nil {
			continue
		}
		if _, dup := info.Targets[t.Name.Name]; dup {
			info.Dups = append(info.Dups, t)
			continue
		}
		nodes = append(nodes, t)
		info.Targets[t.Name.Name] = t
	}
	for _, t := range f.Targets {
		b.target(t)
	}
	for _, r := range info.Refs {
		b.resolve(r)
	}
	info.Graph = buildGraph(f, nodes, info.Targets)
	return info
}

// counts are the sizes Check allocates for, from a first pass over the
// statements. The statement count is exact and the binding count an
// upper bound (a declaration that binds nothing is counted); names is an
// estimate of the skill scope's names, so that its map is not made twice
// too big. The builder copes with any count being low: the map grows, and
// the excess facts are allocated one by one.
type counts struct {
	stmts  int // statements at every depth (one Op each)
	binds  int // binding sites
	names  int // skill-scope names, estimated
	scopes int // loop and else: scopes
}

func (n *counts) file(f *ast.File) {
	for _, h := range f.Headers {
		switch h.Kind {
		case ast.HeaderVars:
			n.binds += len(h.Vars)
		case ast.HeaderRequires:
			n.binds += len(h.Reqs)
		}
	}
	n.names = n.binds
	for _, t := range f.Targets {
		n.names += n.block(t.Body, false)
		if t.Else != nil {
			n.scopes++
			n.block(t.Else.Body, false) // it mostly rebinds the body's names
		}
	}
}

// block counts blk and returns its estimate of new names outside loops:
// a $set or -> binding adds one; $append extends a name bound already;
// the branches of an if mostly bind the same names, so an if adds the most
// any one branch adds.
func (n *counts) block(blk *ast.Block, inLoop bool) (names int) {
	if blk == nil {
		return 0
	}
	for _, s := range blk.Stmts {
		n.stmts++
		binds, fresh := 0, 0
		switch s := s.(type) {
		case *ast.SetStmt:
			binds, fresh = 1, 1
		case *ast.AppendStmt:
			binds = 1
		case *ast.DispatchStmt:
			if s.Bind != nil {
				binds, fresh = 1, 1
			}
		case *ast.CallStmt:
			if s.Bind != nil {
				binds, fresh = 1, 1
			}
		case *ast.LegacyOpStmt:
			if s.Bind != nil {
				binds, fresh = 1, 1
			}
		case *ast.IfStmt:
			for _, cl := range s.Clauses {
				fresh = max(fresh, n.block(cl.Body, inLoop))
			}
			if s.Else != nil {
				fresh = max(fresh, n.block(s.Else.Body, inLoop))
			}
		case *ast.ForeachStmt:
			n.binds++
			n.scopes++
			n.block(s.Body, true)
		}
		n.binds += binds
		if !inLoop {
			names += fresh
		}
	}
	return names
}

type builder struct {
	info *Info

	// ops, bindings and scopes, carved from buffers sized by the counting
	// pass (when a count falls short, the excess is allocated one by one)
	opBuf    []Op
	bindBuf  []Binding
	scopeBuf []Scope
	// the first binding list of each name and the first name list of
	// each scope, carved likewise; lists that grow move to the slabs
	firstBind []*Binding
	firstName []scopeName

	refBuf slab.Slab[Ref] // references are not counted
	names  slab.Slices[*Binding]
	few    slab.Slices[scopeName]
	lists  slab.Slab[[]*Binding] // the lists of a scope's map
	loops  slab.Slices[*ast.ForeachStmt]

	// cow is a scope whose map holds lists shared with another Info (see
	// Lane): a name's list is copied before the first add to it, and
	// owned records the names copied
	cow   *Scope
	owned map[string]bool
}

// newScope returns a scope; size is the number of names expected in it.
func (b *builder) newScope(kind ScopeKind, parent *Scope, node ast.Node, size int) *Scope {
	var sc *Scope
	if len(b.scopeBuf) < cap(b.scopeBuf) {
		b.scopeBuf = b.scopeBuf[:len(b.scopeBuf)+1]
		sc = &b.scopeBuf[len(b.scopeBuf)-1]
	} else {
		sc = new(Scope)
	}
	sc.Kind, sc.Parent, sc.Node = kind, parent, node
	if size > maxFew {
		sc.many = make(map[string]*[]*Binding, size)
	}
	return sc
}

func (b *builder) bind(sc *Scope, kind BindKind, id *ast.Ident, node ast.Node, val ast.Expr, t *ast.Target) {
	if id == nil {
		return
	}
	var bd *Binding
	if len(b.bindBuf) < cap(b.bindBuf) {
		b.bindBuf = b.bindBuf[:len(b.bindBuf)+1]
		bd = &b.bindBuf[len(b.bindBuf)-1]
	} else {
		bd = new(Binding)
	}
	bd.Name, bd.Kind, bd.Ident, bd.Node, bd.Value, bd.Target, bd.Scope = id.Name, kind, id, node, val, t, sc
	b.add(sc, id.Name, bd)
	b.info.Binds = append(b.info.Binds, bd)
}

// add appends bds to the bindings of name in sc. The lists grow in the
// builder's slabs (see appendBinds), not one allocation each.
func (b *builder) add(sc *Scope, name string, bds ...*Binding) {
	if sc.many != nil {
		bs := sc.many[name]
		if bs != nil && sc == b.cow && !b.owned[name] {
			nb := b.lists.New()
			*nb = slices.Clip(*bs)
			bs = nb
			sc.many[name] = bs
			b.owned[name] = true
		}
		if bs == nil {
			bs = b.lists.New()
			sc.many[name] = bs
		}
		*bs = b.appendBinds(*bs, bds)
		return
	}
	for i := range sc.few {
		if sc.few[i].name == name {
			sc.few[i].binds = b.appendBinds(sc.few[i].binds, bds)
			return
		}
	}
	if len(sc.few) == maxFew {
		sc.many = make(map[string]*[]*Binding, 2*maxFew)
		for i := range sc.few {
			sc.many[sc.few[i].name] = &sc.few[i].binds
		}
		sc.few = nil
		b.add(sc, name, bds...)
		return
	}
	if len(sc.few) == cap(sc.few) {
		if few, ok := b.firstNames(len(sc.few)); ok {
			sc.few = few
		} else {
			few := b.few.Make(len(sc.few), max(1, 2*len(sc.few)))
			copy(few, sc.few)
			sc.few = few
		}
	}
	sc.few = append(sc.few, scopeName{name: name, binds: b.appendBinds(nil, bds)})
}

// appendBinds appends bds to bs, moving bs to a slab slice of twice the
// size when it is full. Slab slices have their exact capacity, so an
// append never writes into a neighbour.
func (b *builder) appendBinds(bs, bds []*Binding) []*Binding {
	if n := len(bs) + len(bds); n > cap(bs) {
		if first, ok := b.firstBinds(len(bs), n); ok {
			bs = first
		} else {
			grown := b.names.Make(len(bs), max(n, 2*len(bs)))
			copy(grown, bs)
			bs = grown
		}
	}
	return append(bs, bds...)
}

// firstBinds returns an empty list of capacity n for a name's first
// bindings (have is the current length: only an empty list is replaced).
func (b *builder) firstBinds(have, n int) ([]*Binding, bool) {
	if have > 0 {
		return nil, false
	}
	s, ok := carve(&b.firstBind, n)
	return s[:0], ok
}

// firstNames returns an empty name list of capacity 1 for a scope's first
// name (have is the current length: only an empty list is replaced).
func (b *builder) firstNames(have int) ([]scopeName, bool) {
	if have > 0 {
		return nil, false
	}
	s, ok := carve(&b.firstName, 1)
	return s[:0], ok
}

// carve takes n elements of buf's spare capacity as a slice of length and
// capacity n (so that an append to it never writes into a neighbour); ok
// is false when buf has less than n left.
func carve[T any](buf *[]T, n int) (s []T, ok bool) {
	from := len(*buf)
	if cap(*buf)-from < n {
		return nil, false
	}
	*buf = (*buf)[:from+n]
	return (*buf)[from : from+n : from+n], true
}

// refs records every substitution under n, in source order (the order of
// ast.Inspect: a substitution before the substitutions in its filter
// arguments). A fallback value met outside a fallback context is recorded
// as InFallback.
func (b *builder) refs(n ast.Node, ctx RefContext, sc *Scope, t *ast.Target, op *Op) {
	switch n := n.(type) {
	case nil:
	case *ast.Subst:
		b.subst(n, ctx, sc, t, op)
	case *ast.StringLit:
		if n != nil {
			b.text(n.Value, ctx, sc, t, op)
		}
	case *ast.BareWord:
		if n != nil {
			b.text(n.Value, ctx, sc, t, op)
		}
	case *ast.Text:
		b.text(n, ctx, sc, t, op)
	case *ast.Ident, *ast.NumberLit, *ast.BoolLit, *ast.NullLit, *ast.SecretRef, *ast.Lit:
	case *ast.ListLit:
		if n != nil {
			for _, e := range n.Elems {
				b.refs(e, ctx, sc, t, op)
			}
		}
	case *ast.ObjectLit:
		if n != nil {
			for _, e := range n.Entries {
				if e != nil {
					b.refs(e.Key, ctx, sc, t, op)
					b.refs(e.Value, ctx, sc, t, op)
				}
			}
		}
	case *ast.CompareCond:
		if n != nil {
			b.refs(n.X, ctx, sc, t, op)
			b.refs(n.Y, ctx, sc, t, op)
		}
	case *ast.TruthyCond:
		if n != nil {
			b.refs(n.X, ctx, sc, t, op)
		}
	case *ast.NotCond:
		if n != nil {
			b.refs(n.X, ctx, sc, t, op)
		}
	case *ast.LogicalCond:
		if n != nil {
			b.refs(n.X, ctx, sc, t, op)
			b.refs(n.Y, ctx, sc, t, op)
		}
	case *ast.ParenCond:
		if n != nil {
			b.refs(n.X, ctx, sc, t, op)
		}
	case *ast.Template:
		if n != nil {
			for _, l := range n.Lines {
				if l != nil {
					b.text(l.Text, ctx, sc, t, op)
				}
			}
		}
	case *ast.Fallback:
		if n == nil {
			return
		}
		b.refs(n.Value, InFallback, sc, t, op)
	default:
		b.refsAny(n, ctx, sc, t, op)
	}
}

// subst records a substitution, then those in its filter arguments.
func (b *builder) subst(n *ast.Subst, ctx RefContext, sc *Scope, t *ast.Target, op *Op) {
	if n == nil {
		return
	}
	r := b.refBuf.New()
	// field by field: the memory is zeroed, and single pointer stores are
	// cheaper than a struct copy's bulk write barrier while the collector
	// runs (likewise for ops and bindings)
	r.Subst, r.Scope, r.Target, r.Op, r.Context = n, sc, t, op, ctx
	b.info.Refs = append(b.info.Refs, r)
	for _, f := range n.Filters {
		if f != nil && f.Arg != nil && f.Arg.Text != nil {
			b.text(f.Arg.Text, ctx, sc, t, op)
		}
	}
}

// text records the substitutions of a text.
func (b *builder) text(x *ast.Text, ctx RefContext, sc *Scope, t *ast.Target, op *Op) {
	if x == nil {
		return
	}
	for _, p := range x.Parts {
		if s, ok := p.(*ast.Subst); ok {
			b.subst(s, ctx, sc, t, op)
		}
	}
}

// refsAny is refs for the node kinds refs does not list (none of the
// expression, condition or text kinds): a generic walk, so that a node kind
// added to package ast is still searched for substitutions.
func (b *builder) refsAny(n ast.Node, ctx RefContext, sc *Scope, t *ast.Target, op *Op) {
	ast.Inspect(n, func(c ast.Node) bool {
		switch c := c.(type) {
		case *ast.Subst, *ast.Fallback:
			b.refs(c, ctx, sc, t, op)
			return false
		}
		return true
	})
}
func (b *builder) headers() {
	info, f := b.info, b.info.File
	for _, h := range f.Headers {
		switch h.Kind {
		case ast.HeaderVars:
			for _, v := range h.Vars {
				if v.Name != nil && !strings.ContainsAny(v.Name.Name, " \t") {
					info.Declared[v.Name.Name] = v
					b.bind(info.Root, BindVar, v.Name, v, v.Default, nil)
					b.refs(v.Default, InHeader, info.Root, nil, nil)
				}
			}
		case ast.HeaderRequires:
			for _, r := range h.Reqs {
				switch {
				case r.Kind == ast.ReqSecret && r.Key != nil:
					info.Secrets[r.Key.Name] = r
				case r.Bind != nil && r.Bind.Name != nil:
					var val ast.Expr
					if r.Fallback != nil {
						val = r.Fallback.Value
					}
					b.bind(info.Root, BindRequires, r.Bind.Name, r, val, nil)
				}
			}
		case ast.HeaderReturns:
			info.Returns = append(info.Returns, h.Names...)
		case ast.HeaderStatus:
			if h.Status != nil {
				info.Status = h.Status.State
			}
		case ast.HeaderAutonomous:
			if h.Bool != nil {
				info.Autonomous = h.Bool.Value
			}
		case ast.HeaderType:
			if len(h.Names) == 1 {
				info.SkillType = h.Names[0].Name
			}
		case ast.HeaderOutput:
			for _, o := range h.Outputs {
				b.refs(o.Target, InOutput, info.Root, nil, nil)
			}
		case ast.HeaderTimeout, ast.HeaderDeadline:
			b.refs(h.Duration, InHeader, info.Root, nil, nil)
		}
	}
	for _, t := range f.Templates {
		b.refs(t, InTemplate, info.Root, nil, nil)
	}
}

func (b *builder) target(t *ast.Target) {
	b.block(t.Body, b.info.Root, t, nil, false, 0)
	if t.Else != nil {
		sc := b.newScope(ScopeElse, b.info.Root, t.Else, 0)
		b.block(t.Else.Body, sc, t, nil, true, 0)
		// bindings made by a recovering else: handler are skill-level
		for _, n := range sc.few {
			b.add(b.info.Root, n.name, n.binds...)
		}
		for name, bs := range sc.many {
			b.add(b.info.Root, name, *bs...)
		}
	}
}

func (b *builder) block(blk *ast.Block, sc *Scope, t *ast.Target, loops []*ast.ForeachStmt, inElse bool, conds int32) {
	if blk == nil {
		return
	}
	for _, s := range blk.Stmts {
		b.stmt(s, sc, t, loops, inElse, conds)
	}
}

func (b *builder) stmt(s ast.Stmt, sc *Scope, t *ast.Target, loops []*ast.ForeachStmt, inElse bool, conds int32) {
	var op *Op
	if len(b.opBuf) < cap(b.opBuf) {
		b.opBuf = b.opBuf[:len(b.opBuf)+1]
		op = &b.opBuf[len(b.opBuf)-1]
	} else {
		op = new(Op)
	}
	op.Stmt, op.Target, op.Scope, op.Loops, op.InElse, op.Conds = s, t, sc, loops, inElse, conds
	b.info.Ops = append(b.info.Ops, op)
	switch s := s.(type) {
	case *ast.SetStmt:
		b.refs(s.Value, InOp, sc, t, op)
		b.bind(sc, BindSet, s.Name, s, s.Value, t)
	case *ast.AppendStmt:
		b.refs(s.Value, InOp, sc, t, op)
		b.bindAppend(s, sc, t)
	case *ast.DispatchStmt:
		for _, a := range s.Args {
			b.refs(a.Value, InOp, sc, t, op)
		}
		for _, v := range s.Positional {
			b.refs(v, InOp, sc, t, op)
		}
		b.opTrailers(s.Bind, s.Fallback, s, sc, t, op)
	case *ast.CallStmt:
		for _, a := range s.Args {
			b.refs(a.Value, InOp, sc, t, op)
		}
		for _, v := range s.Positional {
			b.refs(v, InOp, sc, t, op)
		}
		b.opTrailers(s.Bind, s.Fallback, s, sc, t, op)
	case *ast.LegacyOpStmt:
		if s.Bind != nil {
			b.bind(sc, BindOp, s.Bind.Name, s, nil, t)
		}
	case *ast.IfStmt:
		for _, cl := range s.Clauses {
			b.refs(cl.Cond, InCond, sc, t, op)
			b.block(cl.Body, sc, t, loops, inElse, conds+1)
		}
		if s.Else != nil {
			b.block(s.Else.Body, sc, t, loops, inElse, conds+1)
		}
	case *ast.ForeachStmt:
		b.refs(s.List, InOp, sc, t, op)
		inner := b.newScope(ScopeLoop, sc, s, 1)
		b.bind(inner, BindIter, s.Iter, s, nil, t)
		nl := b.loops.Make(len(loops)+1, len(loops)+1)
		nl[copy(nl, loops)] = s
		b.block(s.Body, inner, t, nl, inElse, conds)
	}
}

func (b *builder) opTrailers(bind *ast.Binding, fb *ast.Fallback, s ast.Stmt, sc *Scope, t *ast.Target, op *Op) {
	if fb != nil {
		b.refs(fb.Value, InFallback, sc, t, op)
	}
	if bind != nil {
		b.bind(sc, BindOp, bind.Name, s, nil, t)
	}
}

// bindAppend records $append as a binding in the scope that owns the
// accumulator (the nearest enclosing scope that binds it), so that it
// mutates the outer binding as the language specifies.
func (b *builder) bindAppend(s *ast.AppendStmt, sc *Scope, t *ast.Target) {
	if s.Name == nil {
		return
	}
	owner := sc
	for o := sc; o != nil; o = o.Parent {
		if len(o.Local(s.Name.Name)) > 0 {
			owner = o
			break
		}
	}
	b.bind(owner, BindAppend, s.Name, s, s.Value, t)
}

// resolve resolves a reference; Check calls it once all bindings are known
// (bindings are skill-global regardless of source order, except inside loops).
func (b *builder) resolve(r *Ref) {
	for _, f := range r.Subst.Filters {
		if f.Name != nil && f.Name.Name == "fallback" {
			r.HasFallback = true
		}
	}
	name := r.Name()
	if name == "" {
		return
	}
	if r.Bindings = r.Scope.Lookup(name); len(r.Bindings) > 0 {
		return
	}
	if IsAmbient(name) || name == "ERROR_CONTEXT" && r.Scope.InElse() {
		r.Ambient = true
		return
	}
	if t, ok := b.info.Targets[name]; ok && len(r.Subst.Path) > 0 && r.Subst.Path[0].Name == "output" {
		r.TargetOf = t
	}
}
