//go:build !unix

package main

import "os"

// sourceFile is a source opened for reading (see files_unix.go).
type sourceFile struct{ *os.File }

// openSource opens path for reading.
func openSource(path string) (sourceFile, error) {
	f, err := os.Open(path)
	return sourceFile{f}, err
}

// size is the file's size, if the system says.
func (f sourceFile) size() (int64, bool) {
	st, err := f.Stat()
	if err != nil {
		return 0, false
	}
	return st.Size(), true
}
