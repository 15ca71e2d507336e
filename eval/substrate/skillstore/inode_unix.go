//go:build unix

package skillstore

import (
	"io/fs"
	"syscall"
)

// inode returns the file's inode number where the platform exposes one.
// Atomic rewrites create a new inode, so it distinguishes rewrites that
// share a modification time.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
