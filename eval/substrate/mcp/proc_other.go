//go:build !unix

package mcp

import "os/exec"

// setProcessGroup is a no-op where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup is a no-op where process groups do not exist.
func killProcessGroup(int) {}
