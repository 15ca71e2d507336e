package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"skillc": func() int { return run(os.Args, os.Stdin, os.Stdout, os.Stderr) },
	}))
}

// TestScripts runs the CLI scripts in testdata/script (testscript format:
// commands, expected output, and the files they use in one archive).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: scriptCmds(),
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			env.Setenv("SKILLSCRIPT_HOME", env.WorkDir+"/.skillscript")
			return nil
		},
	})
}

// scriptCmds are the custom script commands: the process helpers of this
// platform and exits.
func scriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){"exits": cmdExits, "insertline": cmdInsertLine}
	for name, f := range procCmds() {
		cmds[name] = f
	}
	return cmds
}

// cmdExits is "exits N PROG ARGS...": run PROG like exec and require exit
// status N (exec only tells zero from non-zero). Its output is kept for
// the stdout and stderr commands that follow.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
