//go:build unix && !linux

package procgroup

// Alive reports whether group pgid still has a member; without /proc,
// zombies cannot be told apart and count as alive.
func Alive(pgid int) bool { return exists(pgid) }
