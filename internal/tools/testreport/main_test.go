package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReport feeds a recorded go test -json stream through the report and
// checks what it prints: package lines, a failing test's output, the
// skipped tests with their messages, and the summary line last.
func TestReport(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"run","Package":"p/a","Test":"TestOK"}`,
		`{"Action":"output","Package":"p/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"pass","Package":"p/a","Test":"TestOK"}`,
		`{"Action":"run","Package":"p/a","Test":"TestShared"}`,
		`{"Action":"output","Package":"p/a","Test":"TestShared","Output":"=== RUN   TestShared\n"}`,
		`{"Action":"output","Package":"p/a","Test":"TestShared","Output":"    x_test.go:9: shared corpus not found\n"}`,
		`{"Action":"output","Package":"p/a","Test":"TestShared","Output":"--- SKIP: TestShared (0.00s)\n"}`,
		`{"Action":"skip","Package":"p/a","Test":"TestShared"}`,
		`{"Action":"output","Package":"p/a","Output":"PASS\n"}`,
		`{"Action":"output","Package":"p/a","Output":"ok  \tp/a\t0.1s\n"}`,
		`{"Action":"pass","Package":"p/a"}`,
		`{"Action":"output","Package":"p/b","Test":"TestBad","Output":"    b_test.go:3: boom\n"}`,
		`{"Action":"fail","Package":"p/b","Test":"TestBad"}`,
		`{"Action":"output","Package":"p/b","Output":"FAIL\tp/b\t0.1s\n"}`,
		`{"Action":"fail","Package":"p/b"}`,
		`not json`,
	}, "\n")
	var out bytes.Buffer
	r := &report{out: &out, testOut: map[string][]string{}}
	r.read(strings.NewReader(stream))
	r.finish()
	got := out.String()
	for _, want := range []string{
		"ok  \tp/a\t0.1s\n",
		"    b_test.go:3: boom\n",
		"FAIL\tp/b\t0.1s\n",
		"not json\n",
		"skipped tests (1):\n  p/a TestShared\n      x_test.go:9: shared corpus not found\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "PASS\n") || strings.Contains(got, "=== RUN") {
		t.Errorf("output has verbose framing:\n%s", got)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "FAIL: 1 packages ok, 1 failed, 1 tests failed, 1 tests skipped" {
		t.Errorf("last line = %q", last)
	}
}
