//go:build !unix

package skillstore

import "io/fs"

// inode returns 0 where the platform exposes no inode number.
func inode(fs.FileInfo) uint64 { return 0 }
