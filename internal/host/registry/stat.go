package registry

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// fileStat is what the scan and the manifest need of a file's Lstat:
// its size, modification time and type bits.
type fileStat struct {
	size  int64
	mtime time.Time
	mode  fs.FileMode // type bits only
}

// statOf keeps what fileStat needs of an os.FileInfo.
func statOf(st fs.FileInfo) fileStat {
	return fileStat{size: st.Size(), mtime: st.ModTime(), mode: st.Mode().Type()}
}

// statDir stats paths below one directory (a scan root): relative to a
// descriptor of it where the platform has fstatat (openStatDir), so that
// the kernel resolves the two or three components below the root
// instead of the whole absolute path each time — a second `skills
// discover` makes two such calls per package (DS1). Without a
// descriptor it stats the joined path.
type statDir struct {
	path string // absolute and clean
	fd   int    // -1 without a descriptor
}

// lstat returns the Lstat of rel, a slash-separated path below d ("" for
// d itself).
func (d *statDir) lstat(rel string) (fileStat, error) { return d.statAt(rel, false) }

// stat returns the Stat of rel (a final symbolic link followed).
func (d *statDir) stat(rel string) (fileStat, error) { return d.statAt(rel, true) }

func (d *statDir) statAt(rel string, follow bool) (fileStat, error) {
	if d.fd >= 0 {
		return d.fstatat(rel, follow)
	}
	p := d.path
	if rel != "" {
		p = joinName(p, filepath.FromSlash(rel))
	}
	statf := os.Lstat
	if follow {
		statf = os.Stat
	}
	st, err := statf(p)
	if err != nil {
		return fileStat{}, err
	}
	return statOf(st), nil
}

// relJoin joins a relative slash-separated directory and a name.
func relJoin(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}
