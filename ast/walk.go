package ast

//go:generate go run ../internal/tools/astgen -dir .

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

// fileChildren merges the file's top-level nodes into source order.
func fileChildren(f *File) []Node {
	out := make([]Node, 0, len(f.Headers)+len(f.Targets)+len(f.Defaults)+len(f.Templates)+len(f.Bad))
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
