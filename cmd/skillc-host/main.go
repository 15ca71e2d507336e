// Command skillc-host is the skillscript runtime host: skillc serve and
// skillc dashboard. It is skillc's companion binary (decision BS1): it
// links what only a long-running host needs (the trigger queue,
// Prometheus metrics, OpenTelemetry), which the toolchain, skillc, leaves
// out to start fast; skillc runs these commands through it.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/internal/hostcli"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/urfave/cli/v2"
)

// stampedVersion is the release version stamped in by the release tool
// and the container image build (-ldflags "-X main.stampedVersion=v1.2.3"),
// as in skillc; empty for other builds.
var stampedVersion string

func main() {
	os.Exit(program(os.Args[0]).Run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// program is skillc-host run as argv0: skillc's shim runs it as
// "skillc", and then its help, usage lines and errors name skillc, as
// the user typed (skillc serve --help reads as it always did).
func program(argv0 string) skillcli.Program {
	version := skillcli.BuildVersion(stampedVersion)
	line := func() string { return skillcli.VersionLine(stampedVersion) }
	name := skillcli.HostBinary
	if b := strings.TrimSuffix(filepath.Base(argv0), ".exe"); b == "skillc" {
		name = b
	}
	return skillcli.Program{
		Name:        name,
		Usage:       "the skillscript runtime host (run as skillc serve and skillc dashboard too)",
		Version:     version,
		VersionLine: line,
		Commands: func(stdin io.Reader, stdout, stderr io.Writer) []*cli.Command {
			return append(hostcli.Commands(version, stdin, stdout, stderr), &cli.Command{
				Name:  "version",
				Usage: "print the skillc-host version",
				Action: func(*cli.Context) error {
					fmt.Fprintf(stdout, "%s %s\n", skillcli.HostBinary, line())
					return nil
				},
			})
		},
	}
}
