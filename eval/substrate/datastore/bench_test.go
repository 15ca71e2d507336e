package datastore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

var words = []string{"billing", "outage", "customer", "latency", "deploy", "refund", "invoice", "login", "timeout", "feedback", "kiwi", "search"}

func content(i int) string {
	return fmt.Sprintf("record %d about %s and %s\nmore detail on %s", i, words[i%len(words)], words[(i/7)%len(words)], words[(i/13)%len(words)])
}

// fill inserts n records in batches of one transaction each.
func fill(b *testing.B, s *Store, n int) {
	ctx := context.Background()
	now := time.Now()
	for start := 0; start < n; start += 5000 {
		if err := s.init(); err != nil { // opens the database, creates the tables
			b.Fatal(err)
		}
		tx, err := s.opened.Load().BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		for i := start; i < start+5000 && i < n; i++ {
			req := contract.WriteRequest{Content: content(i), Tags: []string{words[i%len(words)], fmt.Sprintf("t%d", i%100)}}
			if err := insertRecord(ctx, tx, fmt.Sprintf("b_%d", i), req, now); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStore(b *testing.B) *Store {
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func BenchmarkWrite(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Write(ctx, contract.WriteRequest{Content: content(i), Tags: []string{"bench"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

func benchQueries(b *testing.B, rows int) {
	s := benchStore(b)
	fill(b, s, rows)
	ctx := context.Background()
	b.Run("fts", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.Query(ctx, contract.Query{Text: words[i%len(words)] + " " + words[(i+3)%len(words)], Limit: 10}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
	})
	b.Run("domain_tags", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.Query(ctx, contract.Query{DomainTags: []string{fmt.Sprintf("t%d", i%100)}, Limit: 10}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
	})
	b.Run("write", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.Write(ctx, contract.WriteRequest{Content: content(rows + i), Tags: []string{"bench"}}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
	})
}

func BenchmarkQuery10k(b *testing.B) { benchQueries(b, 10_000) }

// BenchmarkQuery1M needs SKILLC_BENCH_LARGE=1 (it builds a million-row
// database first).
func BenchmarkQuery1M(b *testing.B) {
	if os.Getenv("SKILLC_BENCH_LARGE") != "1" {
		b.Skip("set SKILLC_BENCH_LARGE=1 to run the 1M-row benchmark")
	}
	benchQueries(b, 1_000_000)
}
