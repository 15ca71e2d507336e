// Package procgroup ends process groups: it kills every member of a group
// and waits, bounded, until none of them is running any more. SIGKILL is
// delivered asynchronously — a process with a large heap on a busy
// machine can take a noticeable time to die — so a host that only sent
// the signal before exiting could leave a grandchild of an MCP server or
// a shell op running after it was gone (issue 22 item 12).
package procgroup

import "time"

// DefaultWait bounds how long Kill waits for the members to be gone.
const DefaultWait = 5 * time.Second

// Kill sends SIGKILL to every process of group pgid and waits up to wait
// until none of them is alive (zombies waiting for their reaper count as
// gone). It returns false when members were still alive at the bound.
// Where there are no process groups it does nothing and returns true.
func Kill(pgid int, wait time.Duration) bool {
	if pgid <= 0 {
		return true
	}
	if !signalGroup(pgid) {
		return true
	}
	deadline := time.Now().Add(wait)
	for pause := 100 * time.Microsecond; Alive(pgid); pause = min(2*pause, 10*time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pause)
	}
	return true
}
