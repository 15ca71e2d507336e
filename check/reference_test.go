package check

// The straightforward fact refBuilder that check.Check replaced (issue 17,
// third round), kept as the reference computation that TestCheckMatchesReference
// compares the optimised refBuilder against.

import (
	"strings"

	"github.com/skillscript/skillc/ast"
)

// refFacts are the facts the reference keeps beside its Info: each
// scope's bindings by name, and the op of each statement.
type refFacts struct {
	scopes map[*Scope]map[string][]*Binding
	opOf   map[ast.Stmt]*Op
}

// refCheck computes the facts of f the plain way.
func refCheck(f *ast.File) (*Info, *refFacts) {
	info := &Info{
		File:      f,
		Targets:   map[string]*ast.Target{},
		Declared:  map[string]*ast.VarDecl{},
		Secrets:   map[string]*ast.Requirement{},
		SkillType: "procedural",
	}
	b := &refBuilder{info: info, refFacts: refFacts{scopes: map[*Scope]map[string][]*Binding{}, opOf: map[ast.Stmt]*Op{}}}
	info.Root = b.scope(ScopeFile, nil, f)
	b.headers()
	for _, t := range f.Targets {
		if t.Name == nil {
			continue
		}
		if _, dup := info.Targets[t.Name.Name]; dup {
			info.Dups = append(info.Dups, t)
			continue
		}
		info.Targets[t.Name.Name] = t
	}
	for _, t := range f.Targets {
		b.target(t)
	}
	b.resolveAll()
	info.Graph = refBuildGraph(f, info.Targets)
	return info, &b.refFacts
}

func (b *refBuilder) scope(kind ScopeKind, parent *Scope, node ast.Node) *Scope {
	sc := &Scope{Kind: kind, Parent: parent, Node: node}
	b.scopes[sc] = map[string][]*Binding{}
	return sc
}

func (b *refBuilder) lookup(s *Scope, name string) []*Binding {
	for sc := s; sc != nil; sc = sc.Parent {
		if bs := b.scopes[sc][name]; len(bs) > 0 {
			return bs
		}
	}
	return nil
}

type refBuilder struct {
	info    *Info
	pending []*Ref
	refFacts
}

func (b *refBuilder) bind(sc *Scope, kind BindKind, id *ast.Ident, node ast.Node, val ast.Expr, t *ast.Target) {
	if id == nil {
		return
	}
	bd := new(Binding)
	*bd = Binding{Name: id.Name, Kind: kind, Ident: id, Node: node, Value: val, Target: t, Scope: sc}
	b.scopes[sc][id.Name] = append(b.scopes[sc][id.Name], bd)
	b.info.Binds = append(b.info.Binds, bd)
}

// refs records every substitution under n.
func (b *refBuilder) refs(n ast.Node, ctx RefContext, sc *Scope, t *ast.Target, op *Op) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(c ast.Node) bool {
		if s, ok := c.(*ast.Subst); ok {
			r := new(Ref)
			*r = Ref{Subst: s, Context: ctx, Scope: sc, Target: t, Op: op}
			b.pending = append(b.pending, r)
			return true // a filter argument may hold substitutions too
		}
		if fb, ok := c.(*ast.Fallback); ok && ctx != InFallback {
			b.refs(fb.Value, InFallback, sc, t, op)
			return false
		}
		return true
	})
}

func (b *refBuilder) headers() {
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

func (b *refBuilder) target(t *ast.Target) {
	b.block(t.Body, b.info.Root, t, nil, false, 0)
	if t.Else != nil {
		sc := b.scope(ScopeElse, b.info.Root, t.Else)
		b.block(t.Else.Body, sc, t, nil, true, 0)
		// bindings made by a recovering else: handler are skill-level
		for name, bs := range b.scopes[sc] {
			b.scopes[b.info.Root][name] = append(b.scopes[b.info.Root][name], bs...)
		}
	}
}

func (b *refBuilder) block(blk *ast.Block, sc *Scope, t *ast.Target, loops []*ast.ForeachStmt, inElse bool, conds int32) {
	if blk == nil {
		return
	}
	for _, s := range blk.Stmts {
		b.stmt(s, sc, t, loops, inElse, conds)
	}
}

func (b *refBuilder) stmt(s ast.Stmt, sc *Scope, t *ast.Target, loops []*ast.ForeachStmt, inElse bool, conds int32) {
	op := new(Op)
	*op = Op{Stmt: s, Target: t, Scope: sc, Loops: loops, InElse: inElse, Conds: conds}
	b.info.Ops = append(b.info.Ops, op)
	b.opOf[s] = op
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
		inner := b.scope(ScopeLoop, sc, s)
		b.bind(inner, BindIter, s.Iter, s, nil, t)
		nl := append(append([]*ast.ForeachStmt(nil), loops...), s)
		b.block(s.Body, inner, t, nl, inElse, conds)
	}
}

