//go:build unix

package main

import (
	"os"
	"syscall"
)

// execHost replaces this process with bin (argv[0] is "skillc", then
// args): it returns only when the exec failed.
func execHost(bin string, args []string) error {
	return syscall.Exec(bin, append([]string{"skillc"}, args...), os.Environ())
}
