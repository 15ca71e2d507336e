package ast

import "iter"

// Visitor's Visit is called for each node by [Walk]. If it returns a non-nil
// visitor w, Walk visits the node's children with w, then calls w.Visit(nil).
type Visitor interface {
	Visit(n Node) (w Visitor)
}

// Walk traverses the tree rooted at n in depth-first, source order.
func Walk(v Visitor, n Node) {
	if isNil(n) {
		return
	}
	if v = v.Visit(n); v == nil {
		return
	}
	eachChild(n, func(c Node) bool {
		Walk(v, c)
		return true
	})
	v.Visit(nil)
}

// Inspect calls f for each node in depth-first order; when f returns false,
// the node's children are skipped. f(nil) is called after a node's children.
// It is Walk with f as the visitor, written out so that f does not escape
// (a closure passed to Inspect stays on the caller's stack).
func Inspect(n Node, f func(Node) bool) {
	if isNil(n) || !f(n) {
		return
	}
	eachChild(n, func(c Node) bool {
		Inspect(c, f)
		return true
	})
	f(nil)
}

// All iterates over every node under (and including) n in depth-first order.
func All(n Node) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		var walk func(Node) bool
		walk = func(n Node) bool {
			if isNil(n) {
				return true
			}
			if !yield(n) {
				return false
			}
			return eachChild(n, walk)
		}
		walk(n)
	}
}

// Children returns the direct children of n in source order.
func Children(n Node) []Node {
	if f, ok := n.(*File); ok {
		return fileChildren(f)
	}
	var out []Node
	eachChild(n, func(c Node) bool {
		out = append(out, c)
		return true
	})
	return out
}

// eachChild calls f for each direct child of n in source order, as
// Children lists them, until f returns false; it reports whether f never
// returned false. Unlike Children it allocates nothing (except for a
// File, whose top-level nodes are merged into source order first), so
// Walk, Inspect and All cost no slice per node.
func eachChild(n Node, f func(Node) bool) bool {
	ok := true
	add := func(c Node) {
		if ok && !isNil(c) {
			ok = f(c)
		}
	}
	switch n := n.(type) {
	case *File:
		for _, c := range fileChildren(n) {
			if !f(c) {
				return false
			}
		}
		return true
	case *Header:
		add(n.Key)
		headerChildren(n, add)
	case *FilterArg:
		add(n.Text)
	case *StatusValue, *Ident, *Comment, *Lit, *PathSeg, *SecretRef,
		*NumberLit, *BoolLit, *NullLit, *BadStmt, *TestExpect:
	case *VarDecl:
		add(n.Name)
		add(n.Default)
	case *Requirement:
		add(n.Key)
		addBindFallback(add, n.Bind, n.Fallback)
	case *Trigger:
		add(n.Source)
	case *KeyValue:
		add(n.Key)
		for _, it := range n.Items {
			add(it)
		}
	case *OutputSpec:
		add(n.Kind)
		add(n.Target)
	case *TestsBlock:
		for _, c := range n.Cases {
			add(c)
		}
	case *TestCase:
		for _, e := range n.Expect {
			add(e)
		}
	case *DefaultDecl:
		add(n.Goal)
	case *Template:
		for _, l := range n.Lines {
			add(l)
		}
	case *TemplateLine:
		add(n.Text)
	case *Target:
		add(n.Name)
		for _, d := range n.Needs {
			if !inNeedsStmt(n, d) {
				add(d)
			}
		}
		add(n.Body)
		add(n.Else)
	case *ElseBlock:
		add(n.Body)
	case *Block:
		for _, s := range n.Stmts {
			add(s)
		}
	case *NeedsStmt:
		for _, d := range n.Names {
			add(d)
		}
	case *SetStmt:
		add(n.Name)
		add(n.Value)
	case *AppendStmt:
		add(n.Name)
		add(n.Value)
	case *Binding:
		add(n.Name)
	case *Fallback:
		add(n.Value)
	case *Arg:
		add(n.Key)
		add(n.Value)
	case *DispatchStmt:
		add(n.Connector)
		add(n.Tool)
		for _, a := range n.Args {
			add(a)
		}
		for _, p := range n.Positional {
			add(p)
		}
		addBindFallback(add, n.Bind, n.Fallback)
	case *CallStmt:
		add(n.Name)
		for _, a := range n.Args {
			add(a)
		}
		for _, p := range n.Positional {
			add(p)
		}
		addBindFallback(add, n.Bind, n.Fallback)
	case *LegacyOpStmt:
		add(n.Bind)
	case *IfStmt:
		for _, c := range n.Clauses {
			add(c)
		}
		add(n.Else)
	case *CondClause:
		add(n.Cond)
		add(n.Body)
	case *ForeachStmt:
		add(n.Iter)
		add(n.List)
		add(n.Body)
	case *Text:
		for _, p := range n.Parts {
			add(p)
		}
	case *Subst:
		add(n.Root)
		for _, p := range n.Path {
			add(p)
		}
		for _, f := range n.Filters {
			add(f)
		}
	case *Filter:
		add(n.Name)
		add(n.Arg)
	case *StringLit:
		add(n.Value)
	case *BareWord:
		add(n.Value)
	case *ListLit:
		for _, e := range n.Elems {
			add(e)
		}
	case *ObjectLit:
		for _, e := range n.Entries {
			add(e)
		}
	case *ObjEntry:
		add(n.Key)
		add(n.Value)
	case *CompareCond:
		add(n.X)
		add(n.Y)
	case *TruthyCond:
		add(n.X)
	case *NotCond:
		add(n.X)
	case *LogicalCond:
		add(n.X)
		add(n.Y)
	case *ParenCond:
		add(n.X)
	}
	return ok
}

