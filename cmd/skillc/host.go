package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/urfave/cli/v2"
)

// hostCommand is the skillc-host command name (serve, dashboard) as
// skillc lists it: a shim that runs skillc-host with the same arguments
// (decision BS1). The tests of this package replace it with the command
// itself.
var hostCommand = shimCommand

// shimCommand lists name with skillc-host's usage line and hands its
// arguments, --help and shell completion included, to skillc-host.
func shimCommand(s *streams, name string) *cli.Command {
	return &cli.Command{
		Name:            name,
		Usage:           skillcli.HostUsage(name),
		Description:     "Run by " + skillcli.HostBinary + " (beside skillc, else on PATH); see " + skillcli.HostBinary + " " + name + " --help.",
		SkipFlagParsing: true,
		HideHelp:        true,
		Action: func(c *cli.Context) error {
			return runHost(s, append([]string{name}, c.Args().Slice()...))
		},
		BashComplete: func(c *cli.Context) {
			_ = runHost(s, append(append([]string{name}, c.Args().Slice()...), "--generate-bash-completion"))
		},
	}
}

// runHost runs skillc-host with args: in place of this process where
// the platform can (its signals, streams and exit status are then the
// host's), else as a child whose exit status is passed through. Its
// argv[0] is "skillc", the name skillc-host then uses in its help and
// errors.
func runHost(s *streams, args []string) error {
	bin, err := findHost()
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if s.in == os.Stdin && s.out == os.Stdout && s.err == os.Stderr {
		if err := execHost(bin, args); err != nil {
			return cli.Exit(fmt.Sprintf("run %s: %v", bin, err), exitUsage)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Args[0] = "skillc" // skillc-host then names itself skillc (its help and errors)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.in, s.out, s.err
	// an interrupt from the terminal reaches the child too (its process
	// group): this process waits for it to drain and takes its status,
	// as go run does
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return cli.Exit("", ee.ExitCode())
	}
	return cli.Exit(fmt.Sprintf("run %s: %v", bin, err), exitUsage)
}

// findHost returns the path of skillc-host: beside this executable
// first (a release archive, go install and make build put both in one
// directory), then on PATH; the error says how to install it.
func findHost() (string, error) {
	name := skillcli.HostBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	var beside string
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		beside = filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(beside); err == nil && !st.IsDir() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(skillcli.HostBinary); err == nil {
		return p, nil
	}
	v := version
	if !strings.HasPrefix(v, "v") {
		v = "latest"
	}
	where := "on PATH"
	if beside != "" {
		where = "beside skillc (" + beside + ") or on PATH"
	}
	return "", fmt.Errorf("the runtime host's commands (serve, dashboard) are in the %s binary, which was not found %s: "+
		"install it with `go install github.com/skillscript/skillc/cmd/%s@%s`, or take it from the release archive (docs/serve.md)",
		skillcli.HostBinary, where, skillcli.HostBinary, v)
}
