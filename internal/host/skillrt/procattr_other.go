//go:build !unix

package skillrt

import "os/exec"

// newProcessGroup kills only the process itself on systems without
// process groups.
func newProcessGroup(cmd *exec.Cmd) {}
