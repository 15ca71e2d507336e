package lsp

// The typing benchmark of issue 25 item 4: an editor outside the process
// types at a steady cadence, every keystroke introducing a finding that
// only the full analysis (the rules) reports, and the client times how
// long each finding takes to appear.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// reUndeclaredMark matches the marker variables the typing benchmark
// introduces in the message of their undeclared-var finding.
var reUndeclaredMark = regexp.MustCompile(`^undeclared variable (ZQ\d+):`)

// typingCadence is the time between two keystrokes of the typing benchmark.
const typingCadence = 60 * time.Millisecond

// benchExtTyping opens an n-line skill from disk in a workspace of 50
// other skills and types 200 edits at a 60 ms cadence, each inserting a
// reference ${ZQ<i>} to a variable nothing declares at the start of a
// string in a target body, and measures for each edit the time from its
// didChange to the first publication holding its undeclared-var finding
// (find-*), and to the first publication of its version (first-*). The
// server CPU is user+system time from the first edit until every finding
// arrived, divided by the edits (cpu-ms/edit), and until the last
// publication, which is the whole-file analysis of the last version
// (cpu-all-ms/edit); whole-after-ms is the time from the last edit to that
// publication.
func benchExtTyping(b *testing.B, n int, args ...string) {
	dir := benchWorkspace(b, 50)
	text := realisticSkill("main", n, 50)
	path := filepath.Join(dir, "main.skill.md")
	must(b, os.WriteFile(path, []byte(text), 0o644))
	lines := strings.Split(text, "\n")
	var editLines []int // lines of `$set A.. = "value ..."` statements
	for i, l := range lines {
		if strings.HasPrefix(l, "    $set A") {
			editLines = append(editLines, i)
		}
	}
	for i := 0; i < b.N; i++ {
		const edits = 200
		var mu sync.Mutex
		seen := map[string]time.Time{} // marker -> first publication holding it
		c := startExt(b, dir, nil, args...)
		c.mu.Lock()
		c.onDiags = func(raw json.RawMessage, at time.Time) {
			var p struct {
				Diagnostics []struct {
					Code    any    `json:"code"`
					Message string `json:"message"`
				} `json:"diagnostics"`
			}
			if json.Unmarshal(raw, &p) != nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, d := range p.Diagnostics {
				if m := reUndeclaredMark.FindStringSubmatch(d.Message); m != nil {
					if _, ok := seen[m[1]]; !ok {
						seen[m[1]] = at
					}
				}
			}
		}
		c.mu.Unlock()
		c.initialize(dir)
		u := string(uri.File(path))
		c.open(u, text)
		c.waitVersion(u, 1)
		time.Sleep(500 * time.Millisecond) // the full analysis of the open
		cpu0, _ := procStat(b, c.cmd.Process.Pid)
		sent := make([]time.Time, edits)
		start := time.Now()
		for e := 0; e < edits; e++ {
			time.Sleep(time.Until(start.Add(time.Duration(e) * typingCadence)))
			ln := editLines[(e*7)%len(editLines)]
			col := strings.Index(lines[ln], "\"value ") + 7
			sent[e] = time.Now()
			c.insert(u, int32(e+2), ln, col, fmt.Sprintf("${ZQ%d}", e), 0)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			mu.Lock()
			got := len(seen)
			mu.Unlock()
			if got == edits || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cpu1, rss := procStat(b, c.cmd.Process.Pid)
		// the whole-file analysis of the last version is its last
		// publication: wait until nothing was published for 1.5 s
		settle := time.Now().Add(20 * time.Second)
		var lastPub time.Time
		var lastV int32
		for time.Now().Before(settle) {
			c.mu.Lock()
			lastPub, lastV = c.diagAt[u], c.diags[u]
			c.mu.Unlock()
			if time.Since(lastPub) > 1500*time.Millisecond {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cpu2, _ := procStat(b, c.cmd.Process.Pid)
		if lastV != edits+1 {
			b.Fatalf("the last publication is of version %d, not %d", lastV, edits+1)
		}
		var find []time.Duration
		missing := 0
		mu.Lock()
		for e := 0; e < edits; e++ {
			at, ok := seen[fmt.Sprintf("ZQ%d", e)]
			if !ok {
				missing++
				continue
			}
			find = append(find, at.Sub(sent[e]))
		}
		mu.Unlock()
		if missing > 0 {
			b.Fatalf("%d of %d findings never published", missing, edits)
		}
		first := c.firstLatencies(u, sent)
		b.ReportMetric(float64(percentile(find, 0.5).Microseconds())/1000, "find-p50-ms")
		b.ReportMetric(float64(percentile(find, 0.99).Microseconds())/1000, "find-p99-ms")
		b.ReportMetric(float64(percentile(first, 0.5).Microseconds())/1000, "first-p50-ms")
		b.ReportMetric(float64(percentile(first, 0.99).Microseconds())/1000, "first-p99-ms")
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/edits, "cpu-ms/edit")
		// with the whole analysis after the last edit
		b.ReportMetric(float64((cpu2-cpu0).Microseconds())/1000/edits, "cpu-all-ms/edit")
		b.ReportMetric(float64(lastPub.Sub(sent[edits-1]).Microseconds())/1000, "whole-after-ms")
		b.ReportMetric(float64(rss)/1024, "rss-MiB")
	}
}

// firstLatencies returns, for each edit e sent at sent[e] (version e+2),
// the time to the first publication of that version; an edit whose
// version was never published on its own counts until the first
// publication of a later version.
func (c *extClient) firstLatencies(u string, sent []time.Time) []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Duration, 0, len(sent))
	for e, at := range sent {
		v := int32(e + 2)
		var best time.Time
		for pv, t := range c.firstAt[u] {
			if pv >= v && (best.IsZero() || t.Before(best)) {
				best = t
			}
		}
		if !best.IsZero() {
			out = append(out, best.Sub(at))
		}
	}
	return out
}

