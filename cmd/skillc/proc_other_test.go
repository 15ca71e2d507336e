//go:build !linux

package main

import "github.com/rogpeppe/go-internal/testscript"

// procCmds has no process commands off Linux (they read /proc); the
// scripts using them skip there.
func procCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return nil
}
