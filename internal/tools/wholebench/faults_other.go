//go:build !unix

package main

import "os"

// minorFaults is 0: this platform's process accounting has no page faults.
func minorFaults(*os.ProcessState) int64 { return 0 }