func BenchmarkExtTyping1000(b *testing.B) { benchExtTyping(b, 1000) }
func BenchmarkExtTyping5000(b *testing.B) { benchExtTyping(b, 5000) }

// The same without the local lane (the whole analysis after every edit,
// the behaviour before decision LT1).
func BenchmarkExtTyping1000NoLane(b *testing.B) { benchExtTyping(b, 1000, "--full-delay", "0") }
func BenchmarkExtTyping5000NoLane(b *testing.B) { benchExtTyping(b, 5000, "--full-delay", "0") }

// benchTyping is the typing benchmark in process: the same skill and
// edits as benchExtTyping, one at a time, each timed from its didChange
// to the full publication of its version (debounce off). ns/op and the
// allocations are those of one edit's whole pipeline: the quick
// publication, the full analysis (incremental parse, checker, rules), the
// conversion and encoding of both publications.
func benchTyping(b *testing.B, n int) {
	dir := benchWorkspace(b, 50)
	text := realisticSkill("main", n, 50)
	path := filepath.Join(dir, "main.skill.md")
	must(b, os.WriteFile(path, []byte(text), 0o644))
	lines := strings.Split(text, "\n")
	var editLines []int
	for i, l := range lines {
		if strings.HasPrefix(l, "    $set A") {
			editLines = append(editLines, i)
		}
	}
	fulls := make(chan int32, 1024)
	c := newTestClient(b, Options{Debounce: -1, sent: func(_ string, v int32, full bool, _ []protocol.Diagnostic) {
		if full {
			fulls <- v
		}
	}})
	c.initialize(dir)
	u := string(uri.File(path))
	c.open(u, text)
	for v := <-fulls; v != 1; v = <-fulls {
	}
	b.ReportAllocs()
	b.ResetTimer()
	for e := 0; e < b.N; e++ {
		ln := editLines[(e*7)%len(editLines)]
		col := strings.Index(lines[ln], "\"value ") + 7
		v := int32(e + 2)
		c.incremental(u, int(v), uint32(ln), uint32(col), fmt.Sprintf("${ZQ%d}", e))
		for got := <-fulls; got != v; got = <-fulls {
		}
		// the edits of a line move its later columns: keep the line's text
		lines[ln] = lines[ln][:col] + fmt.Sprintf("${ZQ%d}", e) + lines[ln][col:]
	}
}

func BenchmarkTyping1000(b *testing.B) { benchTyping(b, 1000) }
func BenchmarkTyping5000(b *testing.B) { benchTyping(b, 5000) }
