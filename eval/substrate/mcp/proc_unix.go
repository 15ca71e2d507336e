//go:build unix

package mcp

import (
	"os/exec"
	"syscall"

	"github.com/skillscript/skillc/internal/leaf/procgroup"
)

// setProcessGroup starts a server in a process group of its own, so that
// whatever it starts (a server behind sh -c or npx) can be killed with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// killProcessGroup kills every process left in the group led by pid and
// waits (bounded) until they are gone, so nothing of the server outlives
// the connector's teardown.
func killProcessGroup(pid int) {
	procgroup.Kill(pid, procgroup.DefaultWait)
}
