package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdInsertLine is "insertline FILE ANCHOR LINE": insert LINE (Go string
// escapes such as \u00a0 allowed) as a new line after the first line of
// FILE that contains ANCHOR, as an attacker editing a signed skill would.
func cmdInsertLine(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: insertline FILE ANCHOR LINE")
	}
	line, err := strconv.Unquote(`"` + args[2] + `"`)
	if err != nil {
		ts.Fatalf("insertline: LINE: %v", err)
	}
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, args[1]) {
			lines = append(lines[:i+1], append([]string{line + "\n"}, lines[i+1:]...)...)
			ts.Check(os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644))
			return
		}
	}
	ts.Fatalf("insertline: no line of %s contains %q", args[0], args[1])
}
