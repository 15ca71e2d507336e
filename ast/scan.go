package ast

// Kind identifies the type of a node, for the type masks of [Scan]. The
// zero Kind is no node.
type Kind uint8

// Mask is a set of node kinds.
type Mask uint64

// Mask returns the set holding k alone.
func (k Kind) Mask() Mask { return 1 << k }

// Kinds returns the set of the given kinds.
func Kinds(ks ...Kind) Mask {
	var m Mask
	for _, k := range ks {
		m |= k.Mask()
	}
	return m
}

// AllKinds is the set of every node kind.
const AllKinds Mask = 1<<numKinds - 2

// Has reports whether k is in m.
func (m Mask) Has(k Kind) bool { return m&(1<<k) != 0 }

// Scan traverses the tree rooted at root once, in the depth-first order
// of [Inspect], and calls f only for the nodes whose kind is in want:
// f(n, k, true) before n's subtree and f(n, k, false) after it. When
// f(n, k, true) returns false, n's subtree and the call after it are
// skipped (the result of the call after a subtree is ignored).
//
// It is the one traversal that several consumers share: the lint rules
// subscribe to the kinds they need and keep their own context, such as
// the enclosing statement, from the enter and leave calls. Unlike Inspect
// it calls no function value for the nodes it is not asked about and
// allocates nothing, except a File's merged list of top-level nodes.
func Scan(root Node, want Mask, f func(n Node, k Kind, enter bool) bool) {
	s := scanner{want: want, f: f}
	s.node(root)
}

// scanner is the traversal behind Scan. Its methods (walk_gen.go) are
// generated from the node structs with eachChild, so the two visit the
// same children in the same order (TestScanOrder holds them together),
// with direct calls instead of a callback per child.
type scanner struct {
	want Mask
	f    func(Node, Kind, bool) bool
}

// enter reports n if its kind is wanted; entered says whether the leave
// call is due, skip whether the subtree is skipped.
func (s *scanner) enter(n Node, k Kind) (entered, skip bool) {
	if s.want&(1<<k) != 0 {
		if !s.f(n, k, true) {
			return false, true
		}
		return true, false
	}
	return false, false
}

func (s *scanner) leave(n Node, k Kind, entered bool) {
	if entered {
		s.f(n, k, false)
	}
}

// leaf reports a node without children.
func (s *scanner) leaf(n Node, k Kind) {
	if s.want&(1<<k) != 0 && s.f(n, k, true) {
		s.f(n, k, false)
	}
}

// bindFallback visits a binding and its fallback in source order, as
// addBindFallback lists them.
func (s *scanner) bindFallback(b *Binding, f *Fallback) {
	if b != nil && f != nil && f.Pos() < b.Pos() {
		s.scanFallback(f)
		s.scanBinding(b)
		return
	}
	s.scanBinding(b)
	s.scanFallback(f)
}
