//go:build linux

package shellexec

import "syscall"

// setParentDeathSignal makes the kernel kill the child when the host
// process dies, even by SIGKILL, so a killed runtime host leaves no
// orphaned shell children.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
