package slab

import "testing"

// TestNew: values are zero, distinct, stable across chunk boundaries, and
// cost one allocation per chunk.
func TestNew(t *testing.T) {
	var s Slab[[2]int]
	var ps []*[2]int
	for i := 0; i < 3*chunk+5; i++ {
		p := s.New()
		if *p != [2]int{} {
			t.Fatalf("value %d is not zero: %v", i, *p)
		}
		p[0], p[1] = i, -i
		ps = append(ps, p)
	}
	for i, p := range ps {
		if p[0] != i || p[1] != -i {
			t.Fatalf("value %d changed to %v", i, *p)
		}
	}
	// chunks double from firstChunk to chunk (2*chunk-firstChunk values,
	// one allocation per chunk), every further 128 values take one more
	allocs := testing.AllocsPerRun(10, func() {
		var s Slab[int]
		for i := 0; i < 2*chunk-firstChunk+2*chunk; i++ {
			s.New()
		}
	})
	want := 2.0
	for n := firstChunk; n <= chunk; n *= 2 {
		want++
	}
	if allocs != want {
		t.Fatalf("%v allocations for %d values, want %v", allocs, 2*chunk-firstChunk+2*chunk, want)
	}
}

// TestSlices: carved slices have the asked length and capacity, and an
// append past the capacity leaves the neighbouring slice alone.
func TestSlices(t *testing.T) {
	var s Slices[int]
	a := s.Make(2, 3)
	b := s.Make(0, 4)
	if len(a) != 2 || cap(a) != 3 || len(b) != 0 || cap(b) != 4 {
		t.Fatalf("len/cap: a %d/%d, b %d/%d", len(a), cap(a), len(b), cap(b))
	}
	b = append(b, 7, 8)
	a = append(a, 1, 2, 3) // past cap(a): must reallocate, not overwrite b
	if b[0] != 7 || b[1] != 8 {
		t.Fatalf("append to a overwrote b: %v", b)
	}
	if len(a) != 5 || a[2] != 1 || a[4] != 3 {
		t.Fatalf("a = %v", a)
	}
	big := s.Make(5000, 5000)
	if len(big) != 5000 {
		t.Fatalf("len(big) = %d", len(big))
	}
}
