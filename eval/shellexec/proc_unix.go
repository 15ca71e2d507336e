//go:build unix

package shellexec

import (
	"os/exec"
	"syscall"

	"github.com/skillscript/skillc/internal/leaf/procgroup"
)

// setProcessGroup starts the child in a new process group and makes
// cancellation kill the whole group.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killProcessGroup kills whatever the finished child left running in its
// group (background jobs of an unsafe script) and waits (bounded) until
// it is gone.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		procgroup.Kill(cmd.Process.Pid, procgroup.DefaultWait)
	}
}
