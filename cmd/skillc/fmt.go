package main

import (
	"bytes"
	"fmt"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/skillscript/skillc/internal/render"
	"github.com/skillscript/skillc/syntax"
	"github.com/urfave/cli/v2"
)

func fmtCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "fmt",
		Usage:     "format skills in the canonical layout",
		ArgsUsage: "[PATH...]  (files or directories; stdin when none)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "w", Usage: "write the result back to the file instead of stdout"},
			&cli.BoolFlag{Name: "d", Usage: "print a diff instead of the formatted source"},
			&cli.BoolFlag{Name: "l", Usage: "list the files whose formatting differs"},
		},
		Action: func(c *cli.Context) error { return runFmt(c, s) },
	}
}

func runFmt(c *cli.Context, s *streams) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		args = []string{"-"}
	}
	paths, err := collectPaths(args)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	status := exitOK
	for _, p := range paths {
		st, err := fmtOne(c, s, p)
		if err != nil {
			return err
		}
		status = max(status, st)
	}
	if status != exitOK {
		return cli.Exit("", status)
	}
	return nil
}

// fmtOne formats one file and returns the exit status it contributes.
func fmtOne(c *cli.Context, s *streams, path string) (int, error) {
	src := readSource(path, s.in)
	if src.Err != nil {
		return 0, cli.Exit(fmt.Sprintf("%s: %v", src.Path, errNoFile(src.Err)), exitUsage)
	}
	out, diags := syntax.FormatSource(src.Path, src.Src)
	if diags.HasErrors() {
		render.Human(s.err, src.Path, src.Src, diags, render.HumanOptions{Context: true})
		fmt.Fprintf(s.err, "%s: not formatted: fix the syntax errors first\n", src.Path)
		return exitFindings, nil
	}
	changed := !bytes.Equal(out, src.Src)
	if c.Bool("l") && changed {
		fmt.Fprintln(s.out, src.Path)
	}
	switch {
	case c.Bool("d"):
		if changed {
			s.out.Write(diff.Diff(src.Path, src.Src, src.Path+" (formatted)", out))
		}
	case c.Bool("w") && src.Path != "<stdin>":
		if changed {
			if err := writeFileKeepMode(src.Path, out); err != nil {
				return 0, cli.Exit(fmt.Sprintf("%s: %v", src.Path, err), exitUsage)
			}
		}
	case !c.Bool("l"):
		s.out.Write(out)
	}
	return exitOK, nil
}
