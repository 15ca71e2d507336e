package ast

// Shifted returns copies of the nodes ns and their subtrees with every
// position moved by delta bytes: the nodes after an edit of the text in
// front of them, which re-uses them without parsing them again (the
// language server's incremental parse). The originals are not touched:
// trees are shared (snapshots, compiled units) and never mutated. Nodes
// shared between two fields of the tree (a needs: statement's names are
// also its target's Needs) stay shared in the copy. Values without
// positions (names, literal values, the test inputs of a header) are
// shared with the original.
func Shifted[N Node](ns []N, delta int) []N {
	if len(ns) == 0 {
		return ns
	}
	s := &shifter{delta: Pos(delta)}
	out := make([]N, len(ns))
	for i, n := range ns {
		if isNil(n) {
			out[i] = n
			continue
		}
		out[i] = s.node(n).(N)
	}
	return out
}

// shifter makes shifted copies (walk_gen.go).
type shifter struct {
	delta Pos
	// memo maps the nodes already copied to their copies while a node
	// whose subtree shares nodes between fields is copied, else nil.
	memo  map[Node]Node
	slabs shiftSlabs
}

// slab hands out the nodes of one type from arrays allocated together
// (8 at first, doubling up to 512): a shifted copy of thousands of nodes
// is a few allocations per node type rather than one per node.
type slab[T any] struct {
	free []T
	next int
}

// new returns a zero node from the slab.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.next = min(max(2*s.next, 8), 512)
		s.free = make([]T, s.next)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// pos moves a valid position.
func (s *shifter) pos(p Pos) Pos {
	if p.IsValid() {
		return p + s.delta
	}
	return p
}

// rng moves both ends of a range.
func (s *shifter) rng(r Range) Range { return Range{s.pos(r.From), s.pos(r.To)} }
