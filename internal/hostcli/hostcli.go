// Package hostcli holds the commands of skillc-host, the runtime host's
// binary (decision BS1): serve and dashboard. They link what only a
// long-running host needs (the trigger queue, Prometheus, OpenTelemetry
// and its exporters); skillc, the toolchain, does not import this
// package and hands these commands to skillc-host instead.
package hostcli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

// streams carries the process streams and the binary's version to the
// commands.
type streams struct {
	in       io.Reader
	out, err io.Writer
	version  string
}

// Commands are skillc-host's commands over the process streams; version
// is the binary's module version (reported by /healthz, the MCP server
// and the spans it exports).
func Commands(version string, stdin io.Reader, stdout, stderr io.Writer) []*cli.Command {
	s := &streams{in: stdin, out: stdout, err: stderr, version: version}
	return []*cli.Command{serveCommand(s), dashboardCommand(s)}
}

// Command is skillc-host's command name (a name skillcli.HostCommands
// lists); it panics on any other name.
func Command(name, version string, stdin io.Reader, stdout, stderr io.Writer) *cli.Command {
	for _, c := range Commands(version, stdin, stdout, stderr) {
		if c.Name == name {
			return c
		}
	}
	panic(fmt.Sprintf("hostcli: no command %q", name))
}
