//go:build unix

package main

import (
	"os"
	"syscall"
)

// minorFaults is the child's minor page faults (ru_minflt), 0 where the
// rusage does not say.
func minorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Minflt)
	}
	return 0
}
