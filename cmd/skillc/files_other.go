//go:build !unix

package main

import "os"

// openSource opens path for reading (os.Open; see files_unix.go).
func openSource(path string) (*os.File, error) { return os.Open(path) }
