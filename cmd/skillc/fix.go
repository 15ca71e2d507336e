package main

import (
	"fmt"
	"os"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/render"
	"github.com/urfave/cli/v2"
)

// fixEdits collects the first fix of every diagnostic that has one.
func fixEdits(ds ast.Diagnostics) []ast.TextEdit {
	var edits []ast.TextEdit
	for _, d := range ds {
		if len(d.Fixes) > 0 {
			edits = append(edits, d.Fixes[0].Edits...)
		}
	}
	return edits
}

// applyFixes rewrites each file with its fixes applied, or prints a
// unified diff of them when showDiff is set. Standard input is never
// rewritten: its fixed text goes to stdout.
func applyFixes(results []render.FileResult, showDiff bool, s *streams, recheck func(name string, src []byte) ast.Diagnostics) error {
	for i, r := range results {
		edits := fixEdits(r.Diags)
		if len(edits) == 0 {
			continue
		}
		fixed, n := ast.ApplyEdits(r.Src, edits)
		if n == 0 {
			continue
		}
		switch {
		case showDiff:
			s.out.Write(diff.Diff(r.File, r.Src, r.File+" (fixed)", fixed))
		case r.File == "<stdin>":
			s.out.Write(fixed)
		default:
			if err := writeFileKeepMode(r.File, fixed); err != nil {
				return cli.Exit(fmt.Sprintf("%s: %v", r.File, err), exitUsage)
			}
			fmt.Fprintf(s.err, "%s: applied %d fix(es)\n", r.File, n)
			results[i].Src = fixed
			results[i].Diags = recheck(r.File, fixed)
		}
	}
	return nil
}

func writeFileKeepMode(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp := path + ".skillc-tmp"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
