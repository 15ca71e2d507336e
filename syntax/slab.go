package syntax

// slab hands out pointers to zeroed T values carved from chunks, so that
// the many small nodes of one parse (identifiers, literals, texts,
// substitutions) cost one allocation per chunk instead of one each. A
// chunk lives as long as any node in it, which for a parse tree is the
// tree's lifetime anyway.
type slab[T any] struct{ buf []T }

// slabChunk is the number of values per chunk.
const slabChunk = 128

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, slabChunk)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}
