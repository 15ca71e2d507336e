package trace

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/testsupport/benchinput"
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

// loopRunRecord is what one traced run of the 20k-iteration loop skill
// hands the spool: its source (110 kB), a start time, four ops and the
// result.
func loopRunRecord() (src string, t0 time.Time, ops []Op, res *eval.Result) {
	src = string(benchinput.Loop(20000))
	t0 = time.Now()
	ops = make([]Op, 4)
	for i := range ops {
		ops[i] = Op{Skill: "s", Target: "run", Op: "shell", Line: i + 3, StartedAt: t0, Duration: time.Millisecond, Outcome: OutcomeOK}
	}
	return src, t0, ops, &eval.Result{Status: "ok", Outputs: eval.Outputs{Text: "done"}}
}

// BenchmarkSpoolWrite is what `skillc run` writes to trace one run on
// SQLite (decision HP1): the spool file's begin record with the source of
// the 20k-iteration loop skill (110 kB), then the finish record with four
// ops, then the close that releases the lock (issue 25 item 2).
func BenchmarkSpoolWrite(b *testing.B) {
	sp, err := OpenSpool(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	src, t0, ops, res := loopRunRecord()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		r := &Run{ID: NewID(), Skill: "s", ContentHash: "h", StartedAt: t0, Inputs: map[string]any{"WHO": "bench"}}
		w, err := sp.begin(r, src)
		if err != nil {
			b.Fatal(err)
		}
		if err := w.write(spoolLine{Finish: finishRecord(res, ops, t0.Add(time.Millisecond))}); err != nil {
			b.Fatal(err)
		}
		w.close()
	}
}

// BenchmarkSpoolEncode encodes the two records of one traced run of the
// loop skill (begin with the 110 kB source, finish with four ops) with
// the spool's encoder and, for comparison, with encoding/json's Encoder
// (what the spool used before SU1). Neither includes encoding/json's
// first-use cost of building its reflection encoders, which a fresh
// skillc process paid once.
func BenchmarkSpoolEncode(b *testing.B) {
	src, t0, ops, res := loopRunRecord()
	begin := spoolLine{Run: &Run{ID: NewID(), Skill: "s", ContentHash: "h", Status: StatusRunning, StartedAt: t0, Inputs: map[string]any{}}, Source: src}
	finish := spoolLine{Finish: finishRecord(res, ops, t0.Add(time.Millisecond))}
	b.Run("spool", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range []spoolLine{begin, finish} {
				if _, err := appendSpoolLine(make([]byte, 0, len(l.Source)+len(l.Source)/16+1024), l); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range []spoolLine{begin, finish} {
				if err := json.NewEncoder(io.Discard).Encode(l); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
