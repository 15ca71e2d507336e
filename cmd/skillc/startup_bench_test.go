package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/testsupport/benchinput"
)

// BenchmarkStartTrivial measures start-up: the built skillc binary running
// a one-emit skill ("skillc run trivial.skill.md"), one process per
// iteration. ns/op is wall time (it includes waiting for a core on a busy
// machine); cpu-ns/op is the child's user + system CPU time.
func BenchmarkStartTrivial(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "skillc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	dir := b.TempDir()
	skill := filepath.Join(dir, "trivial.skill.md")
	if err := os.WriteFile(skill, benchinput.Trivial(), 0o644); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	runOnce := func() time.Duration {
		cmd := exec.Command(bin, "run", skill)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home, "NO_COLOR=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("skillc run: %v\n%s", err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	runOnce() // warm the file cache and SKILLSCRIPT_HOME
	b.ResetTimer()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		cpu += runOnce()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}
