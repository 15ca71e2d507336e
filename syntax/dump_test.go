package syntax

import (
	"fmt"
	"os"
	"testing"

	"github.com/skillscript/skillc/ast"
)

// TestDumpFile prints the tree and diagnostics of the file named by $DUMP:
// DUMP=path/to/file.skill.md go test -run TestDumpFile ./syntax -v
func TestDumpFile(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip("set DUMP=path/to/file.skill.md")
	}
	src, _ := os.ReadFile(p)
	f, diags := Parse(p, src)
	ast.Fprint(os.Stdout, f.Lines, f)
	for _, d := range diags {
		pos := f.Lines.Position(d.Range.From)
		fmt.Printf("%d:%d: %s[%s] %s\n", pos.Line, pos.Column, d.Severity, d.Rule, d.Message)
	}
}
