//go:build !unix

package benchinput

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
