package syntax_test

import (
	"runtime"
	"testing"
)

// measure runs fn b.N times and returns the number of heap allocations.
func measure(b *testing.B, fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fn()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}
