//go:build unix

package procgroup

import (
	"errors"
	"syscall"
)

// signalGroup sends SIGKILL to group pgid; false when the group is empty.
func signalGroup(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, syscall.SIGKILL), syscall.ESRCH)
}

// exists reports whether group pgid has any member, zombies included.
func exists(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}
