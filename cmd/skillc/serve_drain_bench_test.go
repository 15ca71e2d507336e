package main

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// drainSkill is a yearly cron skill that does no I/O: the drain measures
// the queue and the host, not the skill.
func drainSkill(name string) string {
	return "# Skill: " + name + "\n# Status: Approved\n# Triggers: cron: 0 0 1 1 *\n\nrun:\n    emit(text=\"ok\")\ndefault: run\n"
}

// BenchmarkServeDrain1000 measures how fast 1, then 3 hosts drain 1,000
// queued fires, on the SQLite queue (the hosts share one queue file) and
// on Postgres: 1,000 cron triggers are registered, the hosts stopped,
// every trigger made due, the hosts started together; the first tick
// queues the 1,000 jobs. drain-ms is the first run's start to the last
// run's finish, from the trace rows (host start-up excluded); runs/s is
// 1,000 over it. Each host runs 4 workers (the default); one host with
// 12 workers (as many as three hosts) tells hosts from workers apart.
//
//	go test ./cmd/skillc -run '^$' -bench 'BenchmarkServeDrain1000' -benchtime 1x
func BenchmarkServeDrain1000(b *testing.B) {
	const n = 1000
	for _, backend := range []string{"sqlite", "postgres"} {
		for _, c := range []struct{ hosts, workers int }{{1, 4}, {3, 4}, {1, 12}} {
			hosts := c.hosts
			b.Run(fmt.Sprintf("%s/hosts=%d/workers=%d", backend, c.hosts, c.workers), func(b *testing.B) {
				shared := b.TempDir()
				var url string
				if backend == "postgres" {
					url = pgtest.Start(b)
				} else {
					url = filepath.Join(shared, "queue.db")
				}
				homes := make([]string, hosts)
				for i := range homes {
					homes[i] = b.TempDir()
					for k := range n {
						name := fmt.Sprintf("d%04d", k)
						writeSkill(b, homes[i], name, drainSkill(name))
					}
				}
				args := []string{"--database", url, "--log-level", "warn", "--poll-interval", "200ms", "--workers", fmt.Sprint(c.workers)}
				// register the triggers once, then stop
				p := startServe(b, homes[0], nil, args...)
				queue := benchDB(b, backend, url)
				waitUntil(b, 120*time.Second, func() bool {
					var k int
					return queue.QueryRow(`SELECT count(*) FROM skillc_triggers WHERE next_fire IS NOT NULL`).Scan(&k) == nil && k == n
				})
				stopServe(b, p)
				var total time.Duration
				for it := 0; it < b.N; it++ {
					b.StopTimer()
					slot := time.Now().Add(-time.Duration(it+1) * time.Minute).UnixMilli()
					if _, err := queue.Exec(ph(backend, `UPDATE skillc_triggers SET next_fire = ?`), slot); err != nil {
						b.Fatal(err)
					}
					since := time.Now().UnixMilli()
					b.StartTimer()
					procs := make([]*serveProc, hosts)
					var wg sync.WaitGroup
					for i := range procs {
						wg.Add(1)
						go func() { defer wg.Done(); procs[i] = startServe(b, homes[i], nil, args...) }()
					}
					wg.Wait()
					var first, last int64
					waitUntil(b, 10*time.Minute, func() bool {
						var done int
						first, last, done = 0, 0, 0
						for _, db := range traceDBs(b, backend, url, homes) {
							var f, l sql.NullInt64
							var k int
							if err := db.QueryRow(ph(backend, `SELECT min(started_at), max(finished_at), count(*) FROM runs WHERE status = 'ok' AND started_at >= ?`), since).Scan(&f, &l, &k); err != nil {
								return false
							}
							if f.Valid && (first == 0 || f.Int64 < first) {
								first = f.Int64
							}
							last, done = max(last, l.Int64), done+k
						}
						return done >= n
					})
					b.StopTimer()
					for _, p := range procs {
						stopServe(b, p)
					}
					total += time.Duration(last-first) * time.Millisecond
				}
				drain := total / time.Duration(b.N)
				b.ReportMetric(float64(drain.Milliseconds()), "drain-ms")
				b.ReportMetric(n/drain.Seconds(), "runs/s")
			})
		}
	}
}

// ph rewrites ? placeholders for Postgres.
func ph(backend, q string) string {
	if backend != "postgres" {
		return q
	}
	out, k := "", 0
	for _, r := range q {
		if r == '?' {
			k++
			out += fmt.Sprintf("$%d", k)
			continue
		}
		out += string(r)
	}
	return out
}

// benchDB opens the queue database of backend.
func benchDB(b *testing.B, backend, url string) *sql.DB {
	if backend == "postgres" {
		db, err := sql.Open("pgx", url)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		return db
	}
	return openDB(b, url)
}

// traceDBs are the trace stores of the hosts: the shared Postgres, or
// each host's traces.db.
func traceDBs(b *testing.B, backend, url string, homes []string) []*sql.DB {
	if backend == "postgres" {
		return []*sql.DB{benchDBCached(b, backend, url)}
	}
	var out []*sql.DB
	for _, h := range homes {
		out = append(out, benchDBCached(b, backend, filepath.Join(h, "traces", trace.FileName)))
	}
	return out
}

var benchDBs sync.Map

func benchDBCached(b *testing.B, backend, url string) *sql.DB {
	if db, ok := benchDBs.Load(url); ok {
		return db.(*sql.DB)
	}
	db := benchDB(b, backend, url)
	benchDBs.Store(url, db)
	b.Cleanup(func() { benchDBs.Delete(url) })
	return db
}

// BenchmarkServeEventToRunStartPostgres is BenchmarkServeEventToRunStart
// on a Postgres queue and trace store (one host): POST /event until the
// run's trace row exists.
//
//	go test ./cmd/skillc -run '^$' -bench 'BenchmarkServeEventToRunStart' -benchtime 300x
func BenchmarkServeEventToRunStartPostgres(b *testing.B) {
	url := pgtest.Start(b)
	home := b.TempDir()
	writeSkill(b, home, "prox", "# Skill: prox\n# Status: Approved\n# Triggers: event: prox\n# Vars: ROOM\n\n${ROOM}\n")
	p := startServe(b, home, []string{"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true", "SKILLSCRIPT_EVENT_RATE=0"}, "--log-level", "warn", "--database", url)
	db := benchDB(b, "postgres", url)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		code, body := post(b, p.url, "", `{"event_name":"prox","params":{"ROOM":"k"}}`)
		if code != 200 {
			b.Fatalf("POST /event = %d %v", code, body)
		}
		id := body["run_id"].(string)
		for {
			var k int
			if db.QueryRow(`SELECT count(*) FROM runs WHERE id = $1`, id).Scan(&k) == nil && k == 1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportLatency(b, [][]time.Duration{lat}, time.Duration(1))
}

// stopServe sends SIGTERM to p and waits for it to exit.
func stopServe(b *testing.B, p *serveProc) {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		b.Fatalf("skillc serve did not exit after SIGTERM")
	}
}
