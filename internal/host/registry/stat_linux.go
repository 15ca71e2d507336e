package registry

import (
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// openStatDir opens dir for relative stats; a directory that cannot be
// opened is statted by path.
func openStatDir(dir string) *statDir {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &statDir{path: dir, fd: -1}
	}
	return &statDir{path: dir, fd: fd}
}

// close releases the descriptor.
func (d *statDir) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
		d.fd = -1
	}
}

// fstatat stats rel through the descriptor (fstatat(2)), following a
// final symbolic link or not, as os.Stat and os.Lstat.
func (d *statDir) fstatat(rel string, follow bool) (fileStat, error) {
	if rel == "" {
		rel = "."
	}
	flags, op := unix.AT_SYMLINK_NOFOLLOW, "lstat"
	if follow {
		flags, op = 0, "stat"
	}
	var st unix.Stat_t
	var err error
	for {
		if err = unix.Fstatat(d.fd, rel, &st, flags); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return fileStat{}, &fs.PathError{Op: op, Path: d.path + "/" + rel, Err: err}
	}
	var mode fs.FileMode
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode = fs.ModeDir
	case unix.S_IFLNK:
		mode = fs.ModeSymlink
	case unix.S_IFREG:
	case unix.S_IFIFO:
		mode = fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode = fs.ModeSocket
	case unix.S_IFCHR:
		mode = fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode = fs.ModeDevice
	default:
		mode = fs.ModeIrregular
	}
	return fileStat{size: st.Size, mtime: time.Unix(st.Mtim.Unix()), mode: mode}, nil
}
