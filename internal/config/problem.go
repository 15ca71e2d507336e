package config

import (
	"fmt"
	"sort"

	"github.com/skillscript/skillc/ast"
)

// Problem is something wrong with a configuration input: an unreadable or
// malformed file, a value of the wrong type, an unknown setting. Problems
// never stop loading; the affected setting keeps its default.
type Problem struct {
	Severity ast.Severity
	File     string // the file at fault; empty for the environment
	Offset   int    // byte offset in File; -1 when unknown
	Line     int    // 1-based; 0 when unknown
	Column   int    // 1-based, in characters; 0 when unknown
	Message  string
}

// String formats the problem as "file:line:col: severity: message", leaving
// out the parts that are unknown.
func (p Problem) String() string {
	loc := p.File
	if loc == "" {
		loc = "environment"
	}
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", loc, p.Line, p.Column)
	}
	return fmt.Sprintf("%s: %s: %s", loc, p.Severity, p.Message)
}

// Error implements error.
func (p Problem) Error() string { return p.String() }

// HasErrors reports whether any problem is an error.
func HasErrors(ps []Problem) bool {
	for _, p := range ps {
		if p.Severity == ast.Error {
			return true
		}
	}
	return false
}

// problemAt builds a problem at byte offset off of src (off < 0: no position).
func problemAt(sev ast.Severity, file string, src []byte, off int, format string, args ...any) Problem {
	p := Problem{Severity: sev, File: file, Offset: -1, Message: fmt.Sprintf(format, args...)}
	if off >= 0 && src != nil {
		off = min(off, len(src))
		pos := ast.NewLineTable(src).Position(ast.PosOf(off))
		p.Offset, p.Line, p.Column = off, pos.Line, pos.Column
	}
	return p
}

// fileProblem builds a problem about a whole file.
func fileProblem(sev ast.Severity, file string, format string, args ...any) Problem {
	return problemAt(sev, file, nil, -1, format, args...)
}

// sortProblems orders problems by file, then position; problems without a
// position come first within their file. The sort is stable.
func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}
