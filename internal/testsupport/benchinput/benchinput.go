// Package benchinput provides the inputs of the performance benchmarks
// (issue 17): the shared generator's files when ../shared is present, and
// in-repository generators of the same shapes so that every benchmark also
// runs without it.
//
// The package is for tests and benchmarks only; generated files are
// written to temporary directories and never committed.
package benchinput

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
)

// Shared runs the shared generator (bench/gen_inputs.py under the shared
// directory) into a temporary directory and returns the content of the
// file name it wrote (big.skill.md, loop.skill.md or trivial.skill.md).
// It skips b, saying so, when the shared directory or python3 is missing.
func Shared(b testing.TB, name string) []byte {
	b.Helper()
	gen, ok := testcorpus.SharedIfPresent(b, "bench", "gen_inputs.py")
	if !ok {
		b.Skipf("SKIPPED: %s not found, so the benchmark over the shared inputs did not run "+
			"(the in-repository variant of this benchmark still runs; put the shared directory beside the checkout or set %s)",
			gen, testcorpus.SharedEnv)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skipf("SKIPPED: python3 not found, so %s cannot generate the shared inputs", gen)
	}
	dir := b.TempDir()
	if out, err := exec.Command(py, gen, dir).CombinedOutput(); err != nil {
		b.Fatalf("%s %s: %v\n%s", gen, dir, err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// Big returns a valid skill of about lines lines shaped like the shared
// big.skill.md: a chain of targets, each needing the one before, each with
// $set, emit, an if/else, a foreach over a literal list and a filter.
func Big(lines int) []byte {
	var b strings.Builder
	b.WriteString("# Skill: big-own\n# Status: Draft\n# Description: generated front-end benchmark\n# Vars: ROOT=origin\n\n")
	n, count := 0, 5
	for ; count < lines-2; n++ {
		if n == 0 {
			b.WriteString("s0:\n")
		} else {
			fmt.Fprintf(&b, "s%d: s%d\n", n, n-1)
		}
		fmt.Fprintf(&b, "    $set P%d = \"step %d of ${ROOT}\"\n", n, n)
		fmt.Fprintf(&b, "    emit(text=\"at %d: ${P%d}\")\n", n, n)
		fmt.Fprintf(&b, "    if ${P%d} == \"step %d of origin\":\n", n, n)
		fmt.Fprintf(&b, "        $set Q%d = \"same\"\n", n)
		fmt.Fprintf(&b, "        emit(text=\"same ${Q%d}\")\n", n)
		b.WriteString("    else:\n")
		fmt.Fprintf(&b, "        $set Q%d = \"other\"\n", n)
		fmt.Fprintf(&b, "    foreach E%d in [\"x\", \"y\", \"z\"]:\n", n)
		fmt.Fprintf(&b, "        emit(text=\"${E%d}/${Q%d}\")\n", n, n)
		fmt.Fprintf(&b, "    $set R%d = \"${P%d}+${Q%d}\"\n", n, n, n)
		fmt.Fprintf(&b, "    emit(text=\"${R%d|trim}\")\n\n", n)
		count += 13
	}
	fmt.Fprintf(&b, "default: s%d\n", n-1)
	return []byte(b.String())
}

// Loop returns a skill shaped like the shared loop.skill.md: a foreach
// over n numbers parsed from a JSON string, each iteration doing a $set,
// an if/else and an $append.
func Loop(n int) []byte {
	nums := make([]string, n)
	for i := range nums {
		nums[i] = fmt.Sprint(i)
	}
	return []byte("# Skill: loop-own\n# Status: Draft\n\nrun:\n" +
		"    $set JS = \"[" + strings.Join(nums, ",") + "]\"\n" +
		"    $ json_parse ${JS} -> NUMS\n" +
		"    $set OUT = []\n" +
		"    foreach K in ${NUMS}:\n" +
		"        $set Y = \"n-${K}\"\n" +
		"        if ${Y} == \"n-3\":\n" +
		"            $append OUT \"three\"\n" +
		"        else:\n" +
		"            $append OUT ${Y}\n" +
		"    emit(text=\"${OUT|length}\")\n" +
		"default: run\n")
}

// Trivial is the smallest useful skill: one emit (start-up cost).
func Trivial() []byte {
	return []byte("# Skill: trivial-own\n# Status: Draft\nrun:\n    emit(text=\"hello\")\ndefault: run\n")
}

// CPU measures the process's CPU time over a benchmark loop. On a shared
// machine wall time (ns/op) includes the time spent waiting for a core;
// CPU time per op does not, so it is the steadier figure there (it also
// counts the garbage collector's work on other threads).
type CPU struct {
	start time.Duration
	ok    bool
}

// StartCPU starts measuring; call it right after b.ResetTimer.
func StartCPU() CPU {
	t, ok := cpuTime()
	return CPU{start: t, ok: ok}
}

// Report adds the metric cpu-ns/op (CPU nanoseconds per iteration) to b,
// when the platform can measure it.
func (c CPU) Report(b *testing.B) {
	end, ok := cpuTime()
	if !c.ok || !ok || b.N == 0 {
		return
	}
	b.ReportMetric(float64(end-c.start)/float64(b.N), "cpu-ns/op")
}
