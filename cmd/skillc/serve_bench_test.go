package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/internal/host/trace"
)

// BenchmarkServeExecuteHTTP measures execute_skill round trips over
// Streamable HTTP on loopback against a real skillc serve, with 1, 8 and
// 64 concurrent clients (one MCP session each). It reports the latency
// percentiles and the run rate; every run is traced.
func BenchmarkServeExecuteHTTP(b *testing.B) {
	home := b.TempDir()
	writeSkill(b, home, "hello", helloSkill)
	p := startServe(b, home, nil, "--log-level", "warn")
	for _, clients := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			sessions := make([]*mcp.ClientSession, clients)
			for i := range sessions {
				sessions[i] = connect(b, p.url, nil)
			}
			lat := make([][]time.Duration, clients)
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for c := 0; c < clients; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := c; i < b.N; i += clients {
						t0 := time.Now()
						res, err := sessions[c].CallTool(context.Background(), &mcp.CallToolParams{Name: "execute_skill", Arguments: map[string]any{"name": "hello"}})
						if err != nil || res.IsError {
							b.Errorf("execute_skill: %v %v", err, res)
							return
						}
						lat[c] = append(lat[c], time.Since(t0))
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			reportLatency(b, lat, elapsed)
		})
	}
}

func reportLatency(b *testing.B, lat [][]time.Duration, elapsed time.Duration) {
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	if len(all) == 0 {
		return
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p int) float64 { return float64(all[(len(all)-1)*p/100].Microseconds()) }
	b.ReportMetric(pct(50), "p50-µs")
	b.ReportMetric(pct(99), "p99-µs")
	if elapsed > time.Millisecond {
		b.ReportMetric(float64(len(all))/elapsed.Seconds(), "runs/s")
	}
}

// BenchmarkServeEventToRunStart measures POST /event until the run's
// trace row exists (the worker picked the job and the run began), against
// a real skillc serve with the embedded SQLite queue.
func BenchmarkServeEventToRunStart(b *testing.B) {
	home := b.TempDir()
	writeSkill(b, home, "prox", "# Skill: prox\n# Status: Approved\n# Triggers: event: prox\n# Vars: ROOM\n\n${ROOM}\n")
	p := startServe(b, home, []string{"SKILLSCRIPT_EVENT_INGRESS_ENABLED=true"}, "--log-level", "warn")
	st, err := trace.Open(filepath.Join(home, "traces", trace.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
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
			if runs, _ := st.Fires(context.Background(), trace.Filter{TraceID: id}); len(runs) == 1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportLatency(b, [][]time.Duration{lat}, time.Duration(1))
}
