//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/testsupport/benchinput"
)

// BenchmarkCommand runs the commands internal/tools/wholebench times as
// processes, in process instead (issue 25): the command's own work
// without start-up, in figures a busy machine moves less than wall time —
// allocs/op, B/op, cpu-ns/op (the process's user + system CPU, every
// thread) and minflt/op (minor page faults). Each input is alone in its
// folder, as in wholebench.
//
//	go test ./cmd/skillc -run '^$' -bench BenchmarkCommand -benchtime 20x
func BenchmarkCommand(b *testing.B) {
	tmp := b.TempDir()
	inputs := map[string][]byte{"big": benchinput.Big(14000), "loop": benchinput.Loop(20000), "trivial": benchinput.Trivial()}
	for name, src := range inputs {
		if err := os.MkdirAll(filepath.Join(tmp, name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, name, name+".skill.md"), src, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.Setenv("SKILLSCRIPT_HOME", b.TempDir())
	b.Setenv("NO_COLOR", "1")
	for _, c := range []struct{ name, input, args string }{
		{"check-big", "big", "check big.skill.md"},
		{"check-trivial", "trivial", "check trivial.skill.md"},
		{"run-loop-trace-on", "loop", "run --no-check loop.skill.md"},
		{"run-loop-trace-off", "loop", "run --no-check --trace off loop.skill.md"},
		{"run-trivial-trace-on", "trivial", "run trivial.skill.md"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.Chdir(filepath.Join(tmp, c.input))
			args := append([]string{"skillc"}, strings.Fields(c.args)...)
			b.ReportAllocs()
			cpu0, flt0 := selfUsage(b)
			for b.Loop() {
				if code := run(args, strings.NewReader(""), io.Discard, io.Discard); code != exitOK {
					b.Fatalf("skillc %s: exit %d", c.args, code)
				}
			}
			cpu1, flt1 := selfUsage(b)
			b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(flt1-flt0)/float64(b.N), "minflt/op")
		})
	}
}

// selfUsage is this process's CPU time (user + system) and minor page
// faults so far.
func selfUsage(b *testing.B) (time.Duration, int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), int64(ru.Minflt)
}