func (b *refBuilder) opTrailers(bind *ast.Binding, fb *ast.Fallback, s ast.Stmt, sc *Scope, t *ast.Target, op *Op) {
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
func (b *refBuilder) bindAppend(s *ast.AppendStmt, sc *Scope, t *ast.Target) {
	if s.Name == nil {
		return
	}
	owner := sc
	for o := sc; o != nil; o = o.Parent {
		if len(b.scopes[o][s.Name.Name]) > 0 {
			owner = o
			break
		}
	}
	b.bind(owner, BindAppend, s.Name, s, s.Value, t)
}

// resolveAll resolves every recorded reference once all bindings are known
// (bindings are skill-global regardless of source order, except inside loops).
func (b *refBuilder) resolveAll() {
	for _, r := range b.pending {
		b.resolve(r)
		b.info.Refs = append(b.info.Refs, r)
	}
	b.pending = nil
}

func (b *refBuilder) resolve(r *Ref) {
	for _, f := range r.Subst.Filters {
		if f.Name != nil && f.Name.Name == "fallback" {
			r.HasFallback = true
		}
	}
	name := r.Name()
	if name == "" {
		return
	}
	if r.Bindings = b.lookup(r.Scope, name); len(r.Bindings) > 0 {
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
func refBuildGraph(f *ast.File, targets map[string]*ast.Target) Graph {
	g := Graph{Deps: map[*ast.Target][]*ast.Target{}, Reachable: map[*ast.Target]bool{}}
	for _, t := range f.Targets {
		if targets[refNameOf(t)] != t {
			continue
		}
		for _, n := range t.Needs {
			if d, ok := targets[n.Name]; ok {
				g.Deps[t] = append(g.Deps[t], d)
			} else {
				g.Missing = append(g.Missing, Missing{From: t, Name: n})
			}
		}
	}
	if len(f.Defaults) > 0 {
		g.GoalDecl = f.Defaults[0]
		if d := f.Defaults[0]; d.Goal != nil {
			g.Goal = targets[d.Goal.Name]
		}
	}
	g.Cycles = refFindCycles(f, targets, g.Deps)
	if g.Goal != nil {
		refWalk(&g, g.Goal, map[*ast.Target]int{})
	}
	return g
}

func refNameOf(t *ast.Target) string {
	if t.Name == nil {
		return ""
	}
	return t.Name.Name
}

// refWalk does a post-order DFS from t, recording reachability and the run
// order; cycle edges are skipped (they are reported separately).
func refWalk(g *Graph, t *ast.Target, state map[*ast.Target]int) {
	if state[t] != 0 {
		return
	}
	state[t] = 1
	g.Reachable[t] = true
	for _, d := range g.Deps[t] {
		if state[d] == 1 {
			continue
		}
		refWalk(g, d, state)
	}
	state[t] = 2
	g.Order = append(g.Order, t)
}

// refFindCycles returns each elementary cycle found by DFS, once.
func refFindCycles(f *ast.File, targets map[string]*ast.Target, deps map[*ast.Target][]*ast.Target) [][]*ast.Target {
	state := map[*ast.Target]int{}
	var stack []*ast.Target
	var cycles [][]*ast.Target
	var visit func(t *ast.Target)
	visit = func(t *ast.Target) {
		state[t] = 1
		stack = append(stack, t)
		for _, d := range deps[t] {
			switch state[d] {
			case 0:
				visit(d)
			case 1:
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i] == d {
						cycles = append(cycles, append([]*ast.Target(nil), stack[i:]...))
						break
					}
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[t] = 2
	}
	for _, t := range f.Targets {
		if targets[refNameOf(t)] == t && state[t] == 0 {
			visit(t)
		}
	}
	return cycles
}
