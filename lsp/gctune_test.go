package lsp

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, gcMaxPercent},        // computed as gcMinLive: (64-4)/4 = 1500% capped
		{4 * mib, gcMaxPercent},  // idem
		{8 * mib, 700},           // goal 64 MiB
		{16 * mib, 300},          // goal 64 MiB
		{31 * mib, 106},          // goal 64 MiB
		{32 * mib, 100},          // half the budget: the default
		{200 * mib, 100},         // a large workspace: the default, never lower
		{1 << 40, 100},           // no overflow
		{gcBudget/2 - 1, 100},    // just under half: (budget-live)/live rounds to 100
		{gcBudget / 9, 800},      // goal exactly the budget at the cap
		{gcBudget / 5 * 1, 400},  // goal 64 MiB
		{gcBudget / 3 * 1, 200},  // goal 64 MiB
		{gcBudget / 4 * 1, 300},  // goal 64 MiB
		{gcBudget / 17 * 2, 750}, // goal 64 MiB
	} {
		got := gcPercentFor(c.live)
		if got != c.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
	}
	// the heap goal never exceeds the larger of the budget and twice the
	// live heap, and GOGC never falls under 100
	for live := uint64(0); live < 256*mib; live += 3*mib + 12345 {
		p := gcPercentFor(live)
		if p < 100 || p > gcMaxPercent {
			t.Fatalf("gcPercentFor(%d) = %d outside [100, %d]", live, p, gcMaxPercent)
		}
		l := max(live, gcMinLive)
		if goal := l + l*uint64(p)/100; goal > max(gcBudget, 2*l) {
			t.Fatalf("live %d: goal %d over the budget and twice the live heap", live, goal)
		}
	}
}

func TestTuneGCUserSettingWins(t *testing.T) {
	for _, env := range []map[string]string{{"GOGC": "50"}, {"GOMEMLIMIT": "1GiB"}, {"GOGC": "off", "GOMEMLIMIT": "100MiB"}} {
		getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
		if tu := startGCTuner(getenv); tu != nil {
			tu.stop()
			t.Errorf("env %v: the tuner started", env)
		}
		TuneGC(getenv)() // the no-op stop
	}
}

// gogc reads the collector's current GOGC.
func gogc(t *testing.T) int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatalf("no %s", s[0].Name)
	}
	return int(s[0].Value.Uint64())
}

func TestTuneGCFollowsCollections(t *testing.T) {
	tu := startGCTuner(func(string) (string, bool) { return "", false })
	if tu == nil {
		t.Fatal("the tuner did not start with an empty environment")
	}
	// a small live heap: GOGC goes up after the collections
	runtime.GC()
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for tu.tunes.Load() == 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if tu.tunes.Load() == 0 {
		t.Fatal("no collection reached the tuner")
	}
	tu.mu.Lock()
	set := tu.percent
	tu.mu.Unlock()
	if got := gogc(t); got != set || set <= 100 {
		t.Errorf("GOGC %d, tuner set %d; want the same, above 100 for a test's small heap", got, set)
	}
	if lim := debug.SetMemoryLimit(-1); lim != gcLimit {
		t.Errorf("memory limit %d with GOGC %d, want %d", lim, set, gcLimit)
	}
	// a large live heap brings it back to 100
	ballast := make([]byte, gcBudget)
	for i := range ballast {
		ballast[i] = 1
	}
	runtime.GC()
	runtime.GC()
	n := tu.tunes.Load()
	for tu.tunes.Load() < n+1 && time.Now().Before(deadline.Add(10*time.Second)) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	tu.mu.Lock()
	set = tu.percent
	tu.mu.Unlock()
	if got := gogc(t); got != 100 || set != 100 {
		t.Errorf("with %d MiB live: GOGC %d (tuner %d), want 100", len(ballast)>>20, got, set)
	}
	if lim := debug.SetMemoryLimit(-1); lim != tu.prevLim {
		t.Errorf("with %d MiB live: memory limit %d, want none (%d)", len(ballast)>>20, lim, tu.prevLim)
	}
	runtime.KeepAlive(ballast)
	tu.stop()
	tu.stop() // twice is fine
	if got := gogc(t); got != tu.prev {
		t.Errorf("after stop GOGC %d, want the previous %d", got, tu.prev)
	}
	if lim := debug.SetMemoryLimit(-1); lim != tu.prevLim {
		t.Errorf("after stop memory limit %d, want the previous %d", lim, tu.prevLim)
	}
}
