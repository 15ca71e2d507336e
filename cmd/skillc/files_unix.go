//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// sourceFile is a source opened for reading by its descriptor alone: no
// os.File, so no poller bookkeeping (the fcntl os.NewFile asks), no
// finalizer and no allocation per source (decisions CF4, RN2). Errors
// read as os.File's.
type sourceFile struct {
	fd   int
	path string
}

// openSource opens path for reading as os.Open does.
func openSource(path string) (sourceFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return sourceFile{}, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return sourceFile{fd: fd, path: path}, nil
	}
}

// Read reads into b; io.EOF at the end of the file.
func (f sourceFile) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &os.PathError{Op: "read", Path: f.path, Err: err}
		}
		if n == 0 && len(b) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// size is the file's size, if the system says.
func (f sourceFile) size() (int64, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		return st.Size, err == nil
	}
}

// Close closes the descriptor.
func (f sourceFile) Close() error { return syscall.Close(f.fd) }
