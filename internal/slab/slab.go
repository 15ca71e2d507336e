// Package slab hands out pointers to zeroed values carved from chunks, so
// that the many small objects of one pass (parse-tree nodes, references,
// bindings) cost one allocation per chunk instead of one each. A chunk
// lives as long as any value in it, which for the objects of one parse or
// check is their common lifetime anyway. A Slab is not safe for concurrent
// use; its zero value is ready.
package slab

// chunk is the number of values per chunk.
const chunk = 128

// Slab allocates values of type T.
type Slab[T any] struct{ buf []T }

// New returns a pointer to a fresh zero T.
func (s *Slab[T]) New() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, chunk)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// Slices carves slices of T from shared chunks: each slice has the length
// and capacity asked for, so appending to it never writes into a
// neighbour (it reallocates instead). Not safe for concurrent use; the
// zero value is ready.
type Slices[T any] struct{ buf []T }

// sliceChunk is the minimum chunk size of Slices, in elements.
const sliceChunk = 1024

// Make returns a slice of n zero values and capacity c (c >= n).
func (s *Slices[T]) Make(n, c int) []T {
	if c > cap(s.buf)-len(s.buf) {
		s.buf = make([]T, 0, max(sliceChunk, c))
	}
	from := len(s.buf)
	s.buf = s.buf[:from+c]
	return s.buf[from : from+n : from+c]
}
