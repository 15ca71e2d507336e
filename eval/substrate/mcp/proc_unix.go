//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts a server in a process group of its own, so that
// whatever it starts (a server behind sh -c or npx) can be killed with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// killProcessGroup kills every process left in the group led by pid.
func killProcessGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
