package trace

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// BenchmarkRecordRun is one traced run's writes (Begin, then Finish with
// four ops) on each backend, from several goroutines as a busy host
// would.
func BenchmarkRecordRun(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		st, err := Open(filepath.Join(b.TempDir(), FileName))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		recordRuns(b, st)
	})
	b.Run("postgres", func(b *testing.B) {
		st, err := OpenPostgres(context.Background(), pgtest.Start(b))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		recordRuns(b, st)
	})
}

func recordRuns(b *testing.B, st *Store) {
	ctx := context.Background()
	t0 := time.Now()
	ops := make([]Op, 4)
	for i := range ops {
		ops[i] = Op{Skill: "s", Target: "run", Op: "shell", Line: i + 3, StartedAt: t0, Duration: time.Millisecond, Outcome: OutcomeOK}
	}
	res := &eval.Result{Status: "ok", Outputs: eval.Outputs{Text: "done"}}
	b.SetParallelism(4) // 4 goroutines per GOMAXPROCS: 8 on the 2-core machines
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := NewID()
			r := &Run{ID: id, Skill: "s", ContentHash: "h", Trigger: "cron", StartedAt: t0, Inputs: map[string]any{"WHO": "bench"}}
			if err := st.Begin(ctx, r, "# Skill: s\n"); err != nil {
				b.Error(err)
				return
			}
			if err := st.Finish(ctx, id, res, ops, t0.Add(time.Millisecond)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
