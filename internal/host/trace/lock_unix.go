//go:build unix

package trace

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f: waiting when wait is
// set, else failing at once when another process holds it. The kernel
// releases it when the holder exits, however it exits.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	return syscall.Flock(int(f.Fd()), how)
}

// SpoolSupported reports whether [Spool] can record runs on this platform
// (its importer must tell a live writer from a dead one by a file lock).
const SpoolSupported = true
