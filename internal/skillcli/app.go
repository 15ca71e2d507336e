// Package skillcli is what the two binaries of skillc share (decision
// BS1): skillc, the toolchain (check, fmt, run, test, lsp, …), and
// skillc-host, the runtime host (serve, dashboard), which links the
// libraries only a long-running host needs (the trigger queue, metrics,
// OpenTelemetry). It holds the command-line program around the commands
// (exit statuses, usage errors, interspersed flags, the version line),
// the flags and settings both binaries read the same way, and the names
// of the commands skillc hands to skillc-host.
package skillcli

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

// Exit statuses.
const (
	ExitOK       = 0
	ExitFindings = 1 // errors in the checked files, or a failed run
	ExitUsage    = 2 // bad flags, unreadable files
)

// Program is one of the binaries: its name, its one-line usage, its
// version line and its commands over the process streams.
type Program struct {
	Name, Usage string
	// Version is the module version (see [BuildVersion]); VersionLine is
	// what --version prints after the name (see [VersionLine]).
	Version     string
	VersionLine func() string
	Commands    func(stdin io.Reader, stdout, stderr io.Writer) []*cli.Command
}

// App builds the program's urfave/cli application over the streams.
func (p Program) App(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:                 p.Name,
		Usage:                p.Usage,
		Version:              p.Version,
		EnableBashCompletion: true,
		// --var VALUES may contain commas (JSON lists); repeat the flag instead.
		DisableSliceFlagSeparator: true,
		Reader:                    stdin,
		Writer:                    stdout,
		ErrWriter:                 stderr,
		HideVersion:               false,
		Suggest:                   true,
		Commands:                  p.Commands(stdin, stdout, stderr),
		OnUsageError:              usageError,
		ExitErrHandler:            func(*cli.Context, error) {}, // Run reports errors
	}
	setUsageErrors(app.Commands)
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintf(c.App.Writer, "%s %s\n", p.Name, p.VersionLine()) }
	// -v is --verbose in check and test; the version is --version or -V
	// (as in ruff and rustc)
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"V"}, Usage: "print the version"}
	return app
}

// Run executes the program with the given arguments and streams and
// returns the process exit status.
func (p Program) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := p.App(stdin, stdout, stderr)
	if len(args) <= 1 {
		// no command: the help goes to stderr and the status says usage,
		// as git, go and cargo do
		app.Writer = stderr
		app.Setup()
		_ = cli.ShowAppHelp(cli.NewContext(app, nil, nil))
		return ExitUsage
	}
	if msg := unknownCommand(app, args); msg != "" {
		fmt.Fprintln(stderr, p.Name+":", msg)
		return ExitUsage
	}
	err := app.Run(interspersed(app, handedHelp(app, args)))
	if err == nil {
		return ExitOK
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(stderr, p.Name+":", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, p.Name+":", err)
	return ExitUsage
}

// HostBinary is the name of the runtime host's binary, which skillc
// looks for beside itself, then on PATH, to run the commands of
// [HostCommands].
const HostBinary = "skillc-host"

// HostCommand is a command of skillc-host that skillc lists and hands
// over: its name and one-line usage (the same in both binaries' help).
type HostCommand struct{ Name, Usage string }

// HostCommands are the commands skillc-host runs.
var HostCommands = []HostCommand{
	{"serve", "run the runtime host: MCP over Streamable HTTP (/mcp) or stdio, triggers, traces, /healthz /readyz /metrics"},
	{"dashboard", "serve the approvals dashboard: pending skills with footprints; signing in the browser with SKILLSCRIPT_APPROVAL_PASSCODE"},
}

// HostUsage is the one-line usage of the host command name ("" when
// HostCommands has no such command).
func HostUsage(name string) string {
	for _, c := range HostCommands {
		if c.Name == name {
			return c.Usage
		}
	}
	return ""
}

// handedHelp turns "help NAME" into "NAME --help" when NAME is a command
// that parses its own arguments (skillc's shims of the skillc-host
// commands), so the help comes from the program that has the flags.
func handedHelp(app *cli.App, args []string) []string {
	if len(args) == 3 && (args[1] == "help" || args[1] == "h") {
		if c := app.Command(args[2]); c != nil && c.SkipFlagParsing {
			return []string{args[0], args[2], "--help"}
		}
	}
	return args
}
