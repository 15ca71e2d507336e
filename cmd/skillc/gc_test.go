package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestOneShotGC checks the one-shot commands' collector settings
// (decision CP2): none until the floor, then GOGC 400 without a limit
// from the first collection on; GOGC or GOMEMLIMIT in the environment
// leave the runtime's settings alone.
func TestOneShotGC(t *testing.T) {
	isolateGC(t)

	oneShotGC()
	gogc, lim := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	switch {
	case gogc == -1 && lim == oneShotHeapFloor:
	case gogc == oneShotGCPercent && lim == math.MaxInt64:
		// the test process already passed the floor and collected
		t.Log("a collection ran before the settings were read")
	default:
		t.Errorf("after oneShotGC: GOGC %d, memory limit %d; want -1 (off) and %d until the floor", gogc, lim, oneShotHeapFloor)
	}

	// the first collection switches to GOGC 400 and no limit
	waitForFirstCollection(t)
	if got := debug.SetGCPercent(oneShotGCPercent); got != oneShotGCPercent {
		t.Errorf("GOGC after the first collection = %d, want %d", got, oneShotGCPercent)
	}

	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOGC", "50")
	oneShotGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, oneShotGC changed GOGC to %d", got)
	}
}

// TestHeapFloorGCPercent: `skills discover`'s collector (decision DS4)
// is CP2's floor followed by the percent it is given, 100, rather than
// GOGC 400.
func TestHeapFloorGCPercent(t *testing.T) {
	isolateGC(t)
	heapFloorGC(100)
	if gogc := debug.SetGCPercent(-1); gogc != -1 && gogc != 100 {
		t.Errorf("after heapFloorGC(100): GOGC %d, want -1 (off) until the floor", gogc)
	}
	waitForFirstCollection(t)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC after the first collection = %d, want 100", got)
	}
}

// isolateGC starts a test from GOGC 100 without a memory limit and with
// GOGC/GOMEMLIMIT unset, and restores all four when it ends.
func isolateGC(t *testing.T) {
	t.Helper()
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(env); ok {
			t.Cleanup(func() { os.Setenv(env, v) })
			os.Unsetenv(env)
		}
	}
}

// waitForFirstCollection collects until the collector settings' switch
// after the first collection has run: it runs on the cleanup goroutine,
// and each runtime.GC also gives the queued cleanups their turn.
func waitForFirstCollection(t *testing.T) {
	t.Helper()
	switched := false
	for i := 0; i < 100 && !switched; i++ {
		runtime.GC()
		runtime.Gosched()
		switched = debug.SetMemoryLimit(-1) == math.MaxInt64
	}
	if !switched {
		t.Fatal("the memory limit was not lifted after collections")
	}
}