func inNeedsStmt(t *Target, id *Ident) bool {
	for _, s := range t.NeedsInBody {
		for _, d := range s.Names {
			if d == id {
				return true
			}
		}
	}
	return false
}

func addBindFallback(add func(Node), b *Binding, f *Fallback) {
	if b != nil && f != nil && f.Pos() < b.Pos() {
		add(f)
		add(b)
		return
	}
	if b != nil {
		add(b)
	}
	if f != nil {
		add(f)
	}
}

func headerChildren(h *Header, add func(Node)) {
	if h.Status != nil {
		add(h.Status)
	}
	for _, v := range h.Vars {
		add(v)
	}
	for _, n := range h.Names {
		add(n)
	}
	for _, r := range h.Reqs {
		add(r)
	}
	for _, t := range h.Triggers {
		add(t)
	}
	for _, o := range h.Outputs {
		add(o)
	}
	if h.Bool != nil {
		add(h.Bool)
	}
	add(h.Duration)
	if h.Tests != nil {
		add(h.Tests)
	}
	for _, kv := range h.Pairs {
		add(kv)
	}
}

// fileChildren merges the file's top-level nodes into source order.
func fileChildren(f *File) []Node {
	var out []Node
	for _, h := range f.Headers {
		out = append(out, h)
	}
	for _, t := range f.Targets {
		out = append(out, t)
	}
	for _, d := range f.Defaults {
		out = append(out, d)
	}
	for _, t := range f.Templates {
		out = append(out, t)
	}
	for _, b := range f.Bad {
		out = append(out, b)
	}
	sortNodes(out)
	return out
}

func sortNodes(ns []Node) {
	// insertion sort: top-level lists are short and nearly sorted
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && ns[j].Pos() < ns[j-1].Pos(); j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

// isNil reports whether n is nil or a typed nil pointer.
func isNil(n Node) bool {
	if n == nil {
		return true
	}
	switch n := n.(type) {
	case *Ident:
		return n == nil
	case *Binding:
		return n == nil
	case *Fallback:
		return n == nil
	case *ElseBlock:
		return n == nil
	case *Block:
		return n == nil
	case *Text:
		return n == nil
	case *FilterArg:
		return n == nil
	case *Header, *Target, *File:
		return false
	}
	return false
}
