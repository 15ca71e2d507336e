//go:build !unix

package trace

import (
	"errors"
	"os"
)

// lockFile cannot tell a live writer from a dead one on this platform:
// the writer proceeds unlocked and the importer never takes a file, so
// [Spool] is not used there (see [SpoolSupported]).
func lockFile(_ *os.File, wait bool) error {
	if wait {
		return nil
	}
	return errors.New("file locks are not supported on this platform")
}

// SpoolSupported reports whether [Spool] can record runs on this platform
// (its importer must tell a live writer from a dead one by a file lock).
const SpoolSupported = false
