package syntax

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/ast"
)

func TestSmokeCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../shared/corpus/*/*.skill.md")
	more, _ := filepath.Glob("../../shared/corpus/adversarial/*/*.skill.md")
	files = append(files, more...)
	for _, f := range files {
		src, _ := os.ReadFile(f)
		file, diags := Parse(f, src)
		for _, d := range diags {
			pos := file.Lines.Position(d.Range.From)
			fmt.Printf("%s:%d:%d: %s[%s] %s\n", filepath.Base(f), pos.Line, pos.Column, d.Severity, d.Rule, d.Message)
		}
	}
}

func TestDumpFile(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	f, diags := Parse(p, src)
	ast.Fprint(os.Stdout, f.Lines, f)
	for _, d := range diags {
		pos := f.Lines.Position(d.Range.From)
		fmt.Printf("%d:%d: %s[%s] %s\n", pos.Line, pos.Column, d.Severity, d.Rule, d.Message)
	}
}
