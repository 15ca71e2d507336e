//go:build unix

package skillrt

import (
	"os/exec"
	"syscall"
)

// newProcessGroup starts cmd in its own process group and makes
// cancellation kill the whole group, so children the script spawned die
// with it.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
