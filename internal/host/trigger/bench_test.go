package trigger

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// BenchmarkDrain1000CronFires registers 1,000 cron triggers due at the
// same minute, ticks once and waits until the workers ran all 1,000 fires
// (a no-op runner: this is the queue's cost, not the skills'). It reports
// the tick (insert) and drain times, on the embedded SQLite queue and on
// a throwaway Postgres server (a new one per iteration; skipped when the
// server binaries are missing, see internal/testsupport/pgtest).
func BenchmarkDrain1000CronFires(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { drain1000(b, func(testing.TB) string { return "" }) })
	b.Run("postgres", func(b *testing.B) { drain1000(b, pgtest.Start) })
}

// drain1000 is BenchmarkDrain1000CronFires on the queue queueURL gives
// for each iteration ("" is the SQLite file under the fixture's home).
func drain1000(b *testing.B, queueURL func(testing.TB) string) {
	const n = 1000
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		fx := newFixture(b)
		home := fx.home
		url := queueURL(b)
		if _, err := fx.store.Write(context.Background(), "tick", "# Skill: tick\n# Status: Approved\n\nx\n", "bench"); err != nil {
			b.Fatal(err)
		}
		var ran atomic.Int64
		svc, err := Open(context.Background(), Options{
			Queue:  QueueOptions{URL: url, Home: home, Workers: 8, FetchPollInterval: 20 * time.Millisecond},
			Skills: fx.store, Clock: fx.clock, PollInterval: time.Hour,
			Run: func(context.Context, Fire) error { ran.Add(1); return nil },
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for j := 0; j < n; j++ {
			if _, err := svc.Register(ctx, Trigger{ID: fmt.Sprintf("t%04d", j), Skill: "tick", Kind: KindCron, Spec: "0 9 * * *", Enabled: true}); err != nil {
				b.Fatal(err)
			}
		}
		if err := svc.Start(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		inserted, err := svc.Tick(ctx, day(5, 9, 0))
		if err != nil || inserted != n {
			b.Fatalf("tick inserted %d: %v", inserted, err)
		}
		tick := time.Since(t0)
		for ran.Load() < n {
			time.Sleep(5 * time.Millisecond)
		}
		drain := time.Since(t0)
		b.StopTimer()
		b.ReportMetric(float64(tick.Milliseconds()), "tick-ms")
		b.ReportMetric(float64(drain.Milliseconds()), "drain-ms")
		b.ReportMetric(float64(n)/drain.Seconds(), "fires/s")
		_ = svc.Stop(ctx)
	}
}
