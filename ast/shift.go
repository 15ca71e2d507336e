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
	if ns == nil {
		return nil
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
	memo map[Node]Node
}

// pos moves a valid position.
func (s *shifter) pos(p Pos) Pos {
	if p.IsValid() {
		return p + s.delta
	}
	return p
}

// rng moves both ends of a range.
func (s *shifter) rng(r Range) Range { return r.Moved(int(s.delta)) }
