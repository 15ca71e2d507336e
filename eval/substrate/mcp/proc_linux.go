//go:build linux

package mcp

import "syscall"

// setParentDeathSignal makes the kernel kill the server when this process
// dies, even by SIGKILL.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
