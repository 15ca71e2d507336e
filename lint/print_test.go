package lint

import (
	"fmt"
	"os"
	"testing"
)

// TestPrintFile prints the diagnostics of $LINT (a debugging aid).
func TestPrintFile(t *testing.T) {
	path := os.Getenv("LINT")
	if path == "" {
		t.Skip("set LINT=path/to/file.skill.md")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _, ds := Check(path, src, nil, Options{ReportUnusedSuppressions: true})
	for _, d := range ds {
		pos := f.Lines.Position(d.Range.From)
		fmt.Printf("%d:%d %s %s: %s [target=%s fixes=%d]\n", pos.Line, pos.Column, d.Severity, d.Rule, d.Message, d.Target, len(d.Fixes))
	}
}
