package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// oneShotGCPercent is the collector's GOGC for the one-shot commands
// (check, run) once their heap has passed oneShotHeapFloor: a short
// process whose heap is mostly live until it exits pays for collections
// that free little (issue 25; decisions HP2, CP2).
const oneShotGCPercent = 400

// oneShotHeapFloor is the memory (the Go runtime's total, as
// GOMEMLIMIT counts it) under which a one-shot command does not collect
// at all: the 14k-line check allocates about 30 MB and its one collection
// at GOGC 400 cost a fifth of its CPU (decision CP2).
const oneShotHeapFloor = 64 << 20

// oneShotGC sets the collector of a one-shot command unless the operator
// set GOGC or GOMEMLIMIT, which are then kept: no collection until the
// runtime's memory reaches oneShotHeapFloor (GOGC off under a memory
// limit), then, from the first collection on, GOGC 400 and no limit, so
// a command whose live heap outgrows the floor is not collected over and
// over against it.
func oneShotGC() { heapFloorGC(oneShotGCPercent) }

// heapFloorGC is oneShotGC with percent as the GOGC after the first
// collection: `skills discover` keeps the default 100 there, since its
// first run over a large catalog holds hundreds of megabytes live
// (decision DS4).
func heapFloorGC(percent int) {
	if _, ok := os.LookupEnv("GOGC"); ok {
		return
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotHeapFloor)
	afterFirstGC(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

// gcSentinel is an object only afterFirstGC points to; it is larger than
// the runtime's tiny-allocation size, so its cleanup is not held back by
// a neighbour in the same block.
type gcSentinel struct{ _ [64]byte }

// afterFirstGC runs f (on the runtime's cleanup goroutine) after the
// first collection that finds the sentinel unreachable: the first
// collection from now on.
func afterFirstGC(f func()) {
	runtime.AddCleanup(new(gcSentinel), func(struct{}) { f() }, struct{}{})
}
