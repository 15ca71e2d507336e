package main

import (
	"github.com/skillscript/skillc/internal/hostcli"
	"github.com/urfave/cli/v2"
)

// The in-process "skillc" of the tests (TestMain's program, the scripts
// and the real processes started as "skillc") runs the runtime host's
// commands itself instead of handing them to a skillc-host binary: one
// program with every command, so the serve and dashboard tests keep
// running skillc serve and skillc dashboard. The shim itself is tested
// with both real binaries (TestHostShim).
func init() {
	hostCommand = func(s *streams, name string) *cli.Command {
		return hostcli.Command(name, version, s.in, s.out, s.err)
	}
}
