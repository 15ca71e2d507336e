package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCheckOneInBigFolder measures issue 23 item 2: skillc check and
// skillc run of one small skill alone in its folder and beside 3,000
// sibling skills it does not reference (the folder is its skill store).
// One built skillc process per iteration; cpu-ns/op is the child's user +
// system CPU time, the figure to compare (the lazy store keeps the big
// folder within 1.5x of alone). See docs/benchmarks.md.
func BenchmarkCheckOneInBigFolder(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "skillc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	one := []byte("# Skill: one\n# Status: Draft\nrun:\n    emit(text=\"hi\")\ndefault: run\n")
	home := b.TempDir()
	for _, siblings := range []int{0, 3000} {
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "one.skill.md"), one, 0o644); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < siblings; i++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%04d.skill.md", i)), sibling(i), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for _, verb := range []string{"check", "run"} {
			b.Run(fmt.Sprintf("%s/siblings=%d", verb, siblings), func(b *testing.B) {
				runOnce := func() time.Duration {
					cmd := exec.Command(bin, verb, "one.skill.md")
					cmd.Dir = dir
					cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home, "NO_COLOR=1")
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("skillc %s: %v\n%s", verb, err, out)
					}
					return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				}
				runOnce() // warm the file cache
				b.ResetTimer()
				var cpu time.Duration
				for i := 0; i < b.N; i++ {
					cpu += runOnce()
				}
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// sibling is the i-th generated sibling skill: headers, a variable, a
// condition and two emits (about 300 bytes).
func sibling(i int) []byte {
	return fmt.Appendf(nil, "# Skill: s%04d\n# Status: Draft\n# Description: sibling %d\n# Vars: X=1\n\nrun:\n"+
		"    $set A = \"v %d ${X}\"\n    emit(text=\"${A}\")\n    if ${A} == \"x\":\n        emit(text=\"y\")\ndefault: run\n", i, i, i)
}
