package main

import (
	"bytes"
	"fmt"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/syntax"
	"github.com/urfave/cli/v2"
)

func fmtCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "fmt",
		Usage:     "format skills in the canonical layout",
		ArgsUsage: "[PATH...]  (files, directories, quoted glob patterns, or - for stdin; stdin when none)",
		Description: "Without flags the formatted source is printed. -w rewrites the files, -l lists the files whose\n" +
			"formatting differs, -d prints a unified diff (as gofmt). --check lists the files that would change\n" +
			"and exits 1 when there is any (as ruff format --check); with -d it prints their diffs instead.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "w", Usage: "write the result back to the file instead of stdout"},
			&cli.BoolFlag{Name: "d", Aliases: []string{"diff"}, Usage: "print a diff instead of the formatted source"},
			&cli.BoolFlag{Name: "l", Usage: "list the files whose formatting differs"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; list the files that would be reformatted and exit 1 if any"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "with --check, print nothing: the exit status tells"},
			stdinFilenameFlag(),
		},
		Action: func(c *cli.Context) error { return runFmt(c, s) },
	}
}

func runFmt(c *cli.Context, s *streams) error {
	if c.Bool("check") && c.Bool("w") {
		return cli.Exit("--check and -w exclude each other", exitUsage)
	}
	args := c.Args().Slice()
	if len(args) == 0 {
		args = []string{"-"}
	}
	in, err := collectPaths(args)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	unmatched := warnUnmatched(s, in)
	status := exitOK
	changed := 0
	for _, p := range in.paths {
		st, ch, err := fmtOne(c, s, p)
		if err != nil {
			return err
		}
		if ch {
			changed++
		}
		status = max(status, st)
	}
	if c.Bool("check") && changed > 0 {
		if !c.Bool("quiet") {
			fmt.Fprintf(s.err, "%d file(s) would be reformatted\n", changed)
		}
		status = max(status, exitFindings)
	}
	if unmatched {
		status = exitUsage
	}
	if status != exitOK {
		return cli.Exit("", status)
	}
	return nil
}

// fmtOne formats one file and returns the exit status it contributes and
// whether its formatting differs.
func fmtOne(c *cli.Context, s *streams, path string) (int, bool, error) {
	src := readSource(path, s.in)
	if path == "-" {
		src.Path = stdinDisplayName(c)
	}
	if src.Err != nil {
		return 0, false, cli.Exit(fmt.Sprintf("%s: %v", src.Path, errNoFile(src.Err)), exitUsage)
	}
	out, diags := syntax.FormatSource(src.Path, src.Src)
	if diags.HasErrors() {
		render.Human(s.err, src.Path, src.Src, diags, render.HumanOptions{Context: true})
		fmt.Fprintf(s.err, "%s: not formatted: fix the syntax errors first\n", src.Path)
		return exitFindings, false, nil
	}
	changed := !bytes.Equal(out, src.Src)
	check, quiet := c.Bool("check"), c.Bool("quiet")
	if changed && (c.Bool("l") || (check && !quiet && !c.Bool("d"))) {
		fmt.Fprintln(s.out, src.Path)
	}
	switch {
	case c.Bool("d"):
		if changed && !quiet {
			s.out.Write(diff.Diff(src.Path, src.Src, src.Path+" (formatted)", out))
		}
	case check:
	case c.Bool("w") && path != "-":
		if changed {
			if err := writeFileKeepMode(src.Path, out); err != nil {
				return 0, false, cli.Exit(fmt.Sprintf("%s: %v", src.Path, err), exitUsage)
			}
		}
	case !c.Bool("l"):
		s.out.Write(out)
	}
	return exitOK, changed, nil
}
