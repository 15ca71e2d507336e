// Command skillc is the skillscript toolchain: check, format, run and serve
// .skill.md files, and the language server behind editor integrations.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"
)

// version is the module version of this build (see buildVersion).
var version = buildVersion()

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1 // errors in the checked files, or a failed run
	exitUsage    = 2 // bad flags, unreadable files
)

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes the CLI with the given arguments and streams and returns
// the process exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	if len(args) <= 1 {
		// no command: the help goes to stderr and the status says usage,
		// as git, go and cargo do
		app.Writer = stderr
		app.Setup()
		_ = cli.ShowAppHelp(cli.NewContext(app, nil, nil))
		return exitUsage
	}
	if msg := unknownCommand(app, args); msg != "" {
		fmt.Fprintln(stderr, "skillc:", msg)
		return exitUsage
	}
	err := app.Run(interspersed(app, args))
	if err == nil {
		return exitOK
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(stderr, "skillc:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "skillc:", err)
	return exitUsage
}

// streams carries the process streams to the commands.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	s := &streams{in: stdin, out: stdout, err: stderr}
	app := &cli.App{
		Name:                 "skillc",
		Usage:                "the skillscript toolchain: check, format, run and serve .skill.md files",
		Version:              version,
		EnableBashCompletion: true,
		// --var VALUES may contain commas (JSON lists); repeat the flag instead.
		DisableSliceFlagSeparator: true,
		Reader:                    stdin,
		Writer:                    stdout,
		ErrWriter:                 stderr,
		HideVersion:               false,
		Suggest:                   true,
		Commands:                  commands(s),
		OnUsageError:              usageError,
		ExitErrHandler:            func(*cli.Context, error) {}, // run() reports errors
	}
	setUsageErrors(app.Commands)
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintf(c.App.Writer, "skillc %s\n", versionLine()) }
	// -v is --verbose in check and test; the version is --version or -V
	// (as in ruff and rustc)
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"V"}, Usage: "print the version"}
	return app
}

func commands(s *streams) []*cli.Command {
	cmds := []*cli.Command{
		checkCommand(s),
		fmtCommand(s),
		versionCommand(s),
		runCommand(s),
		serveCommand(s),
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
