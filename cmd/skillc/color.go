package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"
)

// colorFlag is --color=always|never|auto.
func colorFlag() cli.Flag {
	return &cli.StringFlag{Name: "color", Value: "auto", Usage: "colour the output: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never"}
}

// stdinFilenameFlag names standard input ("-") for diagnostics and for
// finding its configuration.
func stdinFilenameFlag() cli.Flag {
	return &cli.StringFlag{Name: "stdin-filename", Usage: "the file name standard input (-) stands for: used in diagnostics and to find its configuration"}
}

// stdinDisplayName is --stdin-filename, or "<stdin>".
func stdinDisplayName(c *cli.Context) string {
	if n := c.String("stdin-filename"); n != "" {
		return n
	}
	return stdinName
}

// colorChoice is the resolved --color setting.
type colorChoice int

const (
	colorAuto colorChoice = iota
	colorAlways
	colorNever
)

// colorMode parses --color (and the hidden --no-color).
func colorMode(c *cli.Context) (colorChoice, error) {
	if c.Bool("no-color") {
		return colorNever, nil
	}
	switch c.String("color") {
	case "", "auto":
		return colorAuto, nil
	case "always":
		return colorAlways, nil
	case "never":
		return colorNever, nil
	}
	return colorAuto, cli.Exit(fmt.Sprintf("unknown --color %q: want always, never or auto", c.String("color")), exitUsage)
}

// enabled decides whether output written to w is coloured. always and
// never are final. auto colours a terminal, unless NO_COLOR is set to
// anything non-empty; FORCE_COLOR (non-empty and not "0" or "false")
// colours even when w is not a terminal, and wins over NO_COLOR as in
// the Node.js tools that defined it.
func (m colorChoice) enabled(w io.Writer) bool {
	switch m {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	if f := os.Getenv("FORCE_COLOR"); f != "" && f != "0" && f != "false" {
		return true
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
