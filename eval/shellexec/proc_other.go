//go:build !unix

package shellexec

import "os/exec"

// setProcessGroup is a no-op where process groups do not exist; the
// context still kills the direct child.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup is a no-op where process groups do not exist.
func killProcessGroup(cmd *exec.Cmd) {}
