// Command testreport runs go test and lists, at the end, every test that
// was skipped and why, so that a skipped check cannot go unnoticed.
//
//	go run ./internal/tools/testreport [go test flags] [packages]
//
// It runs "go test -json" with the given arguments and prints what a
// plain go test run prints: build errors, the output of failing tests and
// one ok / FAIL / "no test files" line per package. Then it prints the
// skipped tests with their messages and, last, one summary line. Its exit
// status is go test's (1 when any test or package failed).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// event is one record of go test -json (see go doc test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// skip is one skipped test and the lines it logged.
type skip struct {
	pkg, test string
	reason    []string
}

// report accumulates the run's outcome while it streams.
type report struct {
	out       io.Writer
	testOut   map[string][]string // package + " " + test → output lines
	skips     []skip
	ok, fail  int
	testFails int
}

func main() {
	cmd := exec.Command("go", append([]string{"test", "-json"}, os.Args[1:]...)...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	r := &report{out: os.Stdout, testOut: map[string][]string{}}
	r.read(stdout)
	werr := cmd.Wait()
	r.finish()
	var ee *exec.ExitError
	switch {
	case errors.As(werr, &ee):
		os.Exit(ee.ExitCode())
	case werr != nil:
		fmt.Fprintln(os.Stderr, "testreport:", werr)
		os.Exit(2)
	case r.fail > 0 || r.testFails > 0:
		os.Exit(1)
	}
}

// read consumes the JSON stream; a line that is not JSON is printed as is.
func (r *report) read(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(r.out, sc.Text())
			continue
		}
		r.handle(e)
	}
}

// handle processes one event.
func (r *report) handle(e event) {
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "build-output":
		fmt.Fprint(r.out, e.Output)
	case e.Test == "":
		r.packageEvent(e)
	case e.Action == "output":
		r.testOut[key] = append(r.testOut[key], e.Output)
	case e.Action == "fail":
		r.testFails++
		fmt.Fprint(r.out, strings.Join(r.testOut[key], ""))
		delete(r.testOut, key)
	case e.Action == "skip":
		r.skips = append(r.skips, skip{pkg: e.Package, test: e.Test, reason: reason(r.testOut[key])})
		delete(r.testOut, key)
	case e.Action == "pass":
		delete(r.testOut, key)
	}
}

// packageEvent prints package-level output as go test does without -v
// and counts package results.
func (r *report) packageEvent(e event) {
	switch e.Action {
	case "output":
		if e.Output != "PASS\n" {
			fmt.Fprint(r.out, e.Output)
		}
	case "pass", "skip":
		r.ok++
	case "fail":
		r.fail++
	}
}

// reason keeps the lines a skipped test logged, without go test's own
// "=== RUN" and "--- SKIP" framing.
func reason(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// finish prints the skipped tests and the summary line, last.
func (r *report) finish() {
	if len(r.skips) > 0 {
		fmt.Fprintf(r.out, "\nskipped tests (%d):\n", len(r.skips))
		for _, s := range r.skips {
			fmt.Fprintf(r.out, "  %s %s\n", s.pkg, s.test)
			for _, l := range s.reason {
				fmt.Fprintf(r.out, "      %s\n", l)
			}
		}
	}
	status := "ok"
	if r.fail > 0 || r.testFails > 0 {
		status = "FAIL"
	}
	fmt.Fprintf(r.out, "%s: %d packages ok, %d failed, %d tests failed, %d tests skipped\n", status, r.ok, r.fail, r.testFails, len(r.skips))
}
