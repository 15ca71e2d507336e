package config

import (
	"fmt"
	"sort"

	"github.com/skillscript/skillc/ast"
)

// Problems are reported as ast.Diagnostic values with byte ranges into the
// file at fault, grouped per file in ast.FileDiagnostics (with the file's
// source, which turns the ranges into lines and columns). A problem of the
// process environment has no file: its FileDiagnostics has an empty File
// and no source. Problems never stop loading; the affected setting keeps
// its default.

// diagAt builds a diagnostic at byte offset off of src (off < 0: no
// position). The range is empty: config problems point at a value's start.
func diagAt(sev ast.Severity, src []byte, off int, format string, args ...any) *ast.Diagnostic {
	d := &ast.Diagnostic{Severity: sev, Message: fmt.Sprintf(format, args...)}
	if off >= 0 && src != nil {
		off = min(off, len(src))
		d.Range = ast.RangeOf(off, off)
	}
	return d
}

// diagAtLine builds a diagnostic at the start of 1-based line n of src.
func diagAtLine(sev ast.Severity, src []byte, n int, format string, args ...any) *ast.Diagnostic {
	if src == nil || n < 1 {
		return diagAt(sev, nil, -1, format, args...)
	}
	return diagAt(sev, src, ast.NewLineTable(src).LineStart(n), format, args...)
}

// sortByPosition orders diagnostics by position; those without one come
// first. The sort is stable.
func sortByPosition(ds ast.Diagnostics) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Range.From < ds[j].Range.From })
}

// HasErrors reports whether any diagnostic of any file is an error.
func HasErrors(fds []ast.FileDiagnostics) bool {
	for _, fd := range fds {
		if fd.Diags.HasErrors() {
			return true
		}
	}
	return false
}

// Format renders problems one a line as "file:line:col: severity: message",
// leaving out the parts that are unknown; problems of the environment are
// prefixed "environment". Columns count characters.
func Format(fds []ast.FileDiagnostics) []string {
	var out []string
	for _, fd := range fds {
		var lines *ast.LineTable
		if fd.Src != nil {
			lines = ast.NewLineTable(fd.Src)
		}
		for _, d := range fd.Diags {
			out = append(out, formatOne(fd.File, lines, d))
		}
	}
	return out
}

func formatOne(file string, lines *ast.LineTable, d *ast.Diagnostic) string {
	loc := file
	if loc == "" {
		loc = "environment"
	}
	if lines != nil && d.Range.From.IsValid() {
		pos := lines.Position(d.Range.From)
		loc = fmt.Sprintf("%s:%d:%d", loc, pos.Line, pos.Column)
	}
	return fmt.Sprintf("%s: %s: %s", loc, d.Severity, d.Message)
}

// problems collects the diagnostics of one Load per file.
type problems struct {
	byFile map[string]*ast.FileDiagnostics
	srcs   map[string][]byte
}

// source records the contents of file, for positions reported later.
func (ps *problems) source(file string, src []byte) {
	if ps.srcs == nil {
		ps.srcs = map[string][]byte{}
	}
	ps.srcs[file] = src
}

// add reports ds against file ("" = the environment).
func (ps *problems) add(file string, ds ...*ast.Diagnostic) {
	if len(ds) == 0 {
		return
	}
	if ps.byFile == nil {
		ps.byFile = map[string]*ast.FileDiagnostics{}
	}
	fd := ps.byFile[file]
	if fd == nil {
		fd = &ast.FileDiagnostics{File: file}
		ps.byFile[file] = fd
	}
	fd.Diags = append(fd.Diags, ds...)
}

// list returns the problems by file name, each file's sorted by position
// and carrying the file's source when it was read.
func (ps *problems) list() []ast.FileDiagnostics {
	out := make([]ast.FileDiagnostics, 0, len(ps.byFile))
	for file, fd := range ps.byFile {
		fd.Src = ps.srcs[file]
		sortByPosition(fd.Diags)
		out = append(out, *fd)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
