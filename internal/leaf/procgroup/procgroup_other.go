//go:build !unix

package procgroup

// signalGroup does nothing where there are no process groups.
func signalGroup(int) bool { return false }

// Alive is false where there are no process groups.
func Alive(int) bool { return false }
