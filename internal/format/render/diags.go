package render

import "github.com/skillscript/skillc/ast"

// Diag is one diagnostic in the JSON shape of `skillc check --format
// json` (file, 1-based line/column range, severity, rule, message,
// target, related, fixes); the runtime host's lint tools return it.
type Diag = jsonDiagnostic

// Diags converts the diagnostics of one source to their JSON shape.
func Diags(file string, src []byte, ds ast.Diagnostics) []Diag {
	lt := ast.NewLineTable(src)
	files := newFileLines([]ast.FileDiagnostics{{File: file, Src: src, Diags: ds}})
	out := []Diag{}
	for _, d := range ds {
		if d != nil {
			out = append(out, jsonDiag(file, lt, d, files))
		}
	}
	return out
}
