//go:build !linux

package registry

// openStatDir returns a statDir that stats by path: fstatat is used on
// Linux only (its stat layout differs between the other systems).
func openStatDir(dir string) *statDir { return &statDir{path: dir, fd: -1} }

func (d *statDir) close() {}

// fstatat is never reached without a descriptor.
func (d *statDir) fstatat(rel string, follow bool) (fileStat, error) {
	panic("registry: fstatat without a descriptor")
}
