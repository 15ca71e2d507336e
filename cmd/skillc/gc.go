package main

import (
	"os"
	"runtime/debug"
)

// oneShotGCPercent is the collector's GOGC for the one-shot commands
// (check, run): a short process whose heap is mostly live until it exits
// pays for collections that free little (issue 25; decision HP-2).
const oneShotGCPercent = 400

// oneShotGC sets the collector of a one-shot command: GOGC 400 unless
// the operator set GOGC or GOMEMLIMIT, which are then kept.
func oneShotGC() {
	if _, ok := os.LookupEnv("GOGC"); ok {
		return
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		return
	}
	debug.SetGCPercent(oneShotGCPercent)
}
