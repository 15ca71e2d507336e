package lsp

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// The garbage collector policy of the server process (decision LG1).
//
// The server allocates a lot of short-lived memory per edit (the full
// analysis builds a new tree, scopes and findings) while its live heap is
// small, so with the default GOGC=100 it collects every few edits. After
// each collection the tuner sets GOGC so that the next collection starts
// when the heap reaches gcBudget — never lower than 100 (the heap may
// always double: a large workspace is collected as often as with the
// default, it never thrashes) and never higher than gcMaxPercent. While
// GOGC is above 100 a soft memory limit of gcLimit also holds: the
// runtime then returns freed pages sooner (resident memory stays near the
// budget); at GOGC 100 there is no limit, so a live heap near it is never
// collected over and over.
const (
	// gcBudget is the heap size the tuner lets a small live heap grow to.
	gcBudget = 64 << 20
	// gcLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
	// while the live heap is under half of gcBudget.
	gcLimit = gcBudget + 16<<20
	// gcMaxPercent bounds GOGC for a tiny live heap.
	gcMaxPercent = 800
	// gcMinLive is the smallest live heap the policy computes with.
	gcMinLive = 4 << 20
)

// gcPercentFor returns the GOGC the tuner uses after a collection that
// left live bytes in use: the heap goal is gcBudget while the live heap
// is under half of it, else twice the live heap (GOGC 100).
func gcPercentFor(live uint64) int {
	live = max(live, gcMinLive)
	if live*2 >= gcBudget {
		return 100
	}
	return int(min((gcBudget-live)*100/live, gcMaxPercent))
}

// gcTuner re-computes GOGC after every garbage collection.
type gcTuner struct {
	stopped atomic.Bool
	prev    int   // GOGC before the tuner, restored by stop
	prevLim int64 // the memory limit before the tuner, restored by stop
	mu      sync.Mutex
	percent int // the GOGC set last (under mu)
	sample  []metrics.Sample
	tunes   atomic.Int64 // number of collections seen (for tests)
}

// TuneGC starts the server's garbage collector policy for this process
// and returns the function that stops it and restores the previous GOGC.
// It does nothing (and returns a no-op) when the user set GOGC or
// GOMEMLIMIT in the environment: the user's setting always wins.
func TuneGC(getenv func(string) (string, bool)) (stop func()) {
	t := startGCTuner(getenv)
	if t == nil {
		return func() {}
	}
	return t.stop
}

// startGCTuner is TuneGC returning the tuner (nil when the environment
// sets the collector).
func startGCTuner(getenv func(string) (string, bool)) *gcTuner {
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := getenv(k); ok && v != "" {
			return nil
		}
	}
	t := &gcTuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.prev = debug.SetGCPercent(100)
	t.prevLim = debug.SetMemoryLimit(-1)
	t.percent = 100
	t.tune()
	t.arm()
	return t
}

// arm registers a cleanup on a fresh unreachable object: it runs after
// the next collection, tunes and arms again.
func (t *gcTuner) arm() {
	sentinel := &gcSentinel{} // holds a pointer: never a tiny allocation
	runtime.AddCleanup(sentinel, func(t *gcTuner) {
		if t.stopped.Load() {
			return
		}
		t.tunes.Add(1)
		t.tune()
		t.arm()
	}, t)
}

// gcSentinel is the object whose cleanup marks the end of a collection.
type gcSentinel struct{ _ *gcSentinel }

// tune sets GOGC from the live heap of the last collection.
func (t *gcTuner) tune() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped.Load() {
		return
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	p := gcPercentFor(t.sample[0].Value.Uint64())
	// small changes are not worth a call (it takes the heap lock), but
	// the way back to 100 (and the limit's removal) always is
	if d := p - t.percent; p == t.percent || p > 100 && d > -t.percent/16 && d < t.percent/16 {
		return
	}
	t.percent = p
	if p > 100 {
		debug.SetMemoryLimit(gcLimit)
	} else {
		debug.SetMemoryLimit(t.prevLim)
	}
	debug.SetGCPercent(p)
}

// stop ends the policy and restores GOGC.
func (t *gcTuner) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped.Swap(true) {
		return
	}
	debug.SetGCPercent(t.prev)
	debug.SetMemoryLimit(t.prevLim)
}
