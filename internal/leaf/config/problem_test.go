package config

import (
	"fmt"

	"github.com/skillscript/skillc/ast"
)

// problem is one diagnostic with its file and resolved position, the shape
// the tests assert on.
type problem struct {
	File                 string
	Offset, Line, Column int // -1, 0, 0 without a position
	Severity             ast.Severity
	Message              string
}

func (p problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", p.File, p.Line, p.Column, p.Severity, p.Message)
}

// flatten resolves the problems of Load.
func flatten(fds []ast.FileDiagnostics) []problem {
	var out []problem
	for _, fd := range fds {
		out = append(out, flattenFile(fd.File, fd.Src, fd.Diags)...)
	}
	return out
}

// flattenFile resolves the diagnostics of one file with source src.
func flattenFile(file string, src []byte, ds ast.Diagnostics) []problem {
	lines := ast.NewLineTable(src)
	var out []problem
	for _, d := range ds {
		p := problem{File: file, Offset: -1, Severity: d.Severity, Message: d.Message}
		if d.Range.From.IsValid() && src != nil {
			pos := lines.Position(d.Range.From)
			p.Offset, p.Line, p.Column = d.Range.From.Offset(), pos.Line, pos.Column
		}
		out = append(out, p)
	}
	return out
}
