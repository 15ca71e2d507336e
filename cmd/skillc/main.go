// Command skillc is the skillscript toolchain: check, format and run
// .skill.md files, and the language server behind editor integrations.
// The runtime host's commands (serve, dashboard) are skillc-host's
// (decision BS1); skillc lists them and hands them over.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/urfave/cli/v2"
)

// version is the module version of this build (see buildVersion).
var version = buildVersion()

// Exit statuses.
const (
	exitOK       = skillcli.ExitOK
	exitFindings = skillcli.ExitFindings // errors in the checked files, or a failed run
	exitUsage    = skillcli.ExitUsage    // bad flags, unreadable files
)

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// program is skillc.
var program = skillcli.Program{
	Name:        "skillc",
	Usage:       "the skillscript toolchain: check, format, run and serve .skill.md files",
	Version:     version,
	VersionLine: versionLine,
	Commands: func(stdin io.Reader, stdout, stderr io.Writer) []*cli.Command {
		return commands(&streams{in: stdin, out: stdout, err: stderr})
	},
}

// run executes the CLI with the given arguments and streams and returns
// the process exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return program.Run(args, stdin, stdout, stderr)
}

// streams carries the process streams to the commands.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func commands(s *streams) []*cli.Command {
	cmds := []*cli.Command{
		checkCommand(s),
		fmtCommand(s),
		versionCommand(s),
		runCommand(s),
		hostCommand(s, "serve"),
		testCommand(s),
		lspCommand(),
		dapCommand(),
		rulesCommand(s),
		explainCommand(s),
		completionCommand(s),
		skillsCommand(s),
		toolsCommand(s),
	}
	cmds = append(cmds, traceCommands(s)...)
	return append(cmds, approvalCommands(s)...)
}

func versionCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the skillc version",
		Action: func(c *cli.Context) error {
			fmt.Fprintf(s.out, "skillc %s\n", versionLine())
			return nil
		},
	}
}
