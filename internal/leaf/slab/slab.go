// Package slab hands out pointers to zeroed values carved from chunks, so
// that the many small objects of one pass (parse-tree nodes, references,
// bindings) cost one allocation per chunk instead of one each. A chunk
// lives as long as any value in it, which for the objects of one parse or
// check is their common lifetime anyway. Chunks start small and double up
// to a maximum, so a small input does not pay for a large chunk. A Slab is
// not safe for concurrent use; its zero value is ready.
package slab

const (
	// firstChunk is the number of values in a Slab's first chunk: most
	// node types occur a few times in a small skill, and a one-shot check
	// runs without the collector, so each unused value is fresh memory
	// touched for nothing (issue 25, AK4: 8 made a third of a small
	// skill's parse bytes)
	firstChunk = 2
	chunk      = 128 // the largest chunk of a Slab
)

// Slab allocates values of type T.
type Slab[T any] struct {
	buf  []T
	next int // size of the next chunk
}

// New returns a pointer to a fresh zero T.
func (s *Slab[T]) New() *T {
	if len(s.buf) == cap(s.buf) {
		s.next = min(max(2*s.next, firstChunk), chunk)
		s.buf = make([]T, 0, s.next)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// Slices carves slices of T from shared chunks: each slice has the length
// and capacity asked for, so appending to it never writes into a
// neighbour (it reallocates instead). Chunks start small and double up to
// sliceChunk elements (or the size asked for, if larger). Not safe for
// concurrent use; the zero value is ready.
type Slices[T any] struct {
	buf  []T
	next int
}

const (
	firstSliceChunk = 8    // elements in the first chunk of Slices (see firstChunk)
	sliceChunk      = 1024 // the largest regular chunk of Slices
)

// Make returns a slice of n zero values and capacity c (c >= n).
func (s *Slices[T]) Make(n, c int) []T {
	if c > cap(s.buf)-len(s.buf) {
		s.next = min(max(2*s.next, firstSliceChunk), sliceChunk)
		s.buf = make([]T, 0, max(s.next, c))
	}
	from := len(s.buf)
	s.buf = s.buf[:from+c]
	return s.buf[from : from+n : from+c]
}
