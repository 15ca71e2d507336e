package main

import (
	"fmt"
	"os"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/skillscript/skillc/ast"
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

// maxFixPasses bounds the fix-and-recheck loop (fixes whose ranges overlap
// are applied in later passes).
const maxFixPasses = 10

// applyFixes rewrites each file with its fixes applied, or prints a
// unified diff of them when showDiff is set. Fixes are applied in passes,
// re-checking in between, until no fix is left. Standard input is never
// rewritten: its fixed text goes to stdout.
func applyFixes(results []ast.FileDiagnostics, opts checkOptions, s *streams, recheck func(name string, src []byte) ast.Diagnostics) error {
	showDiff := opts.diff
	for i, r := range results {
		fixed, diags, applied := fixLoop(r.File, r.Src, r.Diags, recheck)
		if applied == 0 {
			continue
		}
		switch {
		case showDiff:
			s.out.Write(diff.Diff(r.File, r.Src, r.File+" (fixed)", fixed))
		case r.File == opts.stdinName:
			s.out.Write(fixed)
		default:
			if err := writeFileKeepMode(r.File, fixed); err != nil {
				return cli.Exit(fmt.Sprintf("%s: %v", r.File, err), exitUsage)
			}
			if !opts.quiet {
				fmt.Fprintf(s.err, "%s: applied %d fix(es)\n", r.File, applied)
			}
			results[i].Src, results[i].Diags = fixed, diags
		}
	}
	return nil
}

// fixLoop applies the fixes of diags to src, re-checking after each pass,
// and returns the final source, its diagnostics and how many edits it made.
func fixLoop(name string, src []byte, diags ast.Diagnostics, recheck func(string, []byte) ast.Diagnostics) ([]byte, ast.Diagnostics, int) {
	total := 0
	for pass := 0; pass < maxFixPasses; pass++ {
		edits := fixEdits(diags)
		if len(edits) == 0 {
			break
		}
		fixed, n := ast.ApplyEdits(src, edits)
		if n == 0 {
			break
		}
		src, total = fixed, total+n
		diags = recheck(name, src)
	}
	return src, diags, total
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
